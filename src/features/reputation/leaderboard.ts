import { sql, type SQL } from "drizzle-orm";
import { agents } from "../../db/schema/index";
import type { Ctx } from "../../lib/context";
import { normalizeAddress } from "../../lib/address";
import { AppError } from "../../lib/errors";
import { rowsOf } from "../../db/rows";
import type { Reason } from "../../lib/error-reasons";
import { DECAY_FLOOR, DECAY_GRACE_MS, DECAY_POINTS_PER_WEEK, WEEK_MS } from "./decay";

// GET /leaderboard and GET /agents: agents in order of the rating a reader sees — the DECAYED
// rating at the evaluation instant (AIP-1 §5) — descending, ties by address ascending.
//
// Maintained ordering: the stored `agents.rating` IS the visible rating for every row
// whose `decay_due_at` (kept by a trigger) is null or after the instant, so those rows are read in
// list order straight from the (rating desc, id) index — a page costs O(limit), whatever the
// number of agents or the depth. Only rows owing decay not yet written (decay_due_at ≤ instant;
// the decay job writes it as it falls due, by the same index) get the decayed rating computed by
// `effectiveRatingSql` (exactly decay.ts `effectiveRating`; a test holds the two to the same
// table of cases). Ordering by the stored rating alone would be wrong: an idle 1500 would outrank
// an active 1490 long after it had decayed below it.
//
// Snapshot cursor: the first page records its evaluation instant (`as_of`) and
// the Postgres snapshot it read (`pg_current_snapshot()`). Later pages evaluate decay at that
// instant and, for agents a later transaction changed (a resolution moved their rating, a
// new agent appeared), read the state the snapshot saw from `agent_rating_versions` (written by a
// trigger before each change). Every page is therefore a slice of ONE fixed total order, and paging
// never repeats or skips an agent, whatever happens to ratings meanwhile. A cursor is honoured for
// CURSOR_TTL_MS, so a page never shows ratings older than that.

export const CURSOR_TTL_MS = 3_600_000;
export const MAX_LIMIT = 100;

const int = (n: number) => sql.raw(String(Math.trunc(n)));

interface DecayCols {
  rating: SQL | typeof agents.rating;
  lastActiveAt: SQL | typeof agents.lastActiveAt;
  decayWeeksApplied: SQL | typeof agents.decayWeeksApplied;
}

/**
 * decay.ts `effectiveRating` in SQL, evaluated at `now`:
 *   weeks   = last_active_at null → 0, else max(0, floor((now − last_active_at − grace) / week))
 *   pending = max(0, weeks − decay_weeks_applied)
 *   rating' = max(min(rating, 1000), rating − 2 × pending)
 * Times are compared in whole milliseconds, as JavaScript Dates hold them: a timestamp written
 * with microseconds by hand is truncated the same way the driver truncates it when reading.
 */
export function effectiveRatingSql({ now }: Pick<Ctx, "now">, c: DecayCols = agents): SQL<number> {
  const nowMs = sql`(extract(epoch from ${now.toISOString()}::timestamptz) * 1000)`;
  const lastMs = sql`(extract(epoch from date_trunc('milliseconds', ${c.lastActiveAt})) * 1000)`;
  const weeks = sql`coalesce(greatest(0, floor((${nowMs} - ${lastMs} - ${int(DECAY_GRACE_MS)}) / ${int(WEEK_MS)})), 0)`;
  const pending = sql`greatest(0, ${weeks} - ${c.decayWeeksApplied})`;
  return sql<number>`(greatest(least(${c.rating}, ${int(DECAY_FLOOR)}), ${c.rating} - ${int(DECAY_POINTS_PER_WEEK)} * ${pending}))::integer`;
}

/** Missions won (paid) over resolved missions entered; null before the first resolved mission. */
export function winRate(completed: number, attempted: number): number | null {
  return attempted > 0 ? Math.round((completed / attempted) * 10_000) / 10_000 : null;
}

interface Cursor {
  asOf: number; // ms: the evaluation instant of the first page
  snapshot: string; // pg_snapshot text of the first page: "xmin:xmax:xip,…"
  rating: number; // decayed rating of the last agent shown
  id: string; // its address
}

// pg_snapshot text form (bounded: a snapshot lists the transactions in progress, ≤ connections).
const SNAPSHOT = /^(\d{1,20}):(\d{1,20}):((\d{1,20},){0,200}\d{1,20})?$/;

