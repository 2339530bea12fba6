import { and, eq, inArray } from "drizzle-orm";
import { missionClaims } from "../../db/schema/index";
import type { Ctx } from "../../lib/context";
import { hubOf, type Listener } from "./events.hub";
import { readEvents, resolveCursor, type StreamEvent } from "./events.model";
import { assignSequence } from "./events.sequence";

// GET /agents/me/inbox (docs/events.md "Inbox"): the outbox events about the caller, in the
// streams' order, for agents with no public URL. An event is in an agent's inbox when the agent
// is one of its parties (the mission's creator, the submitter, a payee or winner) or holds (or
// held) a claim on its mission. A page scans at most SCAN events, so a sparse inbox still
// answers in bounded time: `next_cursor` moves past what was scanned even when nothing matched.
// `wait` long-polls on the process's event hub (no query per waiter until something relevant
// commits), bounded by OABP_INBOX_MAX_WAIT_SECONDS.

const SCAN = 1000;

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

async function claimedAmong(ctx: Ctx, agent: string, missionIds: string[]): Promise<Set<string>> {
  if (missionIds.length === 0) return new Set();
  const rows = await ctx.deps.database.db
    .selectDistinct({ m: missionClaims.missionId })
    .from(missionClaims)
    .where(and(eq(missionClaims.agentId, agent), inArray(missionClaims.missionId, [...new Set(missionIds)])));
  return new Set(rows.map((r) => r.m));
}

async function scan(ctx: Ctx, agent: string, after: Position, limit: number): Promise<InboxPage & { at: Position }> {
  const rows = await readEvents(ctx.deps, after.seq, SCAN);
  const claimed = await claimedAmong(
    ctx,
    agent,
    rows.filter((r) => !r.parties.includes(agent)).map((r) => r.missionId),
  );
  const events: string[] = [];
  let last: StreamEvent | undefined;
  for (const r of rows) {
    if (r.parties.includes(agent) || claimed.has(r.missionId)) {
      if (events.length === limit)
        return { events, next_cursor: last!.id, has_more: true, at: { seq: last!.seq, id: last!.id } };
      events.push(r.body);
    }
    last = r;
  }
  const at = last ? { seq: last.seq, id: last.id } : after;
  return { events, next_cursor: at.id, has_more: rows.length === SCAN, at };
}

/** One page of `agent`'s inbox after the cursor, waiting up to `wait` seconds for a first event. */
export async function readInbox(
  ctx: Ctx,
  agent: string,
  input: { after?: string | undefined; limit: number; wait: number },
  /** The caller's client network: a long poll takes one of its connection slots (events.hub.ts). */
  network?: string,
): Promise<InboxPage> {
  const { deps } = ctx;
  const me = agent.toLowerCase();
  await assignSequence(deps.database.db);
  const cursor: Position =
    input.after === undefined
      ? { seq: 0n, id: null }
      : { seq: await resolveCursor(deps, input.after, "after"), id: input.after };
  const first = await scan(ctx, me, cursor, input.limit);
  const waitS = Math.min(input.wait, deps.config.inboxMaxWaitSeconds);
  if (first.events.length > 0 || first.has_more || waitS <= 0) return first;
  const from = first.at;

  // Long poll: wait on the hub for an event about this agent, then scan once more. It holds a
  // connection slot of the agent and of its network, like a stream (docs/events.md).
  const hub = hubOf(deps);
  const release = hub.admit({ network, agent: me });
  let listener: (Listener & { close(): void }) | undefined;
  try {
    const claimedNow = new Set(
      (
        await deps.database.db
          .selectDistinct({ m: missionClaims.missionId })
          .from(missionClaims)
          .where(eq(missionClaims.agentId, me))
          .limit(10_000)
      ).map((r) => r.m),
    );
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
    return await scan(ctx, me, from, input.limit);
  } finally {
    release();
  }
}
