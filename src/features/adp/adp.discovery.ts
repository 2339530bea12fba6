import { and, desc, eq, gt, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { adpCards, agents, missions, reviewStats } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { isOnline } from "../heartbeats";
import { START_RATING, effectiveRatingSql } from "../reputation";
import type { Candidate } from "./adp.ranking";
import { activeClaimsOfAgents } from "../claims";

// What discovery reads from the database, bounded: a GIN prefilter (tag paths, words) and at
// most OABP_ADP_CANDIDATE_CAP rows, freshest cards first — so no query scans the directory.

/**
 * Tasks an agent has in progress, for the availability factor and the overloaded exclusion
 * (ADP §5): its active claims on open missions (docs/design.md "Claims": a visible intent to work).
 */
export type ActiveTaskSource = (db: DbOrTx, agentIds: readonly string[], now: Date) => Promise<Map<string, number>>;
export const activeTaskCounts: ActiveTaskSource = activeClaimsOfAgents;

/** Postgres text[] literal built from parameters (no array binding: PGlite and postgres.js agree). */
export const textArray = (items: readonly string[]): SQL =>
  sql`array[${sql.join(
    items.map((i) => sql`${i}`),
    sql`, `,
  )}]::text[]`;

/**
 * Review count and mean stars per agent (ADP §5 rating): one counter row per candidate (kept by
 * the reviews_stats trigger), not an aggregate over every review of up to the candidate cap.
 */
async function reviewStatsOf(db: DbOrTx, ids: readonly string[]) {
  const out = new Map<string, { count: number; average: number }>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      id: reviewStats.reviewee,
      count: reviewStats.count,
      average: sql<number>`(${reviewStats.starsSum}::float8 / ${reviewStats.count})`,
    })
    .from(reviewStats)
    .where(and(inArray(reviewStats.reviewee, [...ids]), gt(reviewStats.count, 0)));
  for (const r of rows) out.set(r.id, { count: Number(r.count), average: Number(r.average) });
  return out;
}

export interface CardCandidate extends Candidate {
  cardId: string;
  name: string;
}

/** Agent signals joined to card rows; absent agent rows read as a fresh agent (1400, 0 missions). */
async function withSignals(
  deps: Deps,
  rows: { agentId: string; rating: number | null; missionsCompleted: number | null; lastSeenAt: Date | null }[],
  now: Date,
) {
  const ids = rows.map((r) => r.agentId);
  const [stats, active] = await Promise.all([
    reviewStatsOf(deps.database.db, ids),
    activeTaskCounts(deps.database.db, ids, now),
  ]);
  return (r: (typeof rows)[number]) => {
    const s = stats.get(r.agentId);
    return {
      rating: r.rating === null ? START_RATING : Number(r.rating),
      missionsCompleted: r.missionsCompleted ?? 0,
      online: isOnline(r.lastSeenAt, now),
      activeTasks: active.get(r.agentId) ?? 0,
      reviewCount: s?.count ?? 0,
      reviewAverage: s?.average ?? null,
    };
  };
}

/** db.execute answers an array (postgres-js) or {rows} (PGlite). */
const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : (r as { rows: T[] }).rows) as T[];

/**
 * The freshest `cap` cards, not revoked, having any of `terms` (adp_card_terms): per term an index
 * range of at most `cap` entries in candidate order, merged. Exact — a card among the freshest
 * `cap` matches is among the freshest `cap` of every term it has — and bounded by terms × cap
 * index entries whatever the directory's size (docs/decisions.md "Discovery reads a bounded
 * candidate set"). `nulls last` as the index is built (updated_at is never null): only then is
 * each term an ordered index-only range that stops at `cap`.
 */
async function freshestMatching(
  deps: Deps,
  terms: readonly string[],
  exclude: string | undefined,
  cap: number,
): Promise<string[]> {
  const skip = exclude ? sql`and t.agent_id <> ${exclude}` : sql``;
  const rows = rowsOf<{ agent_id: string }>(
    await deps.database.db.execute(sql`
      select agent_id from (
        select distinct h.agent_id, h.updated_at
        from unnest(${textArray(terms)}) as q(term)
        cross join lateral (
          select t.agent_id, t.updated_at from adp_card_terms t
          where t.term = q.term ${skip}
          order by t.updated_at desc nulls last, t.agent_id
          limit ${cap}
        ) h
      ) u
      order by updated_at desc nulls last, agent_id
      limit ${cap}`),
  );
  return rows.map((r) => r.agent_id);
}

/** Cards whose skill paths or words overlap the query, not revoked, at most the cap. */
export async function cardCandidates(
  deps: Deps,
  q: { paths: readonly string[]; words: readonly string[]; exclude?: string | undefined },
  now: Date,
): Promise<CardCandidate[]> {
  const terms = [...new Set([...q.paths.map((p) => `p:${p}`), ...q.words.map((w) => `w:${w}`)])];
  if (terms.length === 0) return [];
  const ids = await freshestMatching(deps, terms, q.exclude, deps.config.adpCandidateCap);
  if (ids.length === 0) return [];
  const found = await deps.database.db
    .select({
      agentId: adpCards.agentId,
      cardId: adpCards.cardId,
      name: adpCards.name,
      skills: adpCards.skills,
      words: adpCards.words,
      maxConcurrentTasks: adpCards.maxConcurrentTasks,
      rating: effectiveRatingSql(now),
      missionsCompleted: agents.missionsCompleted,
      lastSeenAt: agents.lastSeenAt,
    })
    .from(adpCards)
    .leftJoin(agents, eq(agents.id, adpCards.agentId))
    .where(and(inArray(adpCards.agentId, ids), eq(adpCards.revoked, false)));
  // In candidate order (freshest first); a card revoked between the two reads is left out.
  const byId = new Map(found.map((r) => [r.agentId, r]));
  const rows = ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [r] : [];
  });
  const signals = await withSignals(deps, rows, now);
  return rows.map((r) => ({
    key: r.agentId,
    cardId: r.cardId,
    name: r.name,
    skills: r.skills,
    words: r.words,
    maxConcurrentTasks: r.maxConcurrentTasks,
    ...signals(r),
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
export async function agentAsCandidate(deps: Deps, agentId: string, now: Date) {
  const db = deps.database.db;
  const [[card], [profile]] = await Promise.all([
    db
      .select({ skills: adpCards.skills, words: adpCards.words, maxConcurrentTasks: adpCards.maxConcurrentTasks })
      .from(adpCards)
      .where(eq(adpCards.agentId, agentId)),
    db
      .select({
        rating: effectiveRatingSql(now),
        missionsCompleted: agents.missionsCompleted,
        lastSeenAt: agents.lastSeenAt,
        displayName: agents.displayName,
        capabilities: agents.capabilities,
      })
      .from(agents)
      .where(eq(agents.id, agentId)),
  ]);
  const row = {
    agentId,
    rating: profile?.rating ?? null,
    missionsCompleted: profile?.missionsCompleted ?? null,
    lastSeenAt: profile?.lastSeenAt ?? null,
  };
  const signals = (await withSignals(deps, [row], now))(row);
  return { card: card ?? null, profile: profile ?? null, signals };
}

/** Open missions (accepting submissions now) whose tags or text overlap the agent's, at most the cap. */
export async function openMissionCandidates(
  deps: Deps,
  q: { tags: readonly string[]; tsquery: string | null; exclude: string },
  now: Date,
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
    .limit(deps.config.adpCandidateCap);
}
