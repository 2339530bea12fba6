import { START_RATING } from "../reputation";
import { matchRule, normalizeTag, type QueryTag, type TagRule } from "./adp.tags";

// ADP §5 Baseline Discovery Profile: five factors, each in [0, 1], with the RECOMMENDED weights.
// Pure: every input is passed in (the service reads them from the database with the injected
// clock), so test/adp/adp-ranking.test.ts can compute each factor by hand. How each deployment-
// specific signal is computed here (README "Protocol decisions"):
// - tags: matched query tags / query tags, §3.6.1 rules and our aliases (adp.tags.ts);
// - text: word overlap |Q ∩ A| / min(|Q|, |A|) over adp.words.ts words;
// - reputation: the ELO expected score against a start-rated (1400) agent,
//   1 / (1 + 10^((1400 − rating) / 400)), decay included; cold start (< 5 completed missions)
//   adds COLD_START_BOOST, capped at 1;
// - availability: 1 when online (heartbeat or authenticated request within 180 s) and below
//   max_concurrent_tasks, else 0; at or over it the agent is excluded (§5 "SHOULD exclude");
// - rating: mean review stars mapped 1..5 → 0..1; 0 with no review.

export const WEIGHTS = { tags: 0.3, text: 0.25, reputation: 0.2, availability: 0.15, rating: 0.1 } as const;
export const COLD_START_MISSIONS = 5;
export const COLD_START_BOOST = 0.1;
/** ADP Table 8 defaults. */
export const DEFAULT_MIN_SCORE = 0.1;
export const DEFAULT_LIMIT = 10;

interface Factors {
  tags: number;
  text: number;
  reputation: number;
  availability: number;
  rating: number;
}

export interface RankQuery {
  tags: readonly QueryTag[];
  words: readonly string[];
}

export interface Candidate {
  /** Tie-break key (agent address or mission id). */
  key: string;
  /** Declared skill tags, as written (reported in matched_tags). */
  skills: readonly string[];
  words: readonly string[];
  /** Decayed ELO rating at the evaluation instant. */
  rating: number;
  missionsCompleted: number;
  online: boolean;
  /** Tasks in progress (active claims once they exist; 0 until then). */
  activeTasks: number;
  maxConcurrentTasks: number | null;
  reviewCount: number;
  reviewAverage: number | null;
}

export interface Scored {
  key: string;
  score: number;
  factors: Factors;
  matched_tags: string[];
  /** Which §3.6.1 rule matched each matched query tag. */
  tag_matches: { query: string; rule: TagRule }[];
  cold_start: boolean;
  overloaded: boolean;
}

/** Six decimals: the same inputs always give the same number, so ties are real ties. */
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * A skill's normalised path, remembered: normalisation (NFKC, aliases) was most of a ranking's
 * time, and the same few skills recur on every card. Bounded: emptied when full.
 */
const skillPathCache = new Map<string, string>();
function skillPathOf(raw: string): string {
  let path = skillPathCache.get(raw);
  if (path === undefined) {
    if (skillPathCache.size >= 4096) skillPathCache.clear();
    path = normalizeTag(raw).path;
    skillPathCache.set(raw, path);
  }
  return path;
}

export function tagFactor(
  query: readonly QueryTag[],
  skills: readonly string[],
): { score: number; matched: string[]; matches: { query: string; rule: TagRule }[] } {
  if (query.length === 0) return { score: 0, matched: [], matches: [] };
  const normalised = skills.map((s) => ({ raw: s, path: skillPathOf(s) })).filter((s) => s.path);
  const matched = new Set<string>();
  const matches: { query: string; rule: TagRule }[] = [];
  for (const q of query) {
    let best: TagRule | null = null;
    for (const s of normalised) {
      const rule = matchRule(q, s.path);
      if (!rule) continue;
      matched.add(s.raw);
      if (best === null || rule === "exact") best = rule;
    }
    if (best) matches.push({ query: q.prefix ? `${q.path}/*` : q.path, rule: best });
  }
  return { score: matches.length / query.length, matched: [...matched], matches };
}

export function textFactor(query: readonly string[], agent: readonly string[]): number {
  if (query.length === 0 || agent.length === 0) return 0;
  const a = new Set(agent);
  const q = new Set(query);
  let common = 0;
  for (const w of q) if (a.has(w)) common++;
  return common / Math.min(q.size, a.size);
}

const isColdStart = (missionsCompleted: number) => missionsCompleted < COLD_START_MISSIONS;

export function reputationFactor(rating: number, missionsCompleted: number): number {
  const base = 1 / (1 + 10 ** ((START_RATING - rating) / 400));
  return isColdStart(missionsCompleted) ? Math.min(1, base + COLD_START_BOOST) : base;
}

/** §5: an agent whose active tasks meet or exceed max_concurrent_tasks is overloaded. */
export const isOverloaded = (activeTasks: number, maxConcurrentTasks: number | null) =>
  maxConcurrentTasks !== null && activeTasks >= maxConcurrentTasks;

export const availabilityFactor = (c: Pick<Candidate, "online" | "activeTasks" | "maxConcurrentTasks">) =>
  c.online && !isOverloaded(c.activeTasks, c.maxConcurrentTasks) ? 1 : 0;

export const ratingFactor = (count: number, average: number | null) =>
  count === 0 || average === null ? 0 : Math.min(1, Math.max(0, (average - 1) / 4));

export function scoreCandidate(q: RankQuery, c: Candidate): Scored {
  const tags = tagFactor(q.tags, c.skills);
  const factors: Factors = {
    tags: round(tags.score),
    text: round(textFactor(q.words, c.words)),
    reputation: round(reputationFactor(c.rating, c.missionsCompleted)),
    availability: availabilityFactor(c),
    rating: round(ratingFactor(c.reviewCount, c.reviewAverage)),
  };
  const score = round(
    WEIGHTS.tags * factors.tags +
      WEIGHTS.text * factors.text +
      WEIGHTS.reputation * factors.reputation +
      WEIGHTS.availability * factors.availability +
      WEIGHTS.rating * factors.rating,
  );
  return {
    key: c.key,
    score,
    factors,
    matched_tags: tags.matched,
    tag_matches: tags.matches,
    cold_start: isColdStart(c.missionsCompleted),
    overloaded: isOverloaded(c.activeTasks, c.maxConcurrentTasks),
  };
}

export interface RankOptions {
  limit: number;
  minScore: number;
  /** Drop overloaded candidates (§5); recommendations for one agent keep them. */
  excludeOverloaded: boolean;
  /** Order of equal scores by key: agents by address ascending, missions newest first. */
  ties: "asc" | "desc";
}

/** Filters (overloaded, below min_score) and sorts: score descending, then the key. */
export function order(scored: readonly Scored[], o: RankOptions): Scored[] {
  const dir = o.ties === "asc" ? 1 : -1;
  return scored
    .filter((s) => !(o.excludeOverloaded && s.overloaded) && s.score >= o.minScore)
    .sort((a, b) => b.score - a.score || (a.key < b.key ? -dir : a.key > b.key ? dir : 0))
    .slice(0, o.limit);
}

/** One query against many candidates (discover, mission candidates). */
export const rank = (candidates: readonly Candidate[], { query, ...o }: RankOptions & { query: RankQuery }): Scored[] =>
  order(
    candidates.map((c) => scoreCandidate(query, c)),
    o,
  );