/** The rules Postgres's pg_snapshot input enforces, checked here so a forged cursor is a 400, not a 500. */
function validSnapshot(text: string): boolean {
  const m = SNAPSHOT.exec(text);
  if (!m) return false;
  const max = 2n ** 63n;
  const xmin = BigInt(m[1]!);
  const xmax = BigInt(m[2]!);
  if (xmin < 1n || xmax < xmin || xmax >= max) return false;
  let last = xmin;
  for (const x of m[3] ? m[3].split(",").map(BigInt) : []) {
    if (x < last || x >= xmax) return false;
    last = x;
  }
  return true;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify({ a: c.asOf, s: c.snapshot, r: c.rating, i: c.id }), "utf8").toString("base64url");
}

function decodeCursor({ now }: Pick<Ctx, "now">, raw: string): Cursor {
  const invalid = (reason: Reason<"INVALID_PARAMETER">) =>
    new AppError(
      "INVALID_PARAMETER",
      reason === "cursor_expired" ? "cursor has expired; start again from the first page" : "cursor is not valid",
      { field: "cursor", reason },
    );
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalid("malformed");
  }
  const o = v as { a?: unknown; s?: unknown; r?: unknown; i?: unknown };
  const id = typeof o?.i === "string" ? normalizeAddress(o.i) : null;
  if (
    !Number.isSafeInteger(o?.a) ||
    !Number.isSafeInteger(o?.r) ||
    !id ||
    typeof o.s !== "string" ||
    !validSnapshot(o.s)
  )
    throw invalid("malformed");
  const asOf = o.a as number;
  if (asOf > now.getTime()) throw invalid("malformed");
  if (now.getTime() - asOf > CURSOR_TTL_MS) throw invalid("cursor_expired");
  return { asOf, snapshot: o.s, rating: o.r as number, id };
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

interface Row {
  id: string;
  r: number;
  completed: number;
  attempted: number;
  last_ms: number | null;
  display_name: string | null;
  snap: string;
}

/**
 * The rating-ordered agent list behind /leaderboard and /agents. Activity floor (AIP-1 Security
 * Considerations, Sybil: weight reputation queries by activity-time): `min_missions` completed
 * missions and, optionally, activity within `active_within_days` of the evaluation instant.
 *
 * One statement, the union of at most four bounded parts, each ≤ limit + 1 rows:
 *   same  — unchanged agents tied with the cursor's rating, after its address (index range);
 *   below — unchanged agents rated below the cursor, in index order;
 *   due   — unchanged agents owing unwritten decay at the instant (decay index; kept small by the job);
 *   moved — agents a transaction after the snapshot changed, at the state the snapshot saw.
 */
export async function listByRating(
  ctx: Ctx,
  q: RatingListQuery,
): Promise<{ agents: RatingEntry[]; next_cursor: string | null; as_of: string }> {
  const { deps, now } = ctx;
  const after = q.cursor ? decodeCursor({ now }, q.cursor) : undefined;
  const asOf = after ? new Date(after.asOf) : now;
  const limit = Math.min(Math.max(1, q.limit), MAX_LIMIT);
  const n = int(limit + 1);
  const parts = unionParts({ q, after, asOf, n });
  const res = await deps.database.db.execute(sql`
    select u.id, u.r, u.completed, u.attempted, (extract(epoch from u.last_active_at) * 1000)::float8 as last_ms, g.display_name,
           pg_current_snapshot()::text as snap
    from (${sql.join(parts, sql` union all `)}) u join agents g on g.id = u.id
    order by u.r desc, u.id asc limit ${n}`);
  const rows = rowsOf<Row>(res);

  const page = rows.slice(0, limit).map(entryOf);
  const last = page[page.length - 1];
  const snapshot = after?.snapshot ?? rows[0]?.snap ?? "";
  return {
    agents: page,
    next_cursor:
      rows.length > limit && last
        ? encodeCursor({ asOf: asOf.getTime(), snapshot, rating: last.rating, id: last.agent_id })
        : null,
    as_of: asOf.toISOString(),
  };
}

