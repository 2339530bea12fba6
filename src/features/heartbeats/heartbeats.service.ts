import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { type Ctx, dbOf } from "../../lib/context";
import type { Db } from "../../db/client";
import { agents } from "../../db/schema/index";
import { AppError } from "../../lib/errors";
import { touchAgent } from "../../db/touch-agent";
import type { HeartbeatWire } from "./heartbeats.schemas";
import { actingAgent } from "../mesh";

/** docs/neighbours.md "Agent Mesh": an agent counts as online this long after it was last seen. */
export const AVAILABILITY_WINDOW_SECONDS = 180;
/** Authenticated requests move last_seen_at at most this often (hot paths stay cheap). */
const SEEN_THROTTLE_MS = 60_000;

/** Online = seen within the availability window (a pure function of last_seen_at and the clock). */
export function isOnline({ now }: Pick<Ctx, "now">, lastSeenAt: Date | null): boolean {
  if (!lastSeenAt) return false;
  const age = now.getTime() - lastSeenAt.getTime();
  return age <= AVAILABILITY_WINDOW_SECONDS * 1000;
}

function presence(
  ctx: Pick<Ctx, "now">,
  { agentId, lastSeenAt }: { agentId: string; lastSeenAt: Date },
): HeartbeatWire {
  const online = isOnline(ctx, lastSeenAt);
  return {
    agent_id: agentId,
    status: online ? "online" : "offline",
    online,
    last_seen_at: lastSeenAt.toISOString(),
    online_until: new Date(lastSeenAt.getTime() + AVAILABILITY_WINDOW_SECONDS * 1000).toISOString(),
    availability_window_seconds: AVAILABILITY_WINDOW_SECONDS,
  };
}

/** POST /agents/{id}/heartbeat: only the agent itself; upserts its row and moves last_seen_at. */
export async function heartbeat(ctx: Ctx, { agentId }: { agentId: string }): Promise<HeartbeatWire> {
  const { now } = ctx;
  // The agent itself, or (a private mesh's shared key, docs/neighbours.md "Private network") the
  // registered agent the path names.
  if (ctx.caller.kind === "admin") throw new AppError("FORBIDDEN", "the admin token does not act as an agent");
  const id = await actingAgent(ctx, { claimed: agentId, field: "id" });
  const db = dbOf(ctx);
  await touchAgent(db, id, now);
  // touchAgent keeps the later of the stored and the new time, so read back what is stored.
  const [row] = await db.select({ lastSeenAt: agents.lastSeenAt }).from(agents).where(eq(agents.id, id));
  if (!row?.lastSeenAt) throw new AppError("INTERNAL_ERROR", "heartbeat was not recorded");
  return presence({ now }, { agentId: id, lastSeenAt: row.lastSeenAt });
}

// The throttled touch of every authenticated request: one conditional UPDATE, prepared once per
// database handle. `recent` remembers, per agent, a time the stored value is known to be at least
// (it only grows), so further requests within the throttle skip even that round trip: the time
// this instance moved it to, or — when the UPDATE found it already recent (a write's activity, a
// heartbeat, another instance) — the stored value itself, read once, instead of an UPDATE that
// changes nothing on every request.
const MAX_RECENT = 50_000;
function build(db: Db) {
  const stmt = db
    .update(agents)
    .set({ lastSeenAt: sql`${sql.placeholder("now")}::timestamptz` })
    .where(
      and(
        eq(agents.id, sql.placeholder("id")),
        or(isNull(agents.lastSeenAt), lt(agents.lastSeenAt, sql`${sql.placeholder("cutoff")}::timestamptz`)),
      ),
    )
    .returning({ id: agents.id })
    .prepare("oabp_agent_mark_seen");
  const seenAt = db
    .select({ lastSeenAt: agents.lastSeenAt })
    .from(agents)
    .where(eq(agents.id, sql.placeholder("id")))
    .prepare("oabp_agent_seen_at");
  return { stmt, seenAt, recent: new Map<string, number>() };
}
const state = new WeakMap<Db, ReturnType<typeof build>>();

/**
 * Marks an authenticated caller seen (ClawFinder: last_seen_at = last authenticated request),
 * unless it was seen less than SEEN_THROTTLE_MS ago. No read-then-write: the condition is in the
 * UPDATE, so concurrent requests write at most once per window.
 */
export async function markSeen({ deps, now }: Pick<Ctx, "deps" | "now">, address: string): Promise<void> {
  const db = deps.database.db;
  let s = state.get(db);
  if (!s) state.set(db, (s = build(db)));
  const at = now.getTime();
  const last = s.recent.get(address);
  if (last !== undefined && at >= last && at - last < SEEN_THROTTLE_MS) return;
  const wrote = await s.stmt.execute({
    id: address,
    now: now.toISOString(),
    cutoff: new Date(at - SEEN_THROTTLE_MS).toISOString(),
  });
  const known = wrote.length > 0 ? at : (await s.seenAt.execute({ id: address }))[0]?.lastSeenAt?.getTime();
  if (known === undefined) return; // no agent row yet: the next request tries again
  if (s.recent.size >= MAX_RECENT) s.recent.clear();
  s.recent.set(address, known);
}
