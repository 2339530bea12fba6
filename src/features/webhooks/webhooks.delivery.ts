import { and, asc, eq, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { webhookDeliveries, webhookEvents, webhookSubscriptions, type DeliveryAttempt } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { TxCtx } from "../../lib/context";
import { webhookHeaders } from "../../lib/webhook-signature";
import { envelope } from "../../lib/webhook-events";
import { nextAttemptAt } from "./webhooks.retry";
import { attemptTimeoutMs, type ClaimedDelivery } from "./webhooks.claim";

export { claimDueDeliveries, leaseMs, type ClaimedDelivery } from "./webhooks.claim";

/**
 * How long a failing delivery is retried (backoff with jitter) before it is `failed`; also how long
 * an endpoint may fail without a success before it is disabled.
 */
const WEBHOOK_RETRY_WINDOW_SECONDS = 3 * 86_400;
/** Attempts per delivery at most (then `failed`; also bounded by the retry window). */
const WEBHOOK_MAX_ATTEMPTS = 8;
/** A subscription is disabled (`failing_endpoint`) after this many failed attempts in a row. */
const WEBHOOK_MAX_CONSECUTIVE_FAILURES = 10;

// The delivery side of the outbox: fan-out (event → one delivery per matching subscription),
// claim (a lease under FOR UPDATE SKIP LOCKED), attempt (outside any transaction, through the
// SSRF-safe fetcher), record (conditional on the claim). Every step reads committed rows only,
// so a crash anywhere loses nothing: an unclaimed delivery is still due, a claimed one is due
// again when its lease runs out — at least once, always with the same webhook-id.

/** A response body is read up to this much, then the attempt is cut (the fetcher's cap). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

const d = webhookDeliveries;
const s = webhookSubscriptions;
const e = webhookEvents;

/** The submission an event is about, if any (`data.submission_id`). */
function taskOf(data: string): string | undefined {
  const id = (JSON.parse(data) as { submission_id?: unknown }).submission_id;
  return typeof id === "string" ? id : undefined;
}

/** Does subscription `s` want event `ev`? Every non-null filter must hold (README "Webhooks"). */
function matches(ev: typeof webhookEvents.$inferSelect): SQL {
  const tags = sql`array[${sql.join(
    ev.tags.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
  const task = taskOf(ev.data);
  return and(
    // A subscription still proving its endpoint gets its deliveries queued; they are claimed
    // only once it is verified, and closed if it never is (webhooks.verify.ts).
    inArray(s.status, ["pending_verification", "active"]),
    // Only subscriptions that existed when the event happened: no history replayed to a new one.
    lte(s.createdAt, ev.occurredAt),
    sql`${ev.type} = any(${s.events})`,
    or(isNull(s.filterMissionIds), sql`${ev.missionId} = any(${s.filterMissionIds})`),
    or(isNull(s.filterVerificationTypes), sql`${ev.verificationType} = any(${s.filterVerificationTypes})`),
    or(isNull(s.filterCreators), sql`${ev.creator} = any(${s.filterCreators})`),
    or(isNull(s.filterTags), sql`${s.filterTags} && ${tags}`),
    // An A2A push config follows one task: its submission's events and the mission's own.
    task === undefined ? undefined : or(isNull(s.a2aTaskId), eq(s.a2aTaskId, task)),
  )!;
}

/**
 * Fans out the oldest events not yet fanned out, in id order. The events are taken FOR UPDATE
 * SKIP LOCKED, so two instances never fan out the same event; the delivery key
 * (subscription, event) would make a repeat harmless anyway. Freezes each event's body.
 */
export async function fanOutEvents(deps: Deps, batch = 100): Promise<number> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const events = await tx
      .select()
      .from(e)
      .where(isNull(e.fannedOutAt))
      .orderBy(asc(e.id))
      .limit(batch)
      .for("update", { skipLocked: true });
    for (const ev of events) {
      const subs = await tx.select({ id: s.id }).from(s).where(matches(ev));
      for (let i = 0; i < subs.length; i += 500) {
        await tx
          .insert(d)
          .values(
            subs.slice(i, i + 500).map((sub) => ({
              subscriptionId: sub.id,
              eventId: ev.id,
              status: "pending" as const,
              nextAttemptAt: now,
              createdAt: now,
              updatedAt: now,
            })),
          )
          .onConflictDoNothing();
      }
      await tx
        .update(e)
        .set({ fannedOutAt: now, body: envelope(deps.config.publicUrl, ev) })
        .where(eq(e.id, ev.id));
    }
    return events.length;
  });
}

export type AttemptOutcome =
  | { kind: "delivered"; at: Date; durationMs: number; statusCode: number }
  | { kind: "gone" | "failed"; at: Date; durationMs: number; statusCode: number | null; error: string }
  /** Not attempted: this process's slots for the host's domain or address were taken (docs/abuse.md "Resolver"). */
  | { kind: "busy"; at: Date };

/** A delivery refused for busy slots is tried again this soon; it costs no attempt. */
const BUSY_RETRY_MS = 2_000;

/**
 * One attempt: POST the frozen body with fresh Standard Webhooks headers (the timestamp is the
 * attempt's, the id the event's). Through deps.fetcher only: public addresses checked at connect
 * time, bounded time and response size, and redirects returned rather than followed.
 */
export async function attemptDelivery(
  deps: Deps,
  {
    delivery: c,
    push,
  }: { delivery: ClaimedDelivery; push?: { body: string; headers: Record<string, string> } | undefined },
): Promise<AttemptOutcome> {
  const at = deps.clock.now();
  const started = performance.now();
  // An A2A push config (docs/a2a.md "Push notifications") sends the task instead of the envelope.
  const body = push?.body ?? c.body;
  const r = await deps.fetcher.fetch(c.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...webhookHeaders(c.secret, c.eventId, at, body),
      ...push?.headers,
    },
    body,
    redirect: "manual",
    timeoutMs: attemptTimeoutMs(deps),
    maxBytes: MAX_RESPONSE_BYTES,
  });
  const durationMs = Math.round(performance.now() - started);
  if (!r.ok && r.reason === "host_busy") return { kind: "busy", at };
  if (!r.ok) return { kind: "failed", at, durationMs, statusCode: null, error: r.reason };
  if (r.status >= 200 && r.status < 300) return { kind: "delivered", at, durationMs, statusCode: r.status };
  // 410 Gone: the receiver says this endpoint is no more — stop sending to it.
  if (r.status === 410) return { kind: "gone", at, durationMs, statusCode: 410, error: "endpoint_gone" };
  // A redirect is a failure, never followed: the subscription was checked for the URL given.
  if (r.status >= 300 && r.status < 400)
    return { kind: "failed", at, durationMs, statusCode: r.status, error: "redirect_not_followed" };
  return { kind: "failed", at, durationMs, statusCode: r.status, error: "unexpected_status" };
}

/** Disables a subscription and closes its pending deliveries, in the caller's transaction. */
export async function disable(
  { tx, now }: Pick<TxCtx, "tx" | "now">,
  { id, reason }: { id: string; reason: "endpoint_gone" | "failing_endpoint" | "verification_failed" },
): Promise<void> {
  const [off] = await tx
    .update(s)
    .set({ status: "disabled", disabledReason: reason, disabledAt: now, nextVerifyAt: null, updatedAt: now })
    .where(and(eq(s.id, id), inArray(s.status, ["active", "pending_verification"])))
    .returning({ id: s.id });
  if (!off) return;
  await tx
    .update(d)
    .set({ status: "failed", nextAttemptAt: null, lastError: "subscription_disabled", updatedAt: now })
    .where(and(eq(d.subscriptionId, id), eq(d.status, "pending")));
}

/**
 * Records an attempt, conditional on the claim still being ours (same attempt count, still
 * pending): an attempt that outlived its lease, or a deleted subscription, records nothing.
 * 2xx → delivered; 410 → failed and the subscription disabled; otherwise retried on the
 * schedule (webhooks.retry.ts) until the window is spent or WEBHOOK_MAX_ATTEMPTS were
 * made, then failed. A subscription is disabled after WEBHOOK_MAX_CONSECUTIVE_FAILURES
 * failed attempts in a row, or when its attempts have all failed for a whole retry window.
 */
export async function recordAttempt(
  deps: Deps,
  { delivery: c, outcome: o }: { delivery: ClaimedDelivery; outcome: AttemptOutcome },
): Promise<void> {
  const now = deps.clock.now();
  const mine = and(
    eq(d.subscriptionId, c.subscriptionId),
    eq(d.eventId, c.eventId),
    eq(d.status, "pending"),
    eq(d.attemptCount, c.attemptCount),
  );
  if (o.kind === "busy") {
    // Nothing was sent: the claim's attempt is given back, nothing is logged or counted.
    await deps.database.db
      .update(d)
      .set({
        attemptCount: c.attemptCount - 1,
        nextAttemptAt: new Date(now.getTime() + BUSY_RETRY_MS),
        inFlightUntil: null,
        updatedAt: now,
      })
      .where(mine);
    return;
  }
  const entry: DeliveryAttempt = {
    attempt: c.attemptCount,
    at: o.at.toISOString(),
    duration_ms: o.durationMs,
    status_code: o.statusCode,
    error: o.kind === "delivered" ? null : o.error,
  };
  const log = sql`${d.attempts} || ${JSON.stringify([entry])}::jsonb`;
  await deps.database.db.transaction(async (tx) => {
    if (o.kind === "delivered") return recordDelivered(tx, c, { mine, log, statusCode: o.statusCode, now });
    return recordFailed(tx, deps, c, { outcome: o, mine, log, now });
  });
}

interface Recording {
  /** The claimed delivery row, still ours. */
  mine: SQL | undefined;
  /** The attempts log with this attempt appended. */
  log: SQL;
  now: Date;
}

/** 2xx: the delivery is done, and its subscription's failure streak ends. */
async function recordDelivered(tx: Tx, c: ClaimedDelivery, r: Recording & { statusCode: number }): Promise<void> {
  const { now } = r;
  const [row] = await tx
    .update(d)
    .set({
      status: "delivered",
      nextAttemptAt: null,
      inFlightUntil: null,
      deliveredAt: now,
      lastStatusCode: r.statusCode,
      lastError: null,
      attempts: r.log,
      updatedAt: now,
    })
    .where(r.mine)
    .returning({ id: d.eventId });
  if (row)
    await tx
      .update(s)
      .set({ lastSuccessAt: now, failingSince: null, consecutiveFailures: 0, updatedAt: now })
      .where(eq(s.id, c.subscriptionId));
}

/**
 * A failed attempt: retried on the schedule, or failed for good (410, or attempts spent); the
 * subscription's streak grows and past its bounds the subscription is disabled.
 */
async function recordFailed(
  tx: Tx,
  _deps: Deps,
  c: ClaimedDelivery,
  r: Recording & { outcome: Extract<AttemptOutcome, { kind: "failed" | "gone" }> },
): Promise<void> {
  const { now, outcome: o } = r;
  const windowMs = WEBHOOK_RETRY_WINDOW_SECONDS * 1000;
  const spent = c.attemptCount >= WEBHOOK_MAX_ATTEMPTS;
  const next =
    o.kind === "gone" || spent
      ? null
      : nextAttemptAt({ failedAttempts: c.attemptCount, createdAt: c.createdAt, now, windowMs });
  const [row] = await tx
    .update(d)
    .set({
      status: next ? "pending" : "failed",
      nextAttemptAt: next,
      inFlightUntil: null,
      lastStatusCode: o.statusCode,
      lastError: o.error,
      attempts: r.log,
      updatedAt: now,
    })
    .where(r.mine)
    .returning({ id: d.eventId });
  if (!row) return;
  if (o.kind === "gone") return disable({ tx, now }, { id: c.subscriptionId, reason: "endpoint_gone" });
  const [sub] = await tx
    .update(s)
    .set({
      failingSince: sql`coalesce(${s.failingSince}, ${o.at.toISOString()}::timestamptz)`,
      consecutiveFailures: sql`${s.consecutiveFailures} + 1`,
      updatedAt: now,
    })
    .where(and(eq(s.id, c.subscriptionId), eq(s.status, "active")))
    .returning({ failingSince: s.failingSince, failures: s.consecutiveFailures });
  if (!sub) return;
  const windowSpent = sub.failingSince !== null && now.getTime() - sub.failingSince.getTime() >= windowMs;
  if (windowSpent || sub.failures >= WEBHOOK_MAX_CONSECUTIVE_FAILURES)
    await disable({ tx, now }, { id: c.subscriptionId, reason: "failing_endpoint" });
}
