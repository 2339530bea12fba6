import { sql } from "drizzle-orm";
import type { Deps } from "../deps";
import {
  attemptDelivery,
  claimDueDeliveries,
  fanOutEvents,
  recordAttempt,
  type AttemptOutcome,
  type ClaimedDelivery,
  runVerifications,
} from "../features/webhooks";
import { pushRequest } from "../features/a2a";

// The webhook outbox job (docs/design.md "Architecture": webhook outbox). Like the sweeper, its queue is
// committed rows: events not yet fanned out, deliveries whose next_attempt_at has passed. Safe
// on several instances at once (SKIP LOCKED claims with a lease), resumable after any crash.

/** Attempts sent at once: a slow endpoint must not hold up the others. */
const CONCURRENCY = 8;
const CLAIM_BATCH = 20;
/** Finished deliveries and delivered events are kept this long (GET …/deliveries), then purged. */
export const WEBHOOK_RETENTION_MS = 30 * 86_400_000;

async function deliverOne(deps: Deps, c: ClaimedDelivery): Promise<void> {
  let outcome: AttemptOutcome;
  try {
    // An A2A push config sends the task as it is now (docs/a2a.md "Push notifications").
    outcome = await attemptDelivery(deps, { delivery: c, push: await pushRequest(deps, c) });
  } catch (err) {
    // The fetcher reports failures as data; anything thrown is our bug — count it as a failed
    // attempt so the schedule (and the window) still bound the delivery.
    deps.logger.error({ err, event: c.eventId, webhook: c.subscriptionId }, "webhook attempt threw");
    outcome = { kind: "failed", at: deps.clock.now(), durationMs: 0, statusCode: null, error: "internal_error" };
  }
  // If recording fails, the claim's lease runs out and the attempt is made again (at least once).
  await recordAttempt(deps, { delivery: c, outcome }).catch((err: unknown) =>
    deps.logger.error(
      { err, event: c.eventId, webhook: c.subscriptionId },
      "recording a webhook attempt failed; retried after the lease",
    ),
  );
}

/**
 * Fans out new events, challenges new endpoints, then sends due deliveries, within a time budget
 * (at least one claim round per tick). Returns delivery attempts made. A claim is fair across
 * owners and capped per destination host (webhooks.claim.ts); attempts run CONCURRENCY at a
 * time, so never-answering endpoints hold a worker for one timeout each, never a whole tick's
 * worth of other owners' deliveries.
 */
export async function runWebhookJobs(deps: Deps, budgetMs = 20_000): Promise<number> {
  if (!deps.config.webhooksEnabled) return 0;
  const started = performance.now();
  const spent = () => performance.now() - started > budgetMs;
  for (let round = 0; round < 20 && !spent(); round++) if ((await fanOutEvents(deps)) === 0) break;
  await runVerifications(deps);
  let attempted = 0;
  do {
    const claimed = await claimDueDeliveries(deps, CLAIM_BATCH);
    if (claimed.length === 0) break;
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) await deliverOne(deps, claimed[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, worker));
    attempted += claimed.length;
  } while (!spent());
  return attempted;
}

/** Deletes finished deliveries and old events past the retention, in bounded batches. */
export async function purgeWebhookHistory(deps: Deps, batch = 1000): Promise<void> {
  const before = new Date(deps.clock.now().getTime() - WEBHOOK_RETENTION_MS).toISOString();
  const db = deps.database.db;
  await db.execute(sql`delete from webhook_deliveries where (subscription_id, event_id) in (
    select subscription_id, event_id from webhook_deliveries where status <> 'pending' and updated_at < ${before}::timestamptz limit ${batch})`);
  // An event outlives its deliveries; one never fanned out (webhooks disabled) goes at the same age.
  await db.execute(sql`delete from webhook_events where id in (
    select id from webhook_events ev where occurred_at < ${before}::timestamptz
      and not exists (select 1 from webhook_deliveries d where d.event_id = ev.id) limit ${batch})`);
}
