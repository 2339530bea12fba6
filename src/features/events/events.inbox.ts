import { eq, sql } from "drizzle-orm";
import { missionClaims } from "../../db/schema/index";
import { agentOf, type Ctx } from "../../lib/context";
import { hubOf, type Listener } from "./events.hub";
import { readEventsAt, resolveCursor } from "./events.model";
import { isLiveParty } from "./events.parties";
import { assignSequence } from "./events.sequence";

// GET /agents/me/inbox (docs/events.md "Inbox"): the outbox events about the caller, in the
// streams' order, for agents with no public URL. An event is in an agent's inbox when the agent
// is one of its parties (the mission's creator, the submitter, a payee or winner) or holds (or
// held) a claim on its mission. A page is read by index from the cursor (event_parties and
// webhook_events (mission_id, seq)), so it costs what it returns, however many events others
// have; `next_cursor` is the last event returned (else the cursor given). `wait` long-polls on the process's event hub (no query per waiter until something relevant
// commits), bounded by OABP_INBOX_MAX_WAIT_SECONDS.

export interface InboxPage {
  /** The envelopes as delivered by webhooks and GET /events, JSON text. */
  events: string[];
  next_cursor: string | null;
  has_more: boolean;
}

interface Position {
  seq: bigint;
  id: string | null;
}

/**
 * One page from the cursor, by index (docs/events.md "Inbox"): the caller's own events from
 * event_parties (agent, seq), and each claimed mission's events from webhook_events
 * (mission_id, seq) — each an index range scan of at most limit + 1 rows from the cursor, never
 * a scan of other agents' events. `at` is the last event returned (else the cursor).
 */
async function scan(ctx: Ctx, agent: string, after: Position, limit: number): Promise<InboxPage & { at: Position }> {
  const picked = rowsOf<{ seq: string | number | bigint }>(
    await ctx.deps.database.db.execute(sql`
      select seq from (
        (select seq from event_parties where agent = ${agent} and seq > ${after.seq.toString()}::bigint
          order by seq limit ${limit + 1})
        union
        (select x.seq from (select distinct mission_id from mission_claims where agent_id = ${agent}) m
          cross join lateral (
            select e.seq from webhook_events e
            where e.mission_id = m.mission_id and e.seq > ${after.seq.toString()}::bigint
            order by e.seq limit ${limit + 1}) x)
      ) u order by seq limit ${limit + 1}`),
  ).map((r) => BigInt(r.seq));
  const rows = await readEventsAt(ctx.deps, picked.slice(0, limit));
  const last = rows.at(-1);
  const at = last ? { seq: last.seq, id: last.id } : after;
  return { events: rows.map((r) => r.body), next_cursor: at.id, has_more: picked.length > limit, at };
}

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : ((r as { rows?: T[] }).rows ?? [])) as T[];

/**
 * One page of the calling agent's inbox after the cursor, waiting up to `wait` seconds for a first event.
 * A request that asks to wait is a long poll for its whole life (the first scan, the wait and the
 * second scan): it holds a long-lived connection slot of the agent and of its network, counted
 * with the `GET /events` streams (docs/events.md "Connection slots"), and no share of the
 * caller's running reads (src/http/read-requests.ts isLongPoll). So an agent's long polls are
 * bounded by its slots, and never block its other reads.
 */
export async function readInbox(
  ctx: Ctx,
  input: {
    after?: string | undefined;
    limit: number;
    wait: number;
    /** The caller's client network: a long poll takes one of its connection slots (events.hub.ts). */
    network?: string | undefined;
  },
): Promise<InboxPage> {
  const me = agentOf(ctx).toLowerCase();
  const { network } = input;
  const hub = hubOf(ctx.deps);
  const release =
    input.wait > 0 ? hub.admit({ network, agent: me, party: await isLiveParty(ctx.deps, me) }) : undefined;
  const closings = hub.closings;
  try {
    const { deps } = ctx;
    await assignSequence(deps.database.db);
    const cursor: Position =
      input.after === undefined
        ? { seq: 0n, id: null }
        : { seq: await resolveCursor(deps, { id: input.after, field: "after" }), id: input.after };
    const first = await scan(ctx, me, cursor, input.limit);
    const waitS = Math.min(input.wait, deps.config.inboxMaxWaitSeconds);
    if (first.events.length > 0 || first.has_more || waitS <= 0) return first;
    await waitForEvent(ctx, { me, from: first.at, waitS, closings });
    return await scan(ctx, me, first.at, input.limit);
  } finally {
    release?.();
  }
}

/** The missions `me` holds (or held) a claim on: their events are in its inbox. */
async function claimedMissions(ctx: Ctx, me: string): Promise<Set<string>> {
  const rows = await ctx.deps.database.db
    .selectDistinct({ m: missionClaims.missionId })
    .from(missionClaims)
    .where(eq(missionClaims.agentId, me))
    .limit(10_000);
  return new Set(rows.map((r) => r.m));
}

/**
 * Waits on the hub (no query per waiter) until an event about `me` after `from` is numbered, or
 * `waitS` seconds pass, or the hub closes — also when it closed (shutdown) since `closings` was
 * read at admission, while this request was still scanning: it then does not wait at all.
 */
async function waitForEvent(
  ctx: Ctx,
  { me, from, waitS, closings }: { me: string; from: Position; waitS: number; closings: number },
): Promise<void> {
  const hub = hubOf(ctx.deps);
  const claimedNow = await claimedMissions(ctx, me);
  if (hub.closings !== closings) return;
  let listener: (Listener & { close(): void }) | undefined;
  let done = false;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => listener?.close(), waitS * 1000);
    timer.unref();
    listener = {
      wake: () => {
        for (const e of hub.after(from.seq))
          if (e.parties.includes(me) || claimedNow.has(e.missionId)) return listener!.close();
      },
      close: () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        hub.detach(listener!);
        resolve();
      },
    };
    void hub.attach(listener).then(
      () => {
        // Something may have committed between the scan and the attach.
        if (hub.head > from.seq) listener!.wake();
      },
      () => listener!.close(),
    );
  });
}
