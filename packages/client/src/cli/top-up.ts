import { topUpMission } from "../top-up.js";
import { EXIT, need, notSignedIn, str, UsageError, type Ctx } from "./context.js";
import { emit, keyValues } from "./output.js";

// `oabp topup <mission> <amount>`: a reward top-up (top-up.ts); on the base rail the wallet funds
// the top-up's own slot with fundUntil and its refund_after, then the command waits until it applies.

export async function topUp(ctx: Ctx): Promise<number> {
  const [id, amount] = ctx.args;
  if (!id || !amount || !/^[1-9][0-9]{0,77}$/.test(amount))
    throw new UsageError("usage: oabp topup <mission> <amount, base units> [--rpc-url URL] [--permit|--approve]");
  if (ctx.flags.permit && ctx.flags.approve) throw new UsageError("--permit and --approve exclude each other");
  const account = await ctx.client.account();
  if (!account) throw notSignedIn();
  const a = await topUpMission(ctx.client, need(id, "mission id"), BigInt(amount), {
    rpcUrl: str(ctx.flags, "rpc-url") ?? ctx.env.OABP_RPC_URL,
    account,
    permit: ctx.flags.permit ? "permit" : ctx.flags.approve ? "approve" : "auto",
    pollMs: Number(str(ctx.flags, "interval") ?? 2) * 1000,
    maxPolls: Number(str(ctx.flags, "max-polls") ?? 900),
    onProgress: (p) => {
      if (!ctx.out.json) ctx.out.err(`${p.step}${"tx_hash" in p ? `: ${p.tx_hash}` : ""}\n`);
    },
  });
  emit(ctx.out, a, () => keyValues(a as unknown as Record<string, unknown>, ["id", "status", "amount"]));
  return a.status === "applied" ? EXIT.ok : EXIT.failed;
}
