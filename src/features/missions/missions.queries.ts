import { and, desc, eq, gte, inArray, isNull, lt, lte, type Placeholder, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgSelect } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "../../db/client";
import { perDatabase } from "../../db/prepared";
import { agentRecords, missions, missionTags } from "../../db/schema/index";
import { MISSION_COLUMNS } from "../../db/rows";
import { type MissionStatus, PUBLIC_STATUSES, type VerificationType, VERIFICATION_TYPES } from "../../db/vocabulary";
import { CREATOR_RECORD_COMPACT } from "../records";
import type { MissionRef } from "./missions.docs";

// Hot queries are prepared once per database handle (an unprepared query costs an extra round
// trip; docs/design.md "Fixed stack").

import { publicMissions } from "../../db/mission-visibility";

/**
 * What a list page needs before its documents: the id and the row's version, and the
 * creator's record, joined in (it belongs to the creator, so it is never part of a document).
 */
const MISSION_REF = {
  id: missions.id,
  version: missions.rowVersion,
  creator: missions.creator,
  record: CREATOR_RECORD_COMPACT,
};
/** A whole mission row with its creator's record (the object list and the read by id). */
const MISSION_WITH_RECORD = { ...MISSION_COLUMNS, record: CREATOR_RECORD_COMPACT };
/** The join that brings each mission's creator record (MISSION_REF, MISSION_WITH_RECORD). */
const creatorRecord = eq(agentRecords.agentId, missions.creator);

// The unfiltered public list, newest first, keyset on the time-ordered id: the first page, and
// the page after a cursor.
const firstPage = publicMissions;
const afterCursor = and(publicMissions, lt(missions.id, sql.placeholder("before")));

/** A select builder as far as the public list's statements need it. */
interface Selecting<P> {
  where(w: SQL | undefined): { orderBy(o: SQL): { limit(l: Placeholder): { prepare(name: string): P } } };
}

/** The unfiltered public list's first page and page after a cursor, prepared as `<name>_first` / `_after`. */
function publicPages<P>(select: () => Selecting<P>, name: string): { first: P; after: P } {
  const limit = sql.placeholder("limit");
  const page = (where: SQL | undefined, suffix: string) =>
    select().where(where).orderBy(desc(missions.id)).limit(limit).prepare(`${name}_${suffix}`);
  return { first: page(firstPage, "first"), after: page(afterCursor, "after") };
}

/** The unfiltered public list newest first: `limit` entries, after the cursor's id when there is one. */
export function newestPublic<R>(
  pages: {
    first: { execute(p: { limit: number }): Promise<R[]> };
    after: { execute(p: { before: string; limit: number }): Promise<R[]> };
  },
  { before, limit }: { before: string | undefined; limit: number },
): Promise<R[]> {
  return before ? pages.after.execute({ before, limit }) : pages.first.execute({ limit });
}

function build(db: Db) {
  // Builders are mutable: a fresh one per statement.
  const rows = () => selectRows(db);
  const refs = () => selectRefs(db);
  return {
    // Whole rows (web pages, feeds) and refs (REST, MCP: documents from the DocCache).
    listPublic: publicPages(rows, "oabp_missions_public"),
    refsPublic: publicPages(refs, "oabp_mission_refs_public"),
    byIdWithRecord: rows()
      .where(eq(missions.id, sql.placeholder("id")))
      .prepare("oabp_mission_with_record_by_id"),
    // An anonymous read by id: the ref only, the document from the DocCache.
    refPublicById: refs()
      .where(and(publicMissions, eq(missions.id, sql.placeholder("id"))))
      .prepare("oabp_mission_ref_public_by_id"),
  };
}

export const prepared = perDatabase(build);

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
  /** Exactly these missions (a page whose refs were read first: rewardPageRefs). */
  ids?: string[];
  /** The rows the page query reads (limit + 1): narrow ranges are read per amount or hour. */
  pageRows?: number;
}

