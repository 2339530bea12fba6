import { and, desc, eq, gte, inArray, isNull, lt, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { agentRecords, missions, missionTags } from "../../db/schema/index";
import { MISSION_COLUMNS } from "../../db/rows";
import type { MissionStatus, VerificationType } from "../../db/vocabulary";
import { CREATOR_RECORD_COMPACT } from "../records";

// Hot queries are prepared once per database handle (an unprepared query costs an extra round
// trip; design.md "Fixed stack").

import { publicMissions } from "../../db/mission-visibility";

export { publicMissions };

/**
 * What a list page needs before its documents: the id and the row's version (issue 16), and the
 * creator's record, joined in (it belongs to the creator, so it is never part of a document).
 */
export const MISSION_REF = {
  id: missions.id,
  version: missions.rowVersion,
  creator: missions.creator,
  record: CREATOR_RECORD_COMPACT,
};
/** A whole mission row with its creator's record (the object list and the read by id). */
export const MISSION_WITH_RECORD = { ...MISSION_COLUMNS, record: CREATOR_RECORD_COMPACT };
const creatorRecord = eq(agentRecords.agentId, missions.creator);

// The unfiltered public list, newest first, keyset on the time-ordered id.
const firstPage = publicMissions;
const afterCursor = and(publicMissions, lt(missions.id, sql.placeholder("before")));

function build(db: Db) {
  // Builders are mutable: a fresh one per statement.
  const rows = () => db.select(MISSION_WITH_RECORD).from(missions).leftJoin(agentRecords, creatorRecord);
  const refs = () => db.select(MISSION_REF).from(missions).leftJoin(agentRecords, creatorRecord);
  const limit = sql.placeholder("limit");
  return {
    // Whole rows (web pages, feeds) and refs (REST, MCP: documents from the DocCache).
    listPublicFirst: rows()
      .where(firstPage)
      .orderBy(desc(missions.id))
      .limit(limit)
      .prepare("oabp_missions_public_first"),
    listPublicAfter: rows()
      .where(afterCursor)
      .orderBy(desc(missions.id))
      .limit(limit)
      .prepare("oabp_missions_public_after"),
    refsPublicFirst: refs()
      .where(firstPage)
      .orderBy(desc(missions.id))
      .limit(limit)
      .prepare("oabp_mission_refs_public_first"),
    refsPublicAfter: refs()
      .where(afterCursor)
      .orderBy(desc(missions.id))
      .limit(limit)
      .prepare("oabp_mission_refs_public_after"),
    byIdWithRecord: rows()
      .where(eq(missions.id, sql.placeholder("id")))
      .prepare("oabp_mission_with_record_by_id"),
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
  const words =
    q
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 8) ?? [];
  if (words.length === 0) return null;
  return words.map((w) => `${w.slice(0, 64)}:*`).join(" & ");
}

export interface ListConditions {
  statuses?: MissionStatus[];
  missionTypes?: string[];
  verificationType?: VerificationType;
  asset?: string;
  creator?: string;
  tag?: string;
  tsquery?: string;
  rewardMin?: string;
  rewardMax?: string;
  deadlineAfter?: Date;
  deadlineBefore?: Date;
  creatorMinPaidRatioBp?: number;
  creatorMaxNeverJudged?: number;
  before?: string;
}

export function listWhere(f: ListConditions): SQL {
  const conds: SQL[] = [];
  // An explicit status list holds public statuses only (the zod enum); hidden missions never list.
  conds.push(f.statuses ? and(inArray(missions.status, f.statuses), isNull(missions.hiddenAt))! : publicMissions);
  if (f.missionTypes) conds.push(inArray(missions.missionType, f.missionTypes)); // AIP-2 §4: OR
  if (f.verificationType) conds.push(eq(missions.verificationType, f.verificationType));
  if (f.asset) conds.push(eq(missions.rewardAsset, f.asset));
  if (f.creator) conds.push(eq(missions.creator, f.creator));
  // The tag table, walked in (tag, mission_id) order (see schema/missions.ts missionTags).
  if (f.tag)
    conds.push(
      sql`${missions.id} in (select ${missionTags.missionId} from ${missionTags} where ${missionTags.tag} = ${f.tag})`,
    );
  if (f.tsquery) conds.push(sql`${missions.search} @@ to_tsquery('simple', ${f.tsquery})`);
  if (f.rewardMin) conds.push(gte(missions.rewardAmount, f.rewardMin));
  if (f.rewardMax) conds.push(lte(missions.rewardAmount, f.rewardMax));
  if (f.deadlineAfter) conds.push(gte(missions.deadline, f.deadlineAfter));
  if (f.deadlineBefore) conds.push(lte(missions.deadline, f.deadlineBefore));
  // Issue 19 item 1: creators by track record, read from agent_records through its indexes
  // (paid_ratio_bp, missions_never_judged); the page walk stays on missions' id order.
  if (f.creatorMinPaidRatioBp !== undefined)
    conds.push(
      sql`${missions.creator} in (select ${agentRecords.agentId} from ${agentRecords} where ${agentRecords.paidRatioBp} >= ${f.creatorMinPaidRatioBp})`,
    );
  if (f.creatorMaxNeverJudged !== undefined)
    conds.push(
      sql`${missions.creator} in (select ${agentRecords.agentId} from ${agentRecords} where ${agentRecords.missionsNeverJudged} <= ${f.creatorMaxNeverJudged})`,
    );
  if (f.before) conds.push(lt(missions.id, f.before));
  return and(...conds)!;
}
