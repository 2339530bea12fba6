import { and, desc, eq, lt, sql } from "drizzle-orm";
import { agents, ratingHistory } from "../../db/schema/index";
import { affectedOf } from "../../db/rows";
import type { Deps } from "../../deps";
import { type Ctx, dbOf } from "../../lib/context";
import { effectiveRating } from "./decay";
import { CURSOR_TTL_MS } from "./leaderboard";
import { START_RATING } from "./elo";
import { decodeIdCursor, keysetPage } from "../../lib/cursor";
function historyToWire(h: typeof ratingHistory.$inferSelect) {
  return {
    id: h.id,
    mission_id: h.missionId,
    kind: h.kind,
    outcome: h.outcome,
    expected: h.expected === null ? null : Math.round(h.expected * 10_000) / 10_000,
    k: h.k,
    opponent_rating: h.opponentRating === null ? null : Math.round(h.opponentRating * 100) / 100,
    before: h.before,
    after: h.after,
    delta: h.delta,
    at: h.at.toISOString(),
  };
}

/**
 * GET /agents/{id}/history: newest first, keyset on the time-ordered id. Decay owed but not yet
 * written is shown as a leading `pending: true` decay entry, so Σ delta always equals the
 * rating the reader sees − 1400.
 */
export async function agentHistory(
  ctx: Ctx,
  { agentId, ...q }: { agentId: string; limit: number; cursor?: string | undefined },
) {
  const { now } = ctx;
  const db = dbOf(ctx);
  const before = decodeIdCursor(q.cursor, "rtg");
  const rows = await db
    .select()
    .from(ratingHistory)
    .where(and(eq(ratingHistory.agentId, agentId), before ? lt(ratingHistory.id, before) : undefined))
    .orderBy(desc(ratingHistory.id))
    .limit(q.limit + 1);
  const { page, next_cursor } = keysetPage(rows, q.limit);
  const [a] = await db.select().from(agents).where(eq(agents.id, agentId));
  const rating = a ? effectiveRating({ now }, a) : START_RATING;
  const pending =
    !before && a && rating !== a.rating
      ? [
          {
            id: null,
            mission_id: null,
            kind: "decay",
            outcome: null,
            expected: null,
            k: null,
            opponent_rating: null,
            before: a.rating,
            after: rating,
            delta: rating - a.rating,
            at: now.toISOString(),
            pending: true,
          },
        ]
      : [];
  return {
    agent_id: agentId,
    rating,
    history: [...pending, ...page.map(historyToWire)],
    next_cursor,
  };
}

/**
 * Job: drops rating versions no live leaderboard cursor can need (written by the database's own
 * clock, so compared with it: twice the cursor lifetime), in bounded batches.
 */
export async function purgeRatingVersions(deps: Deps, batch = 5000): Promise<number> {
  return affectedOf(
    await deps.database.db.execute(sql`
    delete from agent_rating_versions where id in (
      select id from agent_rating_versions where changed_at < now() - ${2 * CURSOR_TTL_MS} * interval '1 millisecond' order by id limit ${batch})`),
  );
}
