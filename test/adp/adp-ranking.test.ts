import { describe, expect, it } from "vitest";
import {
  availabilityFactor,
  type Candidate,
  COLD_START_BOOST,
  isOverloaded,
  rank,
  ratingFactor,
  reputationFactor,
  scoreCandidate,
  tagFactor,
  textFactor,
  WEIGHTS,
} from "../../src/features/adp/adp.ranking";
import { ancestorPaths, normalizeTag, queryTags, rawFormsOf, skillPaths } from "../../src/features/adp/adp.tags";
import { cardWords, words } from "../../src/features/adp/adp.words";

// ADP §5 baseline, each factor computed by hand (draft-song-anp-adp-00 §3.6.1, §5).

const tags = (...t: string[]) => queryTags(t);

describe("tag factor: ADP §3.6.1 matching rules", () => {
  it("exact: nlp/translation matches only nlp/translation", () => {
    expect(tagFactor(tags("nlp/translation"), ["nlp/translation"])).toEqual({
      score: 1,
      matched: ["nlp/translation"],
      matches: [{ query: "nlp/translation", rule: "exact" }],
    });
    // a general skill does not answer a specific query, nor does a sibling
    expect(tagFactor(tags("nlp/translation"), ["nlp", "nlp/summarization"]).score).toBe(0);
  });

  it("prefix: nlp/* matches any skill whose path starts with nlp (and nlp itself), never nlpx", () => {
    expect(tagFactor(tags("nlp/*"), ["nlp/text-analysis/sentiment"])).toEqual({
      score: 1,
      matched: ["nlp/text-analysis/sentiment"],
      matches: [{ query: "nlp/*", rule: "prefix" }],
    });
    expect(tagFactor(tags("nlp/*"), ["nlp"]).matches).toEqual([{ query: "nlp/*", rule: "prefix" }]);
    expect(tagFactor(tags("nlp/*"), ["nlpx/tool", "vision/ocr"]).score).toBe(0);
    // a deeper prefix
    expect(tagFactor(tags("nlp/generation/*"), ["nlp/generation/summarization"]).score).toBe(1);
    expect(tagFactor(tags("nlp/generation/*"), ["nlp/translation"]).score).toBe(0);
  });

  it("parent: a skill nlp/translation answers a query for nlp", () => {
    expect(tagFactor(tags("nlp"), ["nlp/translation"])).toEqual({
      score: 1,
      matched: ["nlp/translation"],
      matches: [{ query: "nlp", rule: "parent" }],
    });
    expect(tagFactor(tags("coding"), ["coding/debugging/rust"]).matches[0]!.rule).toBe("parent");
  });

  it("exact wins over parent when both skills are declared", () => {
    expect(tagFactor(tags("nlp"), ["nlp/translation", "nlp"]).matches).toEqual([{ query: "nlp", rule: "exact" }]);
  });

  it("aliases apply to both sides: segment aliases, whole-tag placement, case, spaces and underscores", () => {
    expect(tagFactor(tags("py"), ["python"]).matches).toEqual([{ query: "python", rule: "exact" }]);
    expect(tagFactor(tags("python"), ["Py"]).score).toBe(1);
    expect(tagFactor(tags("coding/py"), ["Coding/Python3"]).matches).toEqual([
      { query: "coding/python", rule: "exact" },
    ]);
    expect(tagFactor(tags("ML/vision"), ["machine learning/vision"]).score).toBe(1);
    // "translation" is placed under nlp: it answers nlp/* and nlp, and equals nlp/translation
    expect(tagFactor(tags("translation"), ["nlp/translation"]).matches).toEqual([
      { query: "nlp/translation", rule: "exact" },
    ]);
    expect(tagFactor(tags("nlp/*"), ["translate"]).matches).toEqual([{ query: "nlp/*", rule: "prefix" }]);
    expect(tagFactor(tags("nlp"), ["translation"]).matches).toEqual([{ query: "nlp", rule: "parent" }]);
    expect(tagFactor(tags("web_search"), ["retrieval/web-search"]).score).toBe(1);
  });

  it("the score is matched query tags / query tags; matched_tags are the agent's skills as written", () => {
    const r = tagFactor(tags("nlp/translation", "vision/*", "py", "ops"), [
      "nlp/translation/zh",
      "python",
      "vision-free",
    ]);
    // nlp/translation (parent) and python (exact, by alias) of 4 → 2/4
    expect(r.score).toBe(0.5);
    expect(r.matched).toEqual(["nlp/translation/zh", "python"]);
    expect(r.matches).toEqual([
      { query: "nlp/translation", rule: "parent" },
      { query: "python", rule: "exact" },
    ]);
    // duplicates by path count once ("nlp" and "nlp/*" select the same skills)
    expect(tagFactor(tags("nlp", "nlp/*", "NLP"), ["nlp/translation"]).score).toBe(1);
    expect(tagFactor([], ["nlp"]).score).toBe(0);
  });

  it("normalisation and the stored skill paths (the SQL prefilter)", () => {
    expect(normalizeTag(" NLP//Translation/* ")).toEqual({ path: "nlp/translation", prefix: true });
    expect(normalizeTag("/*")).toEqual({ path: "", prefix: true });
    expect(ancestorPaths("a/b/c")).toEqual(["a", "a/b", "a/b/c"]);
    expect(skillPaths(["nlp/translation/zh", "py", "translate"]).sort()).toEqual(
      ["nlp", "nlp/translation", "nlp/translation/zh", "python"].sort(),
    );
    // A query tag matches a skill set exactly when its path is among the set's paths.
    for (const [q, skills, hit] of [
      ["nlp", ["nlp/translation"], true],
      ["nlp/*", ["nlp"], true],
      ["nlp/translation", ["nlp"], false],
    ] as const) {
      const [t] = tags(q);
      expect(skillPaths(skills).includes(t!.path), q).toBe(hit);
      expect(tagFactor([t!], skills).score === 1, q).toBe(hit);
    }
    // mission tags are flat and stored as written: the forms that normalise to a path
    expect(rawFormsOf(["python", "nlp", "nlp/translation", "retrieval/web-search"]).sort()).toEqual(
      ["nlp", "py", "python", "python3", "translate", "translation", "web-search", "web_search"].sort(),
    );
  });
});