const entryOf = (r: Row): RatingEntry => ({
  agent_id: r.id,
  display_name: r.display_name,
  rating: Number(r.r),
  missions_completed: Number(r.completed),
  missions_attempted: Number(r.attempted),
  win_rate: winRate(Number(r.completed), Number(r.attempted)),
  last_active_at: r.last_ms === null ? null : new Date(Number(r.last_ms)).toISOString(),
});

/** The bounded parts of listByRating's union (same, below, due, moved), each ≤ n rows. */
function unionParts(input: {
  q: RatingListQuery;
  after: ReturnType<typeof decodeCursor> | undefined;
  asOf: Date;
  n: SQL;
}): SQL[] {
  const { q, after, asOf, n } = input;
  const asOfSql = sql`${asOf.toISOString()}::timestamptz`;
  const activeSince =
    q.active_within_days !== undefined
      ? new Date(asOf.getTime() - q.active_within_days * 86_400_000).toISOString()
      : null;
  // min_missions is inlined (a bounded integer) so the planner can prove `>= N` implies the
  // partial index's `>= 1`.
  const floor = (completed: SQL, last: SQL) =>
    sql.join(
      [
        q.min_missions > 0 ? sql`${completed} >= ${int(q.min_missions)}` : sql`true`,
        activeSince ? sql`${last} >= ${activeSince}::timestamptz` : sql`true`,
      ],
      sql` and `,
    );
  const a = sql`a`;
  const aCols = {
    rating: sql`a.rating`,
    lastActiveAt: sql`a.last_active_at`,
    decayWeeksApplied: sql`a.decay_weeks_applied`,
  };
  const vCols = {
    rating: sql`v.rating`,
    lastActiveAt: sql`v.last_active_at`,
    decayWeeksApplied: sql`v.decay_weeks_applied`,
  };
  const snap = after ? sql`${after.snapshot}::pg_snapshot` : null;
  const unchanged = snap
    ? sql`not exists (select 1 from agent_rating_versions v where v.agent_id = a.id and v.xid >= pg_snapshot_xmin(${snap}) and not pg_visible_in_snapshot(v.xid, ${snap}))`
    : sql`true`;
  const afterCursor = (r: SQL) =>
    after ? sql`(${r} < ${after.rating} or (${r} = ${after.rating} and id > ${after.id}))` : sql`true`;
  const cols = sql`a.id, a.rating as r, a.missions_completed as completed, a.missions_attempted as attempted, a.last_active_at`;
  const fresh = sql`(a.decay_due_at is null or a.decay_due_at > ${asOfSql})`;
  const baseA = sql`${floor(sql`a.missions_completed`, sql`a.last_active_at`)} and ${unchanged}`;

  const parts: SQL[] = [];
  if (after) {
    parts.push(
      sql`(select ${cols} from agents ${a} where a.rating = ${after.rating} and a.id > ${after.id} and ${fresh} and ${baseA} order by a.rating desc nulls last, a.id asc limit ${n})`,
    );
    parts.push(
      sql`(select ${cols} from agents ${a} where a.rating < ${after.rating} and ${fresh} and ${baseA} order by a.rating desc nulls last, a.id asc limit ${n})`,
    );
  } else {
    parts.push(
      sql`(select ${cols} from agents ${a} where ${fresh} and ${baseA} order by a.rating desc nulls last, a.id asc limit ${n})`,
    );
  }
  parts.push(sql`(select * from (select a.id, ${effectiveRatingSql({ now: asOf }, aCols)} as r, a.missions_completed as completed, a.missions_attempted as attempted, a.last_active_at
      from agents ${a} where a.decay_due_at <= ${asOfSql} and ${baseA}) d where ${afterCursor(sql`d.r`)} order by d.r desc, d.id asc limit ${n})`);
  if (snap) {
    parts.push(sql`(select * from (select v.agent_id as id, ${effectiveRatingSql({ now: asOf }, vCols)} as r, v.missions_completed as completed, v.missions_attempted as attempted, v.last_active_at
      from (select distinct on (agent_id) * from agent_rating_versions
            where xid >= pg_snapshot_xmin(${snap}) and not pg_visible_in_snapshot(xid, ${snap}) order by agent_id, id) v
      where v.existed and ${floor(sql`v.missions_completed`, sql`v.last_active_at`)}) m where ${afterCursor(sql`m.r`)} order by m.r desc, m.id asc limit ${n})`);
  }
  return parts;
}
