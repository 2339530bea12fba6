import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { agents, reviews } from "../../src/db/schema/index";
import { agentAsCandidate, cardCandidates, type CardQuery } from "../../src/features/adp/adp.discovery";
import { rank, type Candidate, type RankQuery } from "../../src/features/adp/adp.ranking";
import { queryTags } from "../../src/features/adp/adp.tags";
import { MAX_QUERY_WORDS, words } from "../../src/features/adp/adp.words";
import { signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// Discovery pre-scores cards in SQL with a mirror of the §5 formula (adp.discovery.ts `preScored`)
// and ranks only the best ADP_SCORED_CARDS with adp.ranking.ts. Nothing but this test holds
// the two together: on a directory small enough that the term budget never binds, with every
// card holding at least as many words as the query and none overloaded (the pre-score's two
// documented shortcuts then change nothing), the pre-score's order of the cards must be the
// order `rank()` gives over every card of the directory that matches a term.
//
// Both sides read WEIGHTS, COLD_START_* and the availability window from one place; what can
// drift is the formula written twice (a factor, a weight written out, the rounding, the ties).
//
// The pre-score's order is read through `cardCandidates` with ADP_SCORED_CARDS = 1: asked for
// the best k, it loads the k best pre-scored, so the card that joins at k is the k-th.

// A database of its own: the directory is every card on it.
const t = useTestApp({}, { limits: { adpScoredCards: 1, adpTermBudget: 10_000 } });

interface Seed {
  skills: string[];
  description: string;
  rating: number;
  completed: number;
  /** Seconds since last seen at the evaluation instant; null: never seen. */
  seenAgo: number | null;
  stars: number[];
}

// Varied on every factor and on its edges: parent, prefix, exact and alias tag matches; cold start
// (< 5 missions) and its cap at 1; online exactly at the 180 s window and one second past it;
// ratings with no, one and several reviews; two cards alike in everything (a tie, by address).
const WHISPER: Seed = {
  skills: ["audio/speech-to-text"],
  description: "Whisper transcripts with diarization",
  rating: 1500,
  completed: 7,
  seenAgo: 180,
  stars: [],
};

const EDGES: Record<string, Seed> = {
  zh: {
    skills: ["nlp/translation/zh"],
    description: "Chinese legal translation of contracts",
    rating: 1600,
    completed: 12,
    seenAgo: 10,
    stars: [5, 4],
  },
  legal: {
    skills: ["translation"],
    description: "Translation of legal documents and court filings",
    rating: 1400,
    completed: 0,
    seenAgo: null,
    stars: [],
  },
  debug: {
    skills: ["py", "coding/debugging"],
    description: "Python debugging and careful code review",
    rating: 1700,
    completed: 20,
    seenAgo: 60,
    stars: [3],
  },
  snake: {
    skills: ["coding/py"],
    description: "Scripts and small tools written in python",
    rating: 1380,
    completed: 2,
    seenAgo: 900,
    stars: [5, 5, 4],
  },
  ocr: {
    skills: ["vision/ocr"],
    description: "OCR for scanned invoices and receipts",
    rating: 1300,
    completed: 1,
    seenAgo: 0,
    stars: [1],
  },
  ja: {
    skills: ["ocr", "nlp/translation/ja"],
    description: "Japanese invoices: OCR then translation",
    rating: 1450,
    completed: 5,
    seenAgo: 3600,
    stars: [2, 5, 4],
  },
  // Two identical cards: a tie the pre-score and rank() must break the same way.
  whisperA: WHISPER,
  whisperB: WHISPER,
  analyst: {
    skills: ["data-analysis"],
    description: "Data analysis of invoices with python notebooks",
    rating: 1200,
    completed: 0,
    seenAgo: 181,
    stars: [4],
  },
  general: {
    skills: ["nlp"],
    description: "General language help and contracts summaries",
    rating: 1550,
    completed: 3,
    seenAgo: 30,
    stars: [5],
  },
  star: {
    skills: ["codegen"],
    description: "Code generation in python and typescript",
    rating: 2300,
    completed: 0,
    seenAgo: 5,
    stars: [4, 4],
  },
};

/**
 * A crowd of cards drawn from a fixed seed (mulberry32), so scores sit close together and a
 * small change to one factor or weight on either side swaps some neighbours.
 */
function crowd(n: number, seed: number): Record<string, Seed> {
  let a = seed;
  const rnd = () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const skills = ["nlp/translation/zh", "translation", "nlp", "py", "coding/debugging", "vision/ocr", "ocr"];
  const more = ["stt", "data-analysis", "codegen", "nlp/translation/ja", "retrieval/web-search", "ops/monitoring"];
  const vocabulary = ["legal", "contracts", "chinese", "invoices", "python", "code", "whisper", "diarization"];
  const filler = ["scanned", "receipts", "review", "reports", "fast", "careful", "notebooks", "filings"];
  const out: Record<string, Seed> = {};
  for (let i = 0; i < n; i++) {
    const described = new Set([pick(vocabulary), pick(vocabulary), pick(filler), pick(filler)]);
    out[`crowd${i}`] = {
      skills: [...new Set([pick(skills), ...(rnd() < 0.5 ? [pick(more)] : [])])],
      description: [...described].join(" "),
      rating: 1100 + Math.floor(rnd() * 800),
      completed: Math.floor(rnd() * 10),
      seenAgo: pick([null, 0, 90, 180, 181, 600]),
      stars: Array.from({ length: Math.floor(rnd() * 4) }, () => 1 + Math.floor(rnd() * 5)),
    };
  }
  return out;
}

const DIRECTORY: Record<string, Seed> = { ...EDGES, ...crowd(30, 20261127) };

/** Discover queries (tags, text) covering each rule and mixing the factors. */
const QUERIES: { tags: string[]; query: string }[] = [
  { tags: ["nlp/*"], query: "legal translation" },
  { tags: ["nlp"], query: "chinese contracts" },
  { tags: ["python", "ocr"], query: "invoices" },
  { tags: [], query: "whisper diarization python code" },
  { tags: ["stt", "coding/*", "translate"], query: "" },
  { tags: ["nlp/translation/zh", "vision/ocr", "coding"], query: "scanned receipts python" },
];

const ids = new Map<string, string>();

beforeAll(async () => {
  const seeded = await Promise.all(
    Object.entries(DIRECTORY).map(async ([name, seed]) => ({ name, seed, agent: await signIn(t) })),
  );
  const db = t.deps.database.db;
  for (const { name, seed, agent } of seeded) {
    ids.set(name, agent.address);
    const body = {
      id: `agent://${name}`,
      name: `bot ${name}`,
      description: seed.description,
      version: "1.0.0",
      skills: seed.skills,
      tools: [{ name: "work", input_schema: { type: "object" } }],
      endpoints: [{ protocol: "http+json", uri: "https://bot.example/v1", auth: "bearer" }],
      seq: 1,
    };
    const r = await t.call("POST", "/adp/adp.advertise", { token: agent.token, body });
    expect(r.status, r.text).toBe(200);
  }
  // The signals set directly: this test is about the two formulas, not how the signals are earned.
  const now = t.clock.now().getTime();
  for (const { seed, agent } of seeded) {
    await db
      .update(agents)
      .set({
        rating: seed.rating,
        missionsCompleted: seed.completed,
        lastSeenAt: seed.seenAgo === null ? null : new Date(now - seed.seenAgo * 1000),
      })
      .where(eq(agents.id, agent.address));
    // Reviews by the other cards' agents; the reviews_stats trigger keeps the counter.
    for (const [i, stars] of seed.stars.entries()) {
      const reviewer = seeded[(seeded.findIndex((s) => s.agent === agent) + i + 1) % seeded.length]!.agent;
      await db.insert(reviews).values({
        id: `rev_prescore_${agent.address}_${i}`,
        missionId: `mis_prescore_${i}`,
        reviewer: reviewer.address,
        reviewee: agent.address,
        reviewerRole: "creator",
        stars,
        createdAt: new Date(now),
        updatedAt: new Date(now),
      });
    }
  }
});

const nameOf = (address: string) => [...ids].find(([, a]) => a === address)?.[0] ?? address;

/** rank() over every card of the directory, each loaded on its own (not through the pre-score). */
async function rankedByFormula(q: RankQuery, now: Date) {
  const all: Candidate[] = [];
  for (const address of ids.values()) {
    const { card, signals } = await agentAsCandidate({ deps: t.deps, now }, address);
    if (!card) throw new Error(`no card for ${address}`);
    all.push({
      key: address,
      skills: card.skills,
      words: card.words,
      maxConcurrentTasks: card.maxConcurrentTasks,
      ...signals,
    });
  }
  return {
    all,
    ranked: rank(all, { query: q, limit: all.length, minScore: 0, excludeOverloaded: false, ties: "asc" }),
  };
}

/** The pre-score's order: the card that joins the best k when k grows by one. */
async function preScoreOrder(q: CardQuery, now: Date, size: number): Promise<string[]> {
  const order: string[] = [];
  for (let k = 1; k <= size + 1; k++) {
    const best = (await cardCandidates({ deps: t.deps, now }, { ...q, limit: k })).map((c) => c.key);
    const joined = best.filter((key) => !order.includes(key));
    if (best.length < k) {
      expect(joined, `k = ${k}: the set stops growing and nothing leaves it`).toEqual([]);
      expect(best.length).toBe(order.length);
      break;
    }
    expect(joined.length, `k = ${k}: one card joins, none leaves`).toBe(1);
    order.push(joined[0]!);
  }
  return order;
}

describe("discovery's SQL pre-score follows adp.ranking.ts", () => {
  it.each(QUERIES)("same order as rank() for tags $tags, query '$query'", async ({ tags: rawTags, query }) => {
    const now = t.clock.now();
    const q: RankQuery = { tags: queryTags(rawTags), words: words(query, MAX_QUERY_WORDS) };
    const { all, ranked } = await rankedByFormula(q, now);
    // The regime where the pre-score's shortcuts change nothing: text is over |Q| when every card
    // has at least |Q| words, and nobody is overloaded.
    for (const c of all) {
      expect(c.words.length).toBeGreaterThanOrEqual(q.words.length);
      expect([c.maxConcurrentTasks, c.activeTasks]).toEqual([null, 0]);
    }
    // Discovery considers the cards that match a term: a tag (or a word) with a positive factor.
    const matching = ranked.filter((s) => s.factors.tags > 0 || s.factors.text > 0);
    expect(matching.length, "the query matches some cards").toBeGreaterThan(2);

    const got = await preScoreOrder({ paths: q.tags.map((x) => x.path), words: q.words }, now, all.length);
    const view = (keys: string[]) => keys.map(nameOf);
    expect(view(got)).toEqual(view(matching.map((s) => s.key)));

    // The loaded candidates score as the independently loaded ones do.
    const loaded = await cardCandidates(
      { deps: t.deps, now },
      { paths: q.tags.map((x) => x.path), words: q.words, limit: all.length },
    );
    expect(rank(loaded, { query: q, limit: all.length, minScore: 0, excludeOverloaded: false, ties: "asc" })).toEqual(
      matching,
    );
  });

  it("the directory reaches each factor's edges: a real tie, the 180 s window, the cold-start cap", async () => {
    const now = t.clock.now();
    const q: RankQuery = { tags: queryTags(["stt"]), words: words("whisper", MAX_QUERY_WORDS) };
    const { ranked } = await rankedByFormula(q, now);
    const pair = [ids.get("whisperA"), ids.get("whisperB")];
    const at = ranked.findIndex((s) => pair.includes(s.key));
    const [a, b] = [ranked[at]!, ranked[at + 1]!];
    expect([a.key, b.key].sort()).toEqual(pair.sort());
    expect(a.score).toBe(b.score);
    expect(a.key < b.key).toBe(true); // equal scores: address ascending
    expect(a.factors.availability).toBe(1); // seen exactly 180 s ago
    const all = (await rankedByFormula({ tags: [], words: [] }, now)).ranked;
    const f = (name: string) => all.find((s) => s.key === ids.get(name))!.factors;
    expect(f("analyst").availability).toBe(0); // 181 s
    expect(f("star").reputation).toBe(1); // cold start boost capped
    expect(f("ja").reputation).toBeLessThan(0.6); // 5 missions: no longer cold start
    expect(f("legal").rating).toBe(0);
    expect(f("ja").rating).toBe(Math.round(((11 / 3 - 1) / 4) * 1e6) / 1e6);
  });
});