/**
 * A page's LIMIT written into the statement text instead of sent as a parameter. The driver
 * prepares every statement (postgres.js named statements), and Postgres decides after five runs
 * whether a generic plan will do: with `limit $n` it costs that plan for a tenth of the matches —
 * at a million missions a parallel plan, 5–10 ms, so it keeps planning every request afresh
 * (0.3–1 ms) — where with the number it costs the page it reads (bench/README.md "Scale mode").
 * Bounded: at most MAX_PAGE_ROWS distinct texts per statement shape.
 */
const MAX_PAGE_ROWS = 1000;
function literalRows(n: number): SQL {
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_ROWS) throw new RangeError(`page rows ${n}`);
  return sql.raw(String(n));
}
// drizzle renders an SQL object given to .limit() as it is (pg-core dialect buildSelectQuery).
const literalLimit = (n: number): number => literalRows(n) as unknown as number;

/** Whether a tag is the list's only filter (besides the cursor): tagPageRefs reads that page. */
export function tagOnly(f: ListConditions): f is ListConditions & { tag: string } {
  const { tag, before: _before, pageRows: _pageRows, ...rest } = f;
  return tag !== undefined && Object.values(rest).every((v) => v === undefined);
}

/**
 * The refs of a page filtered by one tag: the tag table in list order, each mission probed by
 * primary key in a lateral subquery (which the planner cannot turn into a join) and kept when
 * public, its creator's record joined. One plan whatever the tag — a rare tag and the commonest
 * read 51 tag entries and 51 + 51 probes — so the statement's generic plan is the one Postgres
 * keeps, instead of planning each request for the tag's own frequency (bench/README.md "Scale
 * mode").
 */
export function tagPageRefs(db: Db, { tag, before, pageRows }: { tag: string; before?: string; pageRows: number }) {
  const m = db
    .select({ id: missions.id, version: missions.rowVersion, creator: missions.creator })
    .from(missions)
    .where(and(eq(missions.id, missionTags.missionId), publicMissions))
    .limit(literalLimit(1))
    .as("m");
  return db
    .select({ id: m.id, version: m.version, creator: m.creator, record: CREATOR_RECORD_COMPACT })
    .from(missionTags)
    .innerJoinLateral(m, sql`true`)
    .leftJoin(agentRecords, eq(agentRecords.agentId, m.creator))
    .where(and(eq(missionTags.tag, tag), before === undefined ? undefined : lt(missionTags.missionId, before)))
    .orderBy(desc(missionTags.missionId))
    .limit(literalLimit(pageRows));
}

/** Missions with each creator's record: refs (REST, MCP: documents from the DocCache) or whole rows (web, feeds). */
export const selectRefs = (db: DbOrTx) => db.select(MISSION_REF).from(missions).leftJoin(agentRecords, creatorRecord);
export const selectRows = (db: DbOrTx) =>
  db.select(MISSION_WITH_RECORD).from(missions).leftJoin(agentRecords, creatorRecord);

/** A filtered page of `qb` (selectRefs or selectRows, `.$dynamic()`), newest first. */
export function filteredPage<T extends PgSelect>(qb: T, { where, rows }: { where: ListConditions; rows: number }) {
  return qb.where(listWhere(where)).orderBy(desc(missions.id)).limit(literalLimit(rows));
}

function listWhere(f: ListConditions): SQL {
  const ids = f.pageRows === undefined ? undefined : rangeIds(f, f.pageRows);
  return ids ? sql`${missions.id} = any(${ids})` : and(...conditions(f))!;
}

/** At most this many distinct amounts (or hours) are read one by one; a wider range is one scan. */
const RANGE_STEPS = 48;
const HOUR = 3_600_000;
// A raw template passes values to the driver as they are: instants go as ISO text.
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The refs of a page filtered by a narrow reward range, without reading every match; undefined
 * when the conditions hold no range with both bounds, or a range of more than RANGE_STEPS
 * distinct amounts (the plain page walks the primary key, which finds matches fast when they are
 * many). A b-tree cannot serve a range and the list's id order at once, so a range matching 2 000
 * missions at 1M would fetch and sort all of them. Instead the range is split into its distinct
 * amounts (a skip scan of missions_amount_id_idx, at most RANGE_STEPS + 1 probes), each read
 * newest first with every other filter and stopped at the page, and the newest of those kept,
 * their refs read from the rows the walk already visited. One statement whose generic plan is
 * the one Postgres keeps at every size: the bounds only reach index probes of one row, and the
 * loop over the amounts is a fixed generate_series (bench/README.md "Scale mode"). With one
 * bound, or a range too wide, the plain page reads it.
 */