describe("text factor: word overlap |Q ∩ A| / min(|Q|, |A|)", () => {
  it("is computed over distinct words, stopwords and 1-letter words dropped", () => {
    const q = words("Translate the Chinese legal documents", 64);
    expect(q).toEqual(["translate", "chinese", "legal", "documents"]);
    const a = cardWords({ name: "Chinese-English translation", description: "of legal contracts", skills: [] });
    expect(a).toEqual(["chinese", "english", "translation", "legal", "contracts"]);
    // common: chinese, legal → 2 / min(4, 5)
    expect(textFactor(q, a)).toBe(0.5);
  });

  it("skill labels count as words; an empty side scores 0", () => {
    expect(cardWords({ name: "bot", skills: ["nlp/text-analysis"] })).toEqual(["bot", "nlp", "text", "analysis"]);
    // query 2 words, agent 1 word, 1 common → 1 / min(2, 1) = 1
    expect(textFactor(["text", "sentiment"], ["text"])).toBe(1);
    expect(textFactor([], ["text"])).toBe(0);
    expect(textFactor(["text"], [])).toBe(0);
  });
});

describe("reputation factor: ELO expected score against a 1400 agent, cold-start boost", () => {
  it("1 / (1 + 10^((1400 − rating) / 400)) once 5 missions are completed", () => {
    expect(reputationFactor(1400, 5)).toBe(0.5);
    expect(reputationFactor(1800, 12)).toBeCloseTo(1 / 1.1, 12); // 10^-1
    expect(reputationFactor(1000, 7)).toBeCloseTo(1 / 11, 12); // 10^1
  });

  it("under 5 completed missions adds 0.10, capped at 1", () => {
    expect(COLD_START_BOOST).toBe(0.1);
    expect(reputationFactor(1400, 0)).toBeCloseTo(0.6, 12);
    expect(reputationFactor(1400, 4)).toBeCloseTo(0.6, 12);
    expect(reputationFactor(1800, 4)).toBe(1); // 0.909… + 0.1 → 1
  });
});

describe("availability factor and overload", () => {
  it("1 when online and below max_concurrent_tasks, else 0; overloaded at or over the limit", () => {
    expect(availabilityFactor({ online: true, activeTasks: 0, maxConcurrentTasks: null })).toBe(1);
    expect(availabilityFactor({ online: false, activeTasks: 0, maxConcurrentTasks: null })).toBe(0);
    expect(availabilityFactor({ online: true, activeTasks: 2, maxConcurrentTasks: 3 })).toBe(1);
    expect(availabilityFactor({ online: true, activeTasks: 3, maxConcurrentTasks: 3 })).toBe(0);
    expect(isOverloaded(3, 3)).toBe(true);
    expect(isOverloaded(0, 0)).toBe(true); // an agent that takes no task at all
    expect(isOverloaded(100, null)).toBe(false);
  });
});

