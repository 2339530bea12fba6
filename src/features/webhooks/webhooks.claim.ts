import { and, eq, lte, sql } from "drizzle-orm";
import { webhookDeliveries, webhookEvents, webhookSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";

// Fair, host-capped claims of due deliveries. Free identities can own many subscriptions whose
// endpoints never answer; they must not delay anyone else's delivery. So a claim:
//  - looks at each active subscription's oldest due deliveries only (an index probe each), so
//    a subscription's backlog never hides another's head;
//  - orders by the rank of a delivery within its OWNER's due work first (round-robin across
//    owners: every owner's first delivery before anyone's second), then by due time;
//  - skips a delivery whose destination host already has WEBHOOK_HOST_CONCURRENCY attempts
//    in flight, counted across every instance from `in_flight_until` (set by the claim, cleared
//    by the record, and simply past after a crash).
// Claims are serialised across instances by a transaction-scoped advisory lock, so the host
// count they read is exact; the lock is held for one short query, never across an attempt.

const d = webhookDeliveries;
const s = webhookSubscriptions;
const e = webhookEvents;
const CLAIM_LOCK = 727_275;
/** Due deliveries looked at per subscription per claim: enough to fill a batch fairly. */
const PER_SUBSCRIPTION = 4;
/** Webhook attempts in flight to one destination host at once, across every instance. */
const WEBHOOK_HOST_CONCURRENCY = 2;
/** Time cap of one delivery attempt (connect, send, response). */
const WEBHOOK_TIMEOUT_MS = 10_000;

/** One attempt's time cap: WEBHOOK_TIMEOUT_MS, or the bound a test set (Deps.limits). */
export const attemptTimeoutMs = (deps: Deps) => deps.limits?.webhookTimeoutMs ?? WEBHOOK_TIMEOUT_MS;

export interface ClaimedDelivery {
  subscriptionId: string;
  eventId: string;
  /** This attempt's number (the claim counted it). */
  attemptCount: number;
  createdAt: Date;
  url: string;
  secret: string;
  body: string;
  /** Set for an A2A push config: the task it follows, its token and authentication (docs/a2a.md). */
  a2aTaskId: string | null;
  a2aToken: string | null;
  a2aAuth: { scheme: string; credentials: string } | null;
}

/** A claim holds a delivery this long: well past one attempt's timeout, so it never expires mid-attempt. */
export const leaseMs = (deps: Deps) => Math.max(60_000, 2 * attemptTimeoutMs(deps));

export async function claimDueDeliveries(deps: Deps, batch = 20): Promise<ClaimedDelivery[]> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs(deps));
  const hostCap = deps.limits?.webhookHostConcurrency ?? WEBHOOK_HOST_CONCURRENCY;
  return deps.database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
    const picked = await tx.execute(sql`
      with heads as (
        select s.id as sub, s.owner, s.host, x.event_id, x.next_attempt_at
        from webhook_subscriptions s
        cross join lateral (
          select d.event_id, d.next_attempt_at from webhook_deliveries d
          where d.subscription_id = s.id and d.status = 'pending' and d.next_attempt_at <= ${at}::timestamptz
          order by d.next_attempt_at limit ${PER_SUBSCRIPTION}
        ) x
        where s.status = 'active'
      ),
      busy as (
        select s.host, count(*)::int as n
        from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id
        where d.in_flight_until > ${at}::timestamptz and d.status = 'pending'
        group by s.host
      ),
      ranked as (
        select h.*,
          row_number() over (partition by h.owner order by h.next_attempt_at, h.event_id) as owner_rank,
          row_number() over (partition by h.host order by h.next_attempt_at, h.event_id) as host_rank
        from heads h
      )
      select r.sub, r.event_id from ranked r left join busy b on b.host = r.host
      where r.host_rank + coalesce(b.n, 0) <= ${hostCap}
      order by r.owner_rank, r.next_attempt_at, r.event_id
      limit ${batch}`);
    const pairs = rowsOf<{ sub: string; event_id: string }>(picked);
    if (pairs.length === 0) return [];
    const keys = sql.join(
      pairs.map((p) => sql`(${p.sub}, ${p.event_id})`),
      sql`, `,
    );
    const rows = await tx
      .select({
        subscriptionId: d.subscriptionId,
        eventId: d.eventId,
        attemptCount: d.attemptCount,
        createdAt: d.createdAt,
        url: s.url,
        secret: s.secret,
        body: e.body,
        a2aTaskId: s.a2aTaskId,
        a2aToken: s.a2aToken,
        a2aAuth: s.a2aAuth,
      })
      .from(d)
      .innerJoin(s, eq(s.id, d.subscriptionId))
      .innerJoin(e, eq(e.id, d.eventId))
      .where(
        and(
          sql`(${d.subscriptionId}, ${d.eventId}) in (${keys})`,
          eq(d.status, "pending"),
          lte(d.nextAttemptAt, now),
          eq(s.status, "active"),
        ),
      )
      .for("update", { of: d, skipLocked: true });
    const order = new Map(pairs.map((p, i) => [`${p.sub} ${p.event_id}`, i]));
    rows.sort(
      (x, y) => order.get(`${x.subscriptionId} ${x.eventId}`)! - order.get(`${y.subscriptionId} ${y.eventId}`)!,
    );
    const out: ClaimedDelivery[] = [];
    for (const r of rows) {
      await tx
        .update(d)
        .set({ nextAttemptAt: until, inFlightUntil: until, attemptCount: r.attemptCount + 1, updatedAt: now })
        .where(and(eq(d.subscriptionId, r.subscriptionId), eq(d.eventId, r.eventId)));
      out.push({ ...r, attemptCount: r.attemptCount + 1, body: r.body ?? "" });
    }
    return out;
  });
}

/** db.execute answers an array (postgres-js) or {rows} (PGlite). */
function rowsOf<T>(r: unknown): T[] {
  return (Array.isArray(r) ? r : (r as { rows: T[] }).rows) as T[];
}
