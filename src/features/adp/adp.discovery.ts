import { and, desc, eq, gt, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import type { Ctx } from "../../lib/context";
import { adpCards, agents, missions, reviewStats } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AVAILABILITY_WINDOW_SECONDS, isOnline } from "../heartbeats";
import { START_RATING, effectiveRatingSql } from "../reputation";
import { COLD_START_BOOST, COLD_START_MISSIONS, WEIGHTS, type Candidate } from "./adp.ranking";
import { activeClaimsOfAgents } from "../claims";

// What discovery reads from the database, bounded whatever the directory's size: cards from at
// most ADP_TERM_BUDGET index entries, of which the ADP_SCORED_CARDS best pre-scored are
// loaded; open missions through GIN prefilters and at most ADP_CANDIDATE_CAP rows.

/** Entries of `adp_card_terms` read per query, shared equally by its skill paths and words. */
const ADP_TERM_BUDGET = 400;
/** The best pre-scored cards loaded and ranked by the §5 five factors (at least the query's `limit`). */
const ADP_SCORED_CARDS = 64;
/** Prefiltered open missions scored per recommendation query, the newest first. */
const ADP_CANDIDATE_CAP = 500;

/**
 * Tasks an agent has in progress, for the availability factor and the overloaded exclusion
 * (ADP §5): its active claims on open missions (docs/decisions.md "Claims": a visible intent to work).
 */
export type ActiveTaskSource = (
  ctx: Pick<Ctx, "now">,
  input: { db: DbOrTx; agentIds: readonly string[] },
) => Promise<Map<string, number>>;
const activeTaskCounts: ActiveTaskSource = activeClaimsOfAgents;

/** Postgres text[] literal built from parameters (no array binding: PGlite and postgres.js agree). */
const textArray = (items: readonly string[]): SQL =>
  sql`array[${sql.join(
    items.map((i) => sql`${i}`),
    sql`, `,
  )}]::text[]`;

export interface CardCandidate extends Candidate {
  cardId: string;
  name: string;
}

/** What the §5 signals are read from: an agent row (absent: a fresh agent, 1400, 0 missions) and its review counter. */
interface SignalRow {
  agentId: string;
  rating: number | null;
  missionsCompleted: number | null;
  lastSeenAt: Date | null;
  reviewCount: number | null;
  reviewAverage: number | null;
}

/** Mean stars (ADP §5 rating) from the counter the reviews_stats trigger keeps; null without reviews. */
const reviewAverageSql = sql<number | null>`(${reviewStats.starsSum}::float8 / nullif(${reviewStats.count}, 0))`;

function signalsOf(r: SignalRow, active: Map<string, number>, now: Date) {
  const reviewCount = Number(r.reviewCount ?? 0);
  return {
    rating: r.rating === null ? START_RATING : Number(r.rating),
    missionsCompleted: r.missionsCompleted ?? 0,
    online: isOnline({ now }, r.lastSeenAt),
    activeTasks: active.get(r.agentId) ?? 0,
    reviewCount,
    reviewAverage: reviewCount > 0 && r.reviewAverage !== null ? Number(r.reviewAverage) : null,
  };
}

/** db.execute answers an array (postgres-js) or {rows} (PGlite). */
const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : (r as { rows: T[] }).rows) as T[];

/** A card query: skill paths (the tags factor) and words (the text factor). */
export interface CardQuery {
  paths: readonly string[];
  words: readonly string[];
  exclude?: string | undefined;
}

/**
 * The `k` most promising cards for a query, by a pre-score read with the index and primary keys
 * only (docs/decisions/storage.md "Discovery reads a bounded candidate set"):
 * 1. per term (`p:<path>`, `w:<word>` in adp_card_terms), the freshest ⌈budget / terms⌉ entries —
 *    an ordered index-only range, so at most `budget` entries in all, whatever the directory's size;
 * 2. each card found, scored by the §5 formula (adp.ranking.ts) with two shortcuts: its words are
 *    counted within the ranges and against the query's words alone (not min(|Q|, |A|)), and
 *    overload is not known. Skill paths are matched exactly (a primary-key probe per query path:
 *    a card found through a rare word may have fallen out of a common path's range); reputation,
 *    availability and rating come from its agent row and review counter, as in the full score;
 * 3. the best `k`, rounded and tied as the ranking does (6 decimals, then the address) — which the
 *    caller loads and ranks exactly.
 * `nulls last` as the index is built (updated_at is never null): only then is each term an ordered
 * range that stops at its share. Each card's agent row and review counter are primary-key probes
 * (lateral, `limit 1`, so the planner cannot turn them into joins): estimating ~100 cards, it hashed
 * the whole agents and review_stats tables instead — a scan that grew with the directory (15 000
 * agents read for 324 cards; bench/README.md "Scale mode").
 */
