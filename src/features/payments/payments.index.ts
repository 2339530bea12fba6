import { agentCtx } from "../../http/handler";
import { router } from "../../http/openapi";
import { depositRoute } from "./payments.routes";
import { deposit } from "./payments.service";
import { decodeHeader, encodeHeader } from "./payments.x402";

export const paymentsRouter = router().openapi(depositRoute, async (c) => {
  const body = c.req.valid("json");
  const header = c.req.valid("header")["payment-signature"];
  const out = await deposit(agentCtx(c), {
    asset: body.asset,
    amount: body.amount,
    payment: header === undefined ? undefined : decodeHeader(header),
    resource: {
      url: `${c.get("deps").config.publicUrl}${c.req.path}`,
      description: `Deposit ${body.amount} ${body.asset} base units to your balance`,
    },
  });
  if (out.kind === "payment_required") {
    c.header("PAYMENT-REQUIRED", encodeHeader(out.required));
    return c.json(out.required, 402);
  }
  c.header("PAYMENT-RESPONSE", encodeHeader(out.settlement));
  return c.json(out.deposit, 200);
});
