import { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { agentCtx } from "../../http/handler";
import type { AppEnv } from "../../http/types";
import { AppError, errorBody } from "../../lib/errors";
import { dbOf, type Ctx } from "../../lib/context";
import { agentAccount, balancesOf } from "../ledger";
import { payShortfall, type Resource } from "./payments.service";
import { decodeHeader, encodeHeader, type PaymentRequired, type SettlementResponse } from "./payments.x402";
import { findAsset } from "../../lib/money";

// Fees paid in the request (docs/payments.md "Fees paid in the request"): a hook around
// `POST /missions`, registered by app.ts, so that the missions feature never imports payments.
// A create that fails for the caller's balance answers 402 with PAYMENT-REQUIRED for exactly the
// missing amount; its retry with PAYMENT-SIGNATURE is settled and credited as a deposit first,
// then the create runs and debits the balance in its own transaction.

/** The part of a create request that says what it debits; the route validates the whole body. */
const Debits = z.object({
  reward: z.object({
    asset: z.string().max(64),
    amount: z.string().regex(/^\d{1,78}$/),
    chain: z.string().max(16).optional(),
  }),
});

const InsufficientDetails = z.object({ asset: z.string(), available: z.string(), required: z.string() });

const resourceOf = (c: Context<AppEnv>, asset: string, amount: bigint): Resource => ({
  url: `${c.get("deps").config.publicUrl}${c.req.path}`,
  description: `The mission's reward and spam fee: ${amount} ${asset} base units your balance lacks`,
});

/** What the create would still lack on the caller's balance (ledger rail: reward + spam fee), or null. */
async function shortfall(c: Context<AppEnv>, ctx: Ctx): Promise<{ asset: string; amount: bigint } | null> {
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch {
    return null; // the route refuses it
  }
  const parsed = Debits.safeParse(json);
  const asset = parsed.data && findAsset(ctx.deps.config.assets, parsed.data.reward.asset);
  if (!parsed.data || !asset || (parsed.data.reward.chain ?? "ledger") !== "ledger") return null;
  const debit = BigInt(parsed.data.reward.amount) + BigInt(asset.spam_fee);
  const caller = c.get("identity");
  if (caller.kind !== "agent") return null;
  const balance = (await balancesOf(dbOf(ctx), agentAccount(caller.address))).get(asset.symbol) ?? 0n;
  return debit > balance ? { asset: asset.symbol, amount: debit - balance } : null;
}

/** The 402: PAYMENT-REQUIRED for x402 clients, the write's own error code in the JSON for the others. */
function answer402(c: Context<AppEnv>, required: PaymentRequired, err: AppError) {
  const body = errorBody(err.code, err.message, c.get("requestId") ?? "req_unknown", {
    ...err.details,
    reason: required.error,
    missing: required.accepts[0]?.amount,
    payment_required: required,
  });
  const res = c.json(body, 402);
  res.headers.set("PAYMENT-REQUIRED", encodeHeader(required));
  return res;
}

/** A write that failed for the balance: its 402, or undefined when x402 cannot pay it here. */
async function requiredAfter(c: Context<AppEnv>, ctx: Ctx, err: AppError) {
  const d = InsufficientDetails.safeParse(err.details).data;
  if (!d) return undefined;
  const amount = BigInt(d.required) - BigInt(d.available);
  const out = await payShortfall(ctx, {
    asset: d.asset,
    amount,
    payment: undefined,
    resource: resourceOf(c, d.asset, amount),
  }).catch(() => undefined); // x402 off (no relayer, asset not on Base): the 409 stands
  return out?.kind === "payment_required" ? answer402(c, out.required, err) : undefined;
}

/** The middleware on `POST /missions` (and `/api/missions`): only a signed-in agent's own write. */
export function feesInRequest(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== "POST" || c.get("identity").kind !== "agent") return next();
    const ctx = agentCtx(c);
    const header = c.req.header("payment-signature");
    let settled: SettlementResponse | undefined;
    const lacking = header === undefined ? null : await shortfall(c, ctx);
    if (header !== undefined && lacking) {
      const out = await payShortfall(ctx, {
        ...lacking,
        payment: decodeHeader(header),
        resource: resourceOf(c, lacking.asset, lacking.amount),
      });
      if (out.kind === "payment_required")
        return answer402(
          c,
          out.required,
          new AppError("INSUFFICIENT_BALANCE", `the payment for ${lacking.asset} was refused`, {
            asset: lacking.asset,
          }),
        );
      settled = out.settlement;
    }
    await next();
    const err = c.error;
    if (err instanceof AppError && err.code === "INSUFFICIENT_BALANCE") {
      const res = await requiredAfter(c, agentCtx(c), err);
      if (res) c.res = res;
    }
    if (settled) c.res.headers.set("PAYMENT-RESPONSE", encodeHeader(settled));
  };
}