export function rewardPageQuery(db: DbOrTx, f: ListConditions) {
  const { rewardMin: lo, rewardMax: hi, pageRows } = f;
  if (lo === undefined || hi === undefined || pageRows === undefined) return undefined;
  const rest = and(...conditions({ ...f, rewardMin: undefined, rewardMax: undefined }))!;
  const asset = f.asset ? sql`and ${missions.rewardAsset} = ${f.asset}` : sql``;
  const steps = sql.raw(String(RANGE_STEPS));
  const rows = literalRows(pageRows);
  // The distinct amounts in the range, lowest first; evaluated lazily, so LIMIT bounds it.
  const amounts = sql`(with recursive v(a) as (
      (select ${missions.rewardAmount} from ${missions} where ${missions.rewardAmount} between ${lo} and ${hi} ${asset} order by 1 limit 1)
      union all
      select (select ${missions.rewardAmount} from ${missions} where ${missions.rewardAmount} > v.a and ${missions.rewardAmount} <= ${hi} ${asset} order by 1 limit 1)
        from v where v.a is not null)
    select x.a as amounts, cardinality(x.a) as n from (select array(select a from v where a is not null limit ${steps} + 1) as a) x) r`;
  // Constants, not parameters: a generic plan costs generate_series($n) as 1 000 rows (past the JIT threshold).
  const page = sql`left join lateral (select m.id, m.version, m.creator from generate_series(1, ${steps}) i
      cross join lateral (select ${missions.id} as id, ${missions.rowVersion} as version, ${missions.creator} as creator
        from ${missions} where ${missions.rewardAmount} = r.amounts[i] and ${rest} order by ${missions.id} desc limit ${rows}) m
      where i <= r.n order by m.id desc limit ${rows}) p on r.n <= ${steps}`;
  return db
    .select({
      n: sql<number>`r.n`.mapWith(Number),
      id: sql<string | null>`p.id`,
      version: sql<number | null>`p.version`.mapWith(missions.rowVersion),
      creator: sql<string | null>`p.creator`,
      record: CREATOR_RECORD_COMPACT,
    })
    .from(sql`${amounts} ${page}`)
    .leftJoin(agentRecords, eq(agentRecords.agentId, sql`p.creator`))
    .orderBy(sql`p.id desc`);
}

/** rewardPageQuery's refs; undefined when the plain page must read it. */
export async function rewardPageRefs(db: DbOrTx, f: ListConditions): Promise<MissionRef[] | undefined> {
  const found = await rewardPageQuery(db, f);
  if (!found || (found[0]?.n ?? 0) > RANGE_STEPS) return undefined;
  return found.flatMap(({ id, version, creator, record }) =>
    id === null || version === null || creator === null ? [] : [{ id, version, creator, record }],
  );
}

/**
 * The ids of a page filtered by a narrow deadline window, without reading every match: the
 * window is split into its hours (oabp_deadline_hour), each read newest first with every other
 * filter and stopped at `n` rows (missions_deadline_hour_id_idx), and the newest `n` of those
 * kept. Wider windows keep the plain plan. The result is an array expression for `id = any(…)`.
 */
