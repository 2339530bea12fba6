import { eq, getTableColumns, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { isId } from "../lib/ids";
import type { Db } from "./client";
import { perDatabase } from "./prepared";
import { chainPayouts, missions, submissions } from "./schema/index";

// Row shapes several features read and write (shared primitives live below features).

/** The rows of `db.execute(…)`: postgres.js answers an array, PGlite `{ rows }`. */
export const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : (r as { rows: T[] }).rows);

/** The rows a `db.execute(…)` INSERT/UPDATE/DELETE touched: postgres.js says `count`, PGlite `affectedRows`. */
export function affectedOf(r: unknown): number {
  const o = r as { count?: number; affectedRows?: number; rowCount?: number };
  return Number(o.count ?? o.affectedRows ?? o.rowCount ?? 0);
}

/**
 * The one mission row type: every column MISSION_COLUMNS selects. Code that needs fewer columns
 * takes a `Pick<MissionRow, …>`; row_version is read by the list path only
 * (features/missions/missions.docs.ts) and the search vector by the search query only.
 */
export type MissionRow = Omit<typeof missions.$inferSelect, "rowVersion" | "search">;

/** The one submission row type. */
export type SubmissionRow = typeof submissions.$inferSelect;

/** The one base-rail payout row type (docs/base-rail.md). */
export type PayoutRow = typeof chainPayouts.$inferSelect;

// Every mission column but the search vector and the row version, for selects that map rows to the wire.
const { search: _search, rowVersion: _rowVersion, ...missionColumns } = getTableColumns(missions);
export const MISSION_COLUMNS = missionColumns;

// The mission by id, a prepared statement per database handle (docs/design.md "Fixed stack"): the read
// every feature that acts on a mission starts from.
function build(db: Db) {
  return {
    byId: db
      .select(MISSION_COLUMNS)
      .from(missions)
      .where(eq(missions.id, sql.placeholder("id")))
      .prepare("oabp_mission_by_id"),
  };
}
const prepared = perDatabase(build);

/** The prepared by-id select on `db` (one per database handle). */
export function preparedMissionById(db: Db) {
  return prepared(db).byId;
}

export async function findMission(deps: Deps, id: string): Promise<MissionRow | undefined> {
  if (!isId("mis", id)) return undefined;
  const [row] = await prepared(deps.database.db).byId.execute({ id });
  return row;
}
