import { and, asc, eq, lt } from "drizzle-orm";
import type { Deps } from "../../deps";
import type { Job } from "../../jobs/job";
import { x402Payments } from "../../db/schema/index";
import { ctxForJob } from "../../lib/context";
import { x402Rail } from "./payments.rail";
import { failPayment, settle } from "./payments.service";

/** A recorded payment this old is no longer its request's: the recovery takes it over. */
const STALE_MS = 60_000;
const BATCH = 20;

/**
 * The crash-safety of docs/payments.md "Exactly once": a payment recorded as `verified` whose
 * request died (before the relay, or after it and before the credit) is finished here — credited
 * when the token has used the authorization, relayed again while it is valid, failed once it has
 * expired unused. Each row at most BATCH per round; an outage leaves the row for the next round.
 */
export async function recoverPayments(deps: Deps): Promise<number> {
  if (!deps.chain?.relayer) return 0;
  const ctx = ctxForJob(deps);
  const rows = await deps.database.db
    .select()
    .from(x402Payments)
    .where(and(eq(x402Payments.status, "verified"), lt(x402Payments.updatedAt, new Date(ctx.now.getTime() - STALE_MS))))
    .orderBy(asc(x402Payments.updatedAt))
    .limit(BATCH);
  let done = 0;
  for (const row of rows) {
    try {
      const rail = await x402Rail(deps, row.asset);
      const used = await rail.relayer.authorizationUsed(rail.token, row.payer, row.nonce);
      if (!used && row.validBefore <= Math.floor(ctx.now.getTime() / 1000))
        await failPayment(ctx, { row, reason: "invalid_exact_evm_payload_authorization_valid_before" });
      else await settle(ctx, { rail, row });
      done++;
    } catch (err) {
      deps.logger.warn({ err, payment: row.id }, "x402 payment recovery: will retry");
    }
  }
  return done;
}

export const paymentsJobs: Job[] = [
  { name: "recover_x402_payments", loop: "tick", run: (deps) => recoverPayments(deps) },
];