async function preScored(deps: Deps, q: CardQuery, k: number, now: Date): Promise<string[]> {
  const terms = [...new Set([...q.paths.map((p) => `p:${p}`), ...q.words.map((w) => `w:${w}`)])];
  if (terms.length === 0) return [];
  const share = Math.max(1, Math.ceil((deps.limits?.adpTermBudget ?? ADP_TERM_BUDGET) / terms.length));
  const paths = terms.filter((t) => t.startsWith("p:"));
  const nWords = terms.length - paths.length;
  const skip = q.exclude ? sql`and t.agent_id <> ${q.exclude}` : sql``;
  const f = (x: number) => sql.raw(String(x));
  const tags = paths.length
    ? sql`(select count(*) from adp_card_terms x where x.term = any(${textArray(paths)}) and x.agent_id = u.agent_id)::float8 / ${f(paths.length)}`
    : sql`0`;
  const text = nWords ? sql`u.words::float8 / ${f(nWords)}` : sql`0`;
  // float8 throughout: power() on numeric (what the literals would make it) costs ~0.1 ms a card.
  const rating = sql`coalesce(${effectiveRatingSql({ now })}, ${f(START_RATING)})::float8`;
  const reputation = sql`least(1, 1 / (1 + power(10::float8, (${f(START_RATING)} - ${rating}) / 400))
    + case when coalesce(${agents.missionsCompleted}, 0) < ${f(COLD_START_MISSIONS)} then ${f(COLD_START_BOOST)}::float8 else 0 end)`;
  const online = sql`case when ${agents.lastSeenAt} >= ${now.toISOString()}::timestamptz - interval '${sql.raw(String(AVAILABILITY_WINDOW_SECONDS))} seconds' then 1.0::float8 else 0 end`;
  // coalesce inside: least() and greatest() skip nulls, so without reviews least(1, null) would be 1.
  const stars = sql`greatest(0, least(1, coalesce((${reviewStats.starsSum}::float8 / nullif(${reviewStats.count}, 0) - 1) / 4, 0)))`;
  const rows = rowsOf<{ agent_id: string }>(
    await deps.database.db.execute(sql`
      select u.agent_id
      from (
        select h.agent_id, count(*) filter (where h.term like 'w:%') as words
        from unnest(${textArray(terms)}) as q(term)
        cross join lateral (
          select t.term, t.agent_id, t.updated_at from adp_card_terms t
          where t.term = q.term ${skip}
          order by t.updated_at desc nulls last, t.agent_id
          limit ${share}
        ) h
        group by h.agent_id
      ) u
      left join lateral (select * from agents where agents.id = u.agent_id limit 1) agents on true
      left join lateral (select * from review_stats where review_stats.reviewee = u.agent_id limit 1) review_stats on true
      order by round((${f(WEIGHTS.tags)} * ${tags} + ${f(WEIGHTS.text)} * ${text} + ${f(WEIGHTS.reputation)} * ${reputation}
        + ${f(WEIGHTS.availability)} * ${online} + ${f(WEIGHTS.rating)} * ${stars})::numeric, 6) desc, u.agent_id
      limit ${k}`),
  );
  return rows.map((r) => r.agent_id);
}

/**
 * The cards to rank for a query: the best pre-scored (at least `limit`, else
 * ADP_SCORED_CARDS), not revoked, with the columns the §5 score reads and their agents'
 * signals — one read of the cards, agents and review counters, one of active claims.
 */
