import { and, desc, eq, getTableColumns, gte, inArray, lt, lte, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { missions, missionTags } from "../../db/schema/index";

// Hot queries are prepared once per database handle (an unprepared query costs an extra round
// trip; design.md "Fixed stack").
const { search: _search, ...missionColumns } = getTableColumns(missions);
export const MISSION_COLUMNS = missionColumns;

/** Lists show what anyone may see: never a pending_escrow mission (missions.visible.ts has the rule). */
export const publicMissions: SQL = ne(missions.status, "pending_escrow");

function build(db: Db) {
  return {
    byId: db.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, sql.placeholder("id"))).prepare("oabp_mission_by_id"),
    // The unfiltered public list: newest first, keyset on the time-ordered id.
    listPublicFirst: db
      .select(MISSION_COLUMNS)
      .from(missions)
      .where(publicMissions)
      .orderBy(desc(missions.id))
      .limit(sql.placeholder("limit"))
      .prepare("oabp_missions_public_first"),
    listPublicAfter: db
      .select(MISSION_COLUMNS)
      .from(missions)
      .where(and(publicMissions, lt(missions.id, sql.placeholder("before"))))
      .orderBy(desc(missions.id))
      .limit(sql.placeholder("limit"))
      .prepare("oabp_missions_public_after"),
  };
}

const cache = new WeakMap<Db, ReturnType<typeof build>>();
export function prepared(db: Db) {
  let p = cache.get(db);
  if (!p) {
    p = build(db);
    cache.set(db, p);
  }
  return p;
}

/** Turns free text into a bounded prefix tsquery: at most 8 words, letters and digits only. */
export function toPrefixTsquery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu)?.slice(0, 8) ?? [];
  if (words.length === 0) return null;
  return words.map((w) => `${w.slice(0, 64)}:*`).join(" & ");
}

export interface ListConditions {
  statuses?: string[];
  missionTypes?: string[];
  verificationType?: string;
  asset?: string;
  creator?: string;
  tag?: string;
  tsquery?: string;
  rewardMin?: string;
  rewardMax?: string;
  deadlineAfter?: Date;
  deadlineBefore?: Date;
  before?: string;
}

export function listWhere(f: ListConditions): SQL {
  const conds: SQL[] = [];
  conds.push(f.statuses ? inArray(missions.status, f.statuses) : publicMissions);
  if (f.missionTypes) conds.push(inArray(missions.missionType, f.missionTypes)); // AIP-2 §4: OR
  if (f.verificationType) conds.push(eq(missions.verificationType, f.verificationType));
  if (f.asset) conds.push(eq(missions.rewardAsset, f.asset));
  if (f.creator) conds.push(eq(missions.creator, f.creator));
  // The tag table, walked in (tag, mission_id) order (see schema/missions.ts missionTags).
  if (f.tag) conds.push(sql`${missions.id} in (select ${missionTags.missionId} from ${missionTags} where ${missionTags.tag} = ${f.tag})`);
  if (f.tsquery) conds.push(sql`${missions.search} @@ to_tsquery('simple', ${f.tsquery})`);
  if (f.rewardMin) conds.push(gte(missions.rewardAmount, f.rewardMin));
  if (f.rewardMax) conds.push(lte(missions.rewardAmount, f.rewardMax));
  if (f.deadlineAfter) conds.push(gte(missions.deadline, f.deadlineAfter));
  if (f.deadlineBefore) conds.push(lte(missions.deadline, f.deadlineBefore));
  if (f.before) conds.push(lt(missions.id, f.before));
  return and(...conds)!;
}
