import { and, asc, desc, gte, sql, type SQL } from "drizzle-orm";
import { agents } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { normalizeAddress } from "../../lib/address";
import { AppError } from "../../lib/errors";
import { DECAY_FLOOR, DECAY_GRACE_MS, DECAY_POINTS_PER_WEEK, WEEK_MS } from "./decay";

// GET /leaderboard and GET /agents: agents in order of the rating a reader sees — the DECAYED
// rating at the evaluation instant (AIP-1 §5) — descending, ties by address ascending.
//
// Ordering and keyset pagination happen in SQL on the decayed rating itself, computed by
// `effectiveRatingSql` with exactly the arithmetic of decay.ts `effectiveRating` (a test holds
// the two to the same table of cases). Ordering by the stored rating instead would be wrong:
// it is only an upper bound (decay never raises a rating), so an idle 1500 would outrank an
// active 1490 long after it had decayed below it. The expression depends on the clock, so no
// index can serve the order: each page is one pass over the agents that pass the filters with
// a top-N sort (limit + 1 rows kept), and its cost does not grow with the page depth (no OFFSET).
//
// The cursor pins the evaluation instant (`as_of`) of the first page: decay moves ratings as
// time passes, and re-evaluating on every page could show an agent twice (it crossed a week
// boundary and dropped below the cursor) — with the instant pinned the order is a fixed total
// order and paging never repeats or skips an agent because of decay. A cursor is honoured for
// CURSOR_TTL_MS, so a page never shows ratings older than that.

export const CURSOR_TTL_MS = 3_600_000;
export const MAX_LIMIT = 100;

const int = (n: number) => sql.raw(String(Math.trunc(n)));

/**
 * decay.ts `effectiveRating` in SQL, evaluated at `now`:
 *   weeks   = last_active_at null → 0, else max(0, floor((now − last_active_at − grace) / week))
 *   pending = max(0, weeks − decay_weeks_applied)
 *   rating' = max(min(rating, 1000), rating − 2 × pending)
 * Times are compared in whole milliseconds, as JavaScript Dates hold them: a timestamp written
 * with microseconds by hand is truncated the same way the driver truncates it when reading.
 */
export function effectiveRatingSql(now: Date): SQL<number> {
  const nowMs = sql`(extract(epoch from ${now.toISOString()}::timestamptz) * 1000)`;
  const lastMs = sql`(extract(epoch from date_trunc('milliseconds', ${agents.lastActiveAt})) * 1000)`;
  const weeks = sql`coalesce(greatest(0, floor((${nowMs} - ${lastMs} - ${int(DECAY_GRACE_MS)}) / ${int(WEEK_MS)})), 0)`;
  const pending = sql`greatest(0, ${weeks} - ${agents.decayWeeksApplied})`;
  return sql<number>`(greatest(least(${agents.rating}, ${int(DECAY_FLOOR)}), ${agents.rating} - ${int(DECAY_POINTS_PER_WEEK)} * ${pending}))::integer`;
}

/** Missions won (paid) over resolved missions entered; null before the first resolved mission. */
export function winRate(completed: number, attempted: number): number | null {
  return attempted > 0 ? Math.round((completed / attempted) * 10_000) / 10_000 : null;
}

interface Cursor {
  asOf: number; // ms: the evaluation instant of the first page
  rating: number; // decayed rating of the last agent shown
  id: string; // its address
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify({ a: c.asOf, r: c.rating, i: c.id }), "utf8").toString("base64url");
}

export function decodeCursor(raw: string, now: Date): Cursor {
  const invalid = (reason: string) => new AppError("INVALID_PARAMETER", reason === "cursor_expired" ? "cursor has expired; start again from the first page" : "cursor is not valid", { field: "cursor", reason });
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalid("malformed");
  }
  const o = v as { a?: unknown; r?: unknown; i?: unknown };
  const id = typeof o?.i === "string" ? normalizeAddress(o.i) : null;
  if (!Number.isSafeInteger(o?.a) || !Number.isSafeInteger(o?.r) || !id) throw invalid("malformed");
  const asOf = o.a as number;
  if (asOf > now.getTime()) throw invalid("malformed");
  if (now.getTime() - asOf > CURSOR_TTL_MS) throw invalid("cursor_expired");
  return { asOf, rating: o.r as number, id };
}

export interface RatingListQuery {
  limit: number;
  cursor?: string | undefined;
  min_missions: number;
  active_within_days?: number | undefined;
}

export interface RatingEntry {
  agent_id: string;
  display_name: string | null;
  rating: number;
  missions_completed: number;
  missions_attempted: number;
  win_rate: number | null;
  last_active_at: string | null;
}

/**
 * The rating-ordered agent list behind /leaderboard and /agents. Activity floor (AIP-1 Security
 * Considerations, Sybil: weight reputation queries by activity-time): `min_missions` completed
 * missions and, optionally, activity within `active_within_days` of the evaluation instant.
 */
export async function listByRating(deps: Deps, q: RatingListQuery): Promise<{ agents: RatingEntry[]; next_cursor: string | null; as_of: string }> {
  const now = deps.clock.now();
  const after = q.cursor ? decodeCursor(q.cursor, now) : undefined;
  const asOf = after ? new Date(after.asOf) : now;
  const limit = Math.min(Math.max(1, q.limit), MAX_LIMIT);
  const eff = effectiveRatingSql(asOf);

  const where: SQL[] = [];
  if (q.min_missions > 0) where.push(gte(agents.missionsCompleted, q.min_missions));
  if (q.active_within_days !== undefined) where.push(gte(agents.lastActiveAt, new Date(asOf.getTime() - q.active_within_days * 86_400_000)));
  // Keyset on (decayed rating desc, id asc): strictly after the last agent shown.
  if (after) where.push(sql`(${eff} < ${after.rating} or (${eff} = ${after.rating} and ${agents.id} > ${after.id}))`);

  const rows = await deps.database.db
    .select({
      id: agents.id,
      displayName: agents.displayName,
      rating: eff,
      missionsCompleted: agents.missionsCompleted,
      missionsAttempted: agents.missionsAttempted,
      lastActiveAt: agents.lastActiveAt,
    })
    .from(agents)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(eff), asc(agents.id))
    .limit(limit + 1);

  const page = rows.slice(0, limit).map((r) => ({
    agent_id: r.id,
    display_name: r.displayName,
    rating: Number(r.rating),
    missions_completed: r.missionsCompleted,
    missions_attempted: r.missionsAttempted,
    win_rate: winRate(r.missionsCompleted, r.missionsAttempted),
    last_active_at: r.lastActiveAt?.toISOString() ?? null,
  }));
  const last = page[page.length - 1];
  return {
    agents: page,
    next_cursor: rows.length > limit && last ? encodeCursor({ asOf: asOf.getTime(), rating: last.rating, id: last.agent_id }) : null,
    as_of: asOf.toISOString(),
  };
}