export async function cardCandidates(
  { deps, now }: Pick<Ctx, "deps" | "now">,
  { limit, ...q }: CardQuery & { limit: number },
): Promise<CardCandidate[]> {
  const ids = await preScored(deps, q, Math.max(limit, deps.limits?.adpScoredCards ?? ADP_SCORED_CARDS), now);
  if (ids.length === 0) return [];
  const db = deps.database.db;
  const [found, active] = await Promise.all([
    db
      .select({
        agentId: adpCards.agentId,
        cardId: adpCards.cardId,
        name: adpCards.name,
        skills: adpCards.skills,
        words: adpCards.words,
        maxConcurrentTasks: adpCards.maxConcurrentTasks,
        rating: effectiveRatingSql({ now }),
        missionsCompleted: agents.missionsCompleted,
        lastSeenAt: agents.lastSeenAt,
        reviewCount: reviewStats.count,
        reviewAverage: reviewAverageSql,
      })
      .from(adpCards)
      .leftJoin(agents, eq(agents.id, adpCards.agentId))
      .leftJoin(reviewStats, eq(reviewStats.reviewee, adpCards.agentId))
      .where(and(inArray(adpCards.agentId, ids), eq(adpCards.revoked, false))),
    activeTaskCounts({ now }, { db, agentIds: ids }),
  ]);
  // A card revoked between the two reads is left out.
  return found.map((r) => ({
    key: r.agentId,
    cardId: r.cardId,
    name: r.name,
    skills: r.skills,
    words: r.words,
    maxConcurrentTasks: r.maxConcurrentTasks,
    ...signalsOf(r, active, now),
  }));
}

/** Stored cards by agent, parsed (the canonical text as advertised, signature included). */
export async function cardsOf(deps: Deps, ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  if (ids.length === 0) return new Map();
  const rows = await deps.database.db
    .select({ agentId: adpCards.agentId, card: adpCards.card })
    .from(adpCards)
    .where(inArray(adpCards.agentId, [...ids]));
  return new Map(rows.map((r) => [r.agentId, JSON.parse(r.card) as Record<string, unknown>]));
}

/** One agent as a candidate: its card (or, without one, its AIP-1 §1 profile capabilities). */
export async function agentAsCandidate({ deps, now }: Pick<Ctx, "deps" | "now">, agentId: string) {
  const db = deps.database.db;
  const [[card], [profile], [stats], active] = await Promise.all([
    db
      .select({ skills: adpCards.skills, words: adpCards.words, maxConcurrentTasks: adpCards.maxConcurrentTasks })
      .from(adpCards)
      .where(eq(adpCards.agentId, agentId)),
    db
      .select({
        rating: effectiveRatingSql({ now }),
        missionsCompleted: agents.missionsCompleted,
        lastSeenAt: agents.lastSeenAt,
        displayName: agents.displayName,
        capabilities: agents.capabilities,
      })
      .from(agents)
      .where(eq(agents.id, agentId)),
    db
      .select({ reviewCount: reviewStats.count, reviewAverage: reviewAverageSql })
      .from(reviewStats)
      .where(eq(reviewStats.reviewee, agentId)),
    activeTaskCounts({ now }, { db, agentIds: [agentId] }),
  ]);
  const row = {
    agentId,
    rating: profile?.rating ?? null,
    missionsCompleted: profile?.missionsCompleted ?? null,
    lastSeenAt: profile?.lastSeenAt ?? null,
    reviewCount: stats?.reviewCount ?? null,
    reviewAverage: stats?.reviewAverage ?? null,
  };
  return { card: card ?? null, profile: profile ?? null, signals: signalsOf(row, active, now) };
}

/** Open missions (accepting submissions now) whose tags or text overlap the agent's, at most the cap. */
export async function openMissionCandidates(
  { deps, now }: Pick<Ctx, "deps" | "now">,
  q: { tags: readonly string[]; tsquery: string | null; exclude: string },
) {
  const match: SQL[] = [];
  if (q.tags.length) match.push(sql`${missions.tags} && ${textArray(q.tags)}`);
  if (q.tsquery) match.push(sql`${missions.search} @@ to_tsquery('simple', ${q.tsquery})`);
  if (match.length === 0) return [];
  return deps.database.db
    .select({
      id: missions.id,
      title: missions.title,
      // The text factor reads the start of a description (adp.words.ts bounds the words anyway).
      description: sql<string>`left(${missions.description}, 2000)`,
      tags: missions.tags,
      rewardAsset: missions.rewardAsset,
      rewardAmount: missions.rewardAmount,
      deadline: missions.deadline,
    })
    .from(missions)
    .where(
      and(
        eq(missions.status, "open"),
        isNull(missions.hiddenAt),
        gt(missions.deadline, now),
        ne(missions.creator, q.exclude),
        or(...match),
      ),
    )
    .orderBy(desc(missions.id))
    .limit(deps.limits?.adpCandidateCap ?? ADP_CANDIDATE_CAP);
}