function rangeIds(f: ListConditions, n: number): SQL | undefined {
  const [after, before] = [f.deadlineAfter, f.deadlineBefore];
  if (after && before) {
    const [a, b] = [after.getTime(), before.getTime()];
    const [h0, h1] = [Math.floor(a / HOUR), Math.floor(b / HOUR)];
    if (h1 < h0 || h1 - h0 >= RANGE_STEPS) return undefined;
    const rest = and(...conditions({ ...f, deadlineAfter: undefined, deadlineBefore: undefined }))!;
    // An hour the window covers at least half of is walked newest first (the cut, written as
    // ORs, stays a filter on the walk); a thinner slice at either end is read from the deadline
    // index and sorted — at most half an hour's missions.
    const covered = (h: number) => Math.min(b, (h + 1) * HOUR - 1) - Math.max(a, h * HOUR) + 1 >= HOUR / 2;
    const [w0, w1] = [covered(h0) ? h0 : h0 + 1, covered(h1) ? h1 : h1 - 1];
    const parts: SQL[] = [];
    if (w0 <= w1)
      parts.push(sql`select p.id from generate_series(${w0}::bigint, ${w1}::bigint) h cross join lateral (
        select ${missions.id} as id from ${missions} where oabp_deadline_hour(${missions.deadline}) = h
          and (h > ${h0} or ${missions.deadline} >= ${ts(after)})
          and (h < ${h1} or ${missions.deadline} <= ${ts(before)}) and ${rest}
        order by ${missions.id} desc limit ${n}) p`);
    // [lo, end of hour h) ∩ the window: the hour's end is exclusive (stored deadlines carry µs).
    const slice = (lo: Date, h: number) =>
      parts.push(sql`(select ${missions.id} as id from ${missions} where ${missions.deadline} >= ${ts(lo)}
        and ${missions.deadline} < ${ts(new Date((h + 1) * HOUR))} and ${missions.deadline} <= ${ts(before)}
        and ${rest} order by ${missions.id} desc limit ${n})`);
    if (w0 > h0) slice(after, h0);
    if (w1 < h1 && h1 > h0) slice(new Date(Math.max(a, h1 * HOUR)), h1);
    return sql`array(select u.id from (${sql.join(parts, sql` union all `)}) u order by u.id desc limit ${n})`;
  }
  return undefined;
}

/**
 * `column in ('a', 'b')` with the words written into the statement, as publicMissions is: a
 * generic plan then estimates them as a custom plan does, and Postgres stops planning each
 * request. Only words of `vocabulary` (the filters' zod enums already hold nothing else), in its
 * order: a bounded number of statement texts.
 */
function inWords<W extends string>(column: PgColumn, words: readonly W[], vocabulary: readonly W[]): SQL {
  const kept = vocabulary.filter((w) => words.includes(w));
  if (kept.length !== new Set(words).size) throw new RangeError(`not in the vocabulary: ${words.join(", ")}`);
  return sql`${column} in (${sql.raw(kept.map((w) => `'${w}'`).join(", "))})`;
}

function conditions(f: ListConditions): SQL[] {
  const conds: SQL[] = [];
  // An explicit status list holds public statuses only (the zod enum); hidden missions never list.
  conds.push(
    f.statuses
      ? and(inWords(missions.status, f.statuses, PUBLIC_STATUSES), isNull(missions.hiddenAt))!
      : publicMissions,
  );
  if (f.missionTypes) conds.push(inArray(missions.missionType, f.missionTypes)); // AIP-2 §4: OR
  if (f.verificationType) conds.push(inWords(missions.verificationType, [f.verificationType], VERIFICATION_TYPES));
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
  conds.push(...recordConditions(f));
  if (f.before) conds.push(lt(missions.id, f.before));
  if (f.ids) conds.push(inArray(missions.id, f.ids));
  return conds;
}

/**
 * Creators by track record, read from agent_records through its indexes (paid_ratio_bp,
 * missions_never_judged); the page walk stays on missions' id order.
 */
function recordConditions(f: ListConditions): SQL[] {
  const conds: SQL[] = [];
  if (f.creatorMinPaidRatioBp !== undefined)
    conds.push(
      sql`${missions.creator} in (select ${agentRecords.agentId} from ${agentRecords} where ${agentRecords.paidRatioBp} >= ${f.creatorMinPaidRatioBp})`,
    );
  if (f.creatorMaxNeverJudged !== undefined)
    conds.push(
      sql`${missions.creator} in (select ${agentRecords.agentId} from ${agentRecords} where ${agentRecords.missionsNeverJudged} <= ${f.creatorMaxNeverJudged})`,
    );
  return conds;
}
