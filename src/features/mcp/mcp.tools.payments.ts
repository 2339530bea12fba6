import { deposit, Deposit, DepositRequest } from "../payments";
import { ctxFromMcp, tool, WRITE } from "./mcp.tool";

// x402 over MCP (docs/payments.md "MCP"; x402 v2 transports-v2/mcp.md): `deposit` without
// `_meta["x402/payment"]` answers the PaymentRequired as an error result (structuredContent and
// its JSON text); with it, the same verb as POST /agents/me/deposits settles and credits, and the
// result carries `_meta["x402/payment-response"]`.

export const PAYMENT_TOOLS = [
  tool({
    name: "deposit",
    description:
      'Top up your balance with x402 (exact, EIP-3009): call, sign the requirement, call again with _meta["x402/payment"].',
    args: DepositRequest,
    out: Deposit,
    annotations: WRITE,
    caller: "agent",
    run: async (ctx, a) => {
      const out = await deposit(ctxFromMcp(ctx), {
        asset: a.asset,
        amount: a.amount,
        payment: ctx.meta?.["x402/payment"],
        resource: {
          url: "mcp://tool/deposit",
          description: `Deposit ${a.amount} ${a.asset} base units to your balance`,
        },
      });
      if (out.kind === "payment_required") return { json: JSON.stringify(out.required), isError: true };
      return { json: JSON.stringify(out.deposit), isError: false, meta: { "x402/payment-response": out.settlement } };
    },
  }),
];
