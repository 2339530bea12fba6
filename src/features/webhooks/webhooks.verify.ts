import { and, asc, eq, lte } from "drizzle-orm";
import { parseJsonBounded } from "../../lib/json-text";
import { webhookSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { randomToken } from "../../lib/hash";
import { webhookHeaders } from "../../lib/webhook-signature";
import { disable, MAX_RESPONSE_BYTES } from "./webhooks.delivery";
import { attemptTimeoutMs, leaseMs } from "./webhooks.claim";

// Endpoint verification before the first real delivery (docs/abuse-edge.md
// "Webhooks"). Without it anyone could point free subscriptions at a third party's server and
// have this one flood it. A new subscription is `pending_verification`: the job POSTs a signed
// `webhook.verification` message whose data carries a fresh random challenge, and the endpoint
// must answer 2xx with the JSON body {"challenge": "<the same string>"}. Only then is it
// `active` and are its queued deliveries claimed. A generic echo server does not pass (the
// challenge is nested in `data`, the answer must carry it at the top level). After
// MAX_VERIFY_ATTEMPTS failures the subscription is disabled (verification_failed) and its queued
// deliveries closed: a victim's server receives at most that many requests per subscription.

const VERIFICATION_EVENT = "webhook.verification";
export const MAX_VERIFY_ATTEMPTS = 5;
/** Delay after the n-th failed challenge (n = 1..4): 1 min, 5 min, 30 min, 2 h. */
const VERIFY_BACKOFF_MS = [60_000, 300_000, 1_800_000, 7_200_000];

const s = webhookSubscriptions;

interface ClaimedVerification {
  id: string;
  url: string;
  secret: string;
  attempt: number;
}

/** Claims due challenges (SKIP LOCKED plus a lease, like deliveries). */
async function claimVerifications(deps: Deps, batch: number): Promise<ClaimedVerification[]> {
  const now = deps.clock.now();
  const until = new Date(now.getTime() + leaseMs(deps));
  return deps.database.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: s.id, url: s.url, secret: s.secret, attempts: s.verifyAttempts })
      .from(s)
      .where(and(eq(s.status, "pending_verification"), lte(s.nextVerifyAt, now)))
      .orderBy(asc(s.nextVerifyAt))
      .limit(batch)
      .for("update", { skipLocked: true });
    for (const r of rows)
      await tx
        .update(s)
        .set({ nextVerifyAt: until, verifyAttempts: r.attempts + 1 })
        .where(eq(s.id, r.id));
    return rows.map((r) => ({ id: r.id, url: r.url, secret: r.secret, attempt: r.attempts + 1 }));
  });
}

/** One challenge through the SSRF-safe fetcher; true iff the endpoint echoed it. */
async function challenge(deps: Deps, v: ClaimedVerification): Promise<{ ok: boolean; error: string | null }> {
  const at = deps.clock.now();
  const value = randomToken(24);
  const id = `vfy_${randomToken(16)}`;
  const body = JSON.stringify({
    id,
    type: VERIFICATION_EVENT,
    timestamp: at.toISOString(),
    data: { webhook_id: v.id, challenge: value },
  });
  const r = await deps.fetcher.fetch(v.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...webhookHeaders(v.secret, id, at, body) },
    body,
    redirect: "manual",
    timeoutMs: attemptTimeoutMs(deps),
    maxBytes: MAX_RESPONSE_BYTES,
  });
  if (!r.ok) return { ok: false, error: r.reason };
  if (r.status < 200 || r.status >= 300) return { ok: false, error: "unexpected_status" };
  try {
    const answer = parseJsonBounded(r.body.toString("utf8")) as { challenge?: unknown };
    return answer?.challenge === value ? { ok: true, error: null } : { ok: false, error: "challenge_not_echoed" };
  } catch {
    return { ok: false, error: "challenge_not_echoed" };
  }
}

/** Records a challenge's outcome, conditional on the claim (same attempt, still pending). */
async function record(deps: Deps, v: ClaimedVerification, ok: boolean, busy = false): Promise<void> {
  const now = deps.clock.now();
  const mine = and(eq(s.id, v.id), eq(s.status, "pending_verification"), eq(s.verifyAttempts, v.attempt));
  if (busy) {
    // Not sent: this process's slots for the host were taken (docs/abuse.md "Resolver"). The
    // attempt is given back and the challenge tried again shortly.
    await deps.database.db
      .update(s)
      .set({ verifyAttempts: v.attempt - 1, nextVerifyAt: new Date(now.getTime() + 2_000), updatedAt: now })
      .where(mine);
    return;
  }
  await deps.database.db.transaction(async (tx) => {
    if (ok) {
      await tx.update(s).set({ status: "active", verifiedAt: now, nextVerifyAt: null, updatedAt: now }).where(mine);
      return;
    }
    if (v.attempt >= MAX_VERIFY_ATTEMPTS) {
      const [still] = await tx.select({ id: s.id }).from(s).where(mine).for("update");
      if (still) await disable({ tx, now }, { id: v.id, reason: "verification_failed" });
      return;
    }
    await tx
      .update(s)
      .set({ nextVerifyAt: new Date(now.getTime() + VERIFY_BACKOFF_MS[v.attempt - 1]!), updatedAt: now })
      .where(mine);
  });
}

/** Sends every due challenge (at most `batch`, concurrently). Returns how many were sent. */
export async function runVerifications(deps: Deps, batch = 20): Promise<number> {
  const claimed = await claimVerifications(deps, batch);
  await Promise.all(
    claimed.map(async (v) => {
      let outcome: { ok: boolean; error: string | null };
      try {
        outcome = await challenge(deps, v);
      } catch (err) {
        deps.logger.error({ err, webhook: v.id }, "webhook verification threw");
        outcome = { ok: false, error: "internal_error" };
      }
      if (!outcome.ok)
        deps.logger.info(
          { webhook: v.id, attempt: v.attempt, error: outcome.error },
          "webhook endpoint verification failed",
        );
      await record(deps, v, outcome.ok, outcome.error === "host_busy").catch((err: unknown) =>
        deps.logger.error({ err, webhook: v.id }, "recording a webhook verification failed; retried after the lease"),
      );
    }),
  );
  return claimed.length;
}
