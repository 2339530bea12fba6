import { eq } from "drizzle-orm";
import { skillsOfAgents } from "../mesh";
import { findVisibleMission } from "../../db/mission-visibility";
import { adpCards } from "../../db/schema/index";
import { dbOf, viewerOf, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { importedElos } from "../portability";
import { cardCandidates, cardsOf, agentAsCandidate, openMissionCandidates } from "./adp.discovery";
import { isOverloaded, order, rank, scoreCandidate, WEIGHTS, type Scored } from "./adp.ranking";
import { serverCard } from "./adp.server-card";
import { queryTags, rawFormsOf, skillPaths } from "./adp.tags";
import { cardWords, MAX_QUERY_WORDS, missionWords, words } from "./adp.words";
import type {
  DescribeInput,
  DiscoverInput,
  DiscoverWire,
  MissionCandidatesWire,
  RankQueryInput,
  RecommendedMissionsWire,
} from "./adp.schemas";
import { parseAgentId } from "../../lib/agent-id";

// The ADP verbs (§4) and the two ranking lists; REST handlers (and MCP, later) call these.

const weights = { ...WEIGHTS };
const explain = (s: Scored) => ({
  score: s.score,
  factors: s.factors,
  matched_tags: s.matched_tags,
  tag_matches: s.tag_matches,
});

/** Each score of `top` beside the entry it scored (the one with its key), in rank order. */
function withEntries<E>(top: readonly Scored[], entries: readonly E[], keyOf: (e: E) => string): [Scored, E][] {
  const byKey = new Map(entries.map((e) => [keyOf(e), e]));
  return top.flatMap((s): [Scored, E][] => {
    const e = byKey.get(s.key);
    return e === undefined ? [] : [[s, e]];
  });
}

/**
 * adp.describe (§4.1): this server's card, or the card an agent advertised. With `fields`, only
 * those plus id and name (§4.1 "MAY") — and no signature, which covers the whole card, unless
 * nothing was left out.
 */
export async function describe(ctx: Ctx, input: DescribeInput): Promise<Record<string, unknown>> {
  let card: Record<string, unknown>;
  if (input.agent_id) {
    const id = parseAgentId(input.agent_id);
    const [row] = await dbOf(ctx).select({ card: adpCards.card }).from(adpCards).where(eq(adpCards.agentId, id));
    if (!row) throw new AppError("NOT_FOUND", `agent ${id} has not advertised an Agent Card`);
    card = JSON.parse(row.card) as Record<string, unknown>;
  } else {
    card = await serverCard(ctx.deps);
  }
  if (!input.fields) return card;
  const wanted = new Set(["id", "name", ...input.fields]);
  const partial = Object.fromEntries(Object.entries(card).filter(([k]) => wanted.has(k)));
  const complete = Object.keys(card).every((k) => k === "signature" || wanted.has(k));
  if (!complete || !wanted.has("signature")) delete partial.signature;
  return partial;
}

/** adp.discover (§4.3, §5): advertised cards ranked against tags and/or a query. */
export async function discover(ctx: Ctx, input: DiscoverInput): Promise<DiscoverWire> {
  const { deps } = ctx;
  const tags = queryTags(input.tags ?? []);
  const qWords = words(input.query ?? "", MAX_QUERY_WORDS);
  if (tags.length === 0 && qWords.length === 0) {
    throw new AppError("INVALID_PARAMETER", "give at least one skill tag or a query with words in it (ADP §4.3)", {
      reason: "empty_query",
    });
  }
  const candidates = await cardCandidates(ctx, { paths: tags.map((t) => t.path), words: qWords, limit: input.limit });
  const top = rank(candidates, {
    query: { tags, words: qWords },
    limit: input.limit,
    minScore: input.min_score,
    excludeOverloaded: true,
    ties: "asc",
  });
  const ranked = withEntries(top, candidates, (c) => c.key);
  const keys = ranked.map(([s]) => s.key);
  const [cards, imported, skills] = await Promise.all([
    cardsOf(deps, keys),
    // AIP-3: imported reputation shown beside (never inside) the ranking's local rating.
    importedElos(
      ctx,
      ranked.map(([s, c]) => ({ id: s.key, missionsCompleted: c.missionsCompleted })),
    ),
    skillsOfAgents(deps.database.db, keys),
  ]);
  return {
    results: ranked.flatMap(([s, c]) => {
      const card = cards.get(s.key);
      // A card replaced by a revocation between the two reads is left out rather than shown stale.
      if (!card) return [];
      return [
        {
          agent_card: card,
          agent_id: s.key,
          ...explain(s),
          online: c.online,
          cold_start: s.cold_start,
          imported_elo: imported.get(s.key) ?? null,
          mesh_skills: skills.get(s.key) ?? [],
        },
      ];
    }),
    weights,
  };
}

/** GET /missions/{id}/candidates: agents with advertised cards ranked for a mission (creator excluded). */
export async function missionCandidates(
  ctx: Ctx,
  { missionId, ...q }: { missionId: string } & RankQueryInput,
): Promise<MissionCandidatesWire> {
  const { now } = ctx;
  const m = await findVisibleMission(ctx, missionId, viewerOf(ctx));
  const query = { tags: queryTags(m.tags), words: missionWords(m.title, m.description.slice(0, 2000)) };
  const candidates = await cardCandidates(ctx, {
    paths: query.tags.map((t) => t.path),
    words: query.words,
    exclude: m.creator,
    limit: q.limit,
  });
  const top = rank(candidates, { query, limit: q.limit, minScore: q.min_score, excludeOverloaded: true, ties: "asc" });
  return {
    mission_id: m.id,
    candidates: withEntries(top, candidates, (c) => c.key).map(([s, c]) => ({
      agent_id: s.key,
      card_id: c.cardId,
      name: c.name,
      ...explain(s),
      online: c.online,
      cold_start: s.cold_start,
    })),
    weights,
    as_of: now.toISOString(),
  };
}

/**
 * GET /agents/{id}/recommended-missions: open missions ranked for an agent with the same score —
 * the mission is the query, the agent the candidate — so an agent's score for a mission is the
 * same number in both lists. Skills come from the agent's card, else its profile capabilities.
 */
export async function recommendedMissions(
  ctx: Ctx,
  { agentId: rawAgentId, ...q }: { agentId: string } & RankQueryInput,
): Promise<RecommendedMissionsWire> {
  const { now } = ctx;
  const agentId = parseAgentId(rawAgentId);
  const { card, profile, signals } = await agentAsCandidate(ctx, agentId);
  const skills = card?.skills ?? profile?.capabilities ?? [];
  const agentWords = card?.words ?? cardWords({ name: profile?.displayName ?? "", skills });
  const source = card ? "card" : skills.length || agentWords.length ? "profile" : "none";
  const candidate = { skills, words: agentWords, maxConcurrentTasks: card?.maxConcurrentTasks ?? null, ...signals };
  const tsWords = agentWords.slice(0, MAX_QUERY_WORDS);
  const rows = await openMissionCandidates(ctx, {
    tags: rawFormsOf(skillPaths(skills)),
    tsquery: tsWords.length ? tsWords.join(" | ") : null,
    exclude: agentId,
  });
  const scored = rows.map((m) =>
    scoreCandidate(
      { tags: queryTags(m.tags), words: missionWords(m.title, m.description) },
      { ...candidate, key: m.id },
    ),
  );
  const top = order(scored, { limit: q.limit, minScore: q.min_score, excludeOverloaded: false, ties: "desc" });
  return {
    agent_id: agentId,
    missions: withEntries(top, rows, (r) => r.id).map(([s, m]) => ({
      mission_id: m.id,
      title: m.title,
      tags: m.tags,
      reward: { asset: m.rewardAsset, amount: String(m.rewardAmount) },
      deadline: m.deadline.toISOString(),
      ...explain(s),
    })),
    source,
    overloaded: isOverloaded(candidate.activeTasks, candidate.maxConcurrentTasks),
    weights,
    as_of: now.toISOString(),
  };
}