describe("rating factor: mean stars 1..5 → 0..1", () => {
  it("(average − 1) / 4; 0 without reviews", () => {
    expect(ratingFactor(2, 4.5)).toBe(0.875);
    expect(ratingFactor(1, 1)).toBe(0);
    expect(ratingFactor(3, 5)).toBe(1);
    expect(ratingFactor(0, null)).toBe(0);
  });
});

const base: Candidate = {
  key: "0x00000000000000000000000000000000000000aa",
  skills: ["nlp/translation/zh", "python"],
  words: cardWords({
    name: "Chinese-English translation",
    description: "of legal contracts",
    skills: ["nlp/translation/zh", "python"],
  }),
  rating: 1400,
  missionsCompleted: 0,
  online: true,
  activeTasks: 0,
  maxConcurrentTasks: null,
  reviewCount: 2,
  reviewAverage: 4.5,
};

describe("composite score", () => {
  it("0.30·tags + 0.25·text + 0.20·reputation + 0.15·availability + 0.10·rating", () => {
    expect(WEIGHTS).toEqual({ tags: 0.3, text: 0.25, reputation: 0.2, availability: 0.15, rating: 0.1 });
    const q = { tags: tags("nlp/translation", "ops"), words: words("translate chinese legal documents", 64) };
    // tags 1/2; text: {chinese, legal} of min(4, |A|) → 0.5; reputation 0.5 + 0.1 (cold start);
    // online → 1; rating (4.5 − 1) / 4 = 0.875
    const s = scoreCandidate(q, base);
    expect(s.factors).toEqual({ tags: 0.5, text: 0.5, reputation: 0.6, availability: 1, rating: 0.875 });
    expect(s.score).toBe(0.6325); // 0.15 + 0.125 + 0.12 + 0.15 + 0.0875
    expect(s.cold_start).toBe(true);
    expect(s.matched_tags).toEqual(["nlp/translation/zh"]);

    const veteranOffline = scoreCandidate(q, {
      ...base,
      missionsCompleted: 9,
      online: false,
      reviewCount: 0,
      reviewAverage: null,
    });
    expect(veteranOffline.factors).toEqual({ tags: 0.5, text: 0.5, reputation: 0.5, availability: 0, rating: 0 });
    expect(veteranOffline.score).toBe(0.375); // 0.15 + 0.125 + 0.1
  });

  it("rank: overloaded agents excluded, min_score applied, equal scores ordered by key (stable ties)", () => {
    const q = { tags: tags("python"), words: [] };
    const a = { ...base, key: "0x00000000000000000000000000000000000000aa" };
    const b = { ...base, key: "0x00000000000000000000000000000000000000bb" };
    const c = { ...base, key: "0x00000000000000000000000000000000000000cc", maxConcurrentTasks: 1, activeTasks: 1 };
    const weak = {
      ...base,
      key: "0x00000000000000000000000000000000000000dd",
      skills: [],
      words: [],
      online: false,
      reviewCount: 0,
      missionsCompleted: 9,
      rating: 1000,
    };
    const opts = { limit: 10, minScore: 0.1, excludeOverloaded: true, ties: "asc" as const };
    // b and a score the same: a first whatever the input order; c overloaded; weak = 0.2·(1/11) < 0.1
    expect(rank([b, c, weak, a], { ...opts, query: q }).map((s) => s.key)).toEqual([a.key, b.key]);
    expect(rank([a, b], { ...opts, query: q, ties: "desc" }).map((s) => s.key)).toEqual([b.key, a.key]);
    expect(
      rank([b, c, weak, a], { ...opts, query: q, minScore: 0, excludeOverloaded: false }).map((s) => s.key),
    ).toEqual([a.key, b.key, c.key, weak.key]);
    expect(rank([b, a], { ...opts, query: q, limit: 1 }).map((s) => s.key)).toEqual([a.key]);
    const overloaded = scoreCandidate(q, c);
    expect(overloaded.overloaded).toBe(true);
    expect(overloaded.factors.availability).toBe(0);
  });
});
