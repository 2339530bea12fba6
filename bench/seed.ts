import { sql } from "drizzle-orm";
import type { Db } from "../src/db/client";
import { missions } from "../src/db/schema/index";
import { newId } from "../src/lib/ids";

// Synthetic but realistically shaped missions for the benchmark. Content is drawn from a fixed
// word list with a Zipf-like distribution (a few words are in almost every mission, most are
// rare) so that text search sees a spread of selectivities, like real text. Content is
// deterministic for a given N (seeded PRNG); ids are real time-ordered ids from src/lib/ids.

// Ordered from most to least frequent (rank 1 first).
export const WORDS = [
  "build",
  "agent",
  "data",
  "report",
  "api",
  "service",
  "test",
  "model",
  "review",
  "deploy",
  "python",
  "script",
  "contract",
  "dataset",
  "summary",
  "research",
  "bug",
  "fix",
  "feature",
  "docs",
  "translate",
  "image",
  "audit",
  "benchmark",
  "scraper",
  "pipeline",
  "dashboard",
  "chart",
  "index",
  "search",
  "prompt",
  "evaluation",
  "security",
  "library",
  "rust",
  "typescript",
  "server",
  "client",
  "mobile",
  "backend",
  "frontend",
  "design",
  "logo",
  "video",
  "audio",
  "transcript",
  "label",
  "classify",
  "extract",
  "invoice",
  "receipt",
  "ledger",
  "escrow",
  "token",
  "wallet",
  "bridge",
  "oracle",
  "price",
  "feed",
  "market",
  "analysis",
  "forecast",
  "weather",
  "climate",
  "energy",
  "solar",
  "grid",
  "sensor",
  "robot",
  "drone",
  "kubernetes",
  "docker",
  "terraform",
  "ansible",
  "postgres",
  "redis",
  "kafka",
  "graphql",
  "webhook",
  "queue",
  "migration",
  "schema",
  "optimize",
  "latency",
  "throughput",
  "profiling",
  "compiler",
  "parser",
  "grammar",
  "regex",
  "genome",
  "protein",
  "molecule",
  "chemistry",
  "physics",
  "astronomy",
  "telescope",
  "satellite",
  "orbit",
  "rocket",
  "poetry",
  "novel",
  "chapter",
  "essay",
  "history",
  "archive",
  "museum",
  "catalog",
  "inventory",
  "warehouse",
  "logistics",
  "shipping",
  "route",
  "navigation",
  "maps",
  "geocode",
  "census",
  "election",
  "survey",
  "statistics",
  "regression",
  "bayesian",
  "cluster",
  "anomaly",
  "fraud",
  "compliance",
  "license",
  "patent",
  "trademark",
  "contractor",
  "recipe",
  "nutrition",
  "fitness",
  "medical",
  "clinical",
  "radiology",
  "pharmacy",
  "insurance",
  "mortgage",
  "accounting",
  "spreadsheet",
  "macro",
  "plugin",
  "extension",
  "firmware",
  "embedded",
  "quantum",
  "lattice",
  "zeppelin",
  "xylophone",
] as const;

export const VERIFICATION_TYPES = ["creator_judges", "first_valid_match", "peer_vote", "oracle"] as const;

/** Query terms for the search scenario: a very common, a common, an uncommon word and a rare prefix. */
export const SEARCH_TERMS = [WORDS[1], WORDS[9], WORDS[39], WORDS[119].slice(0, 5)] as const;

/** mulberry32: tiny deterministic PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Zipf(s=1) sampler over WORDS via the cumulative distribution. */
function zipfSampler(rand: () => number): () => string {
  const weights = WORDS.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cdf: number[] = [];
  let acc = 0;
  for (const w of weights) {
    acc += w / total;
    cdf.push(acc);
  }
  return () => {
    const r = rand();
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return WORDS[lo]!;
  };
}

const hex = (rand: () => number, n: number) => {
  let s = "";
  for (let i = 0; i < n; i++) s += Math.floor(rand() * 16).toString(16);
  return s;
};

export interface SeedResult {
  count: number;
  /** Every seeded id, in creation order. */
  ids: string[];
  ms: number;
}

type MissionInsert = typeof missions.$inferInsert;

/**
 * Inserts `n` missions in multi-row INSERTs of `batchSize` rows (21 bound parameters per row,
 * well under the 65535 limit), then ANALYZEs the table.
 */
export async function seedMissions(
  db: Db,
  n: number,
  opts: { batchSize?: number; seed?: number } = {},
): Promise<SeedResult> {
  const started = performance.now();
  const batchSize = opts.batchSize ?? 1000;
  const rand = prng(opts.seed ?? 42);
  const word = zipfSampler(rand);
  const words = (min: number, max: number) => {
    const k = min + Math.floor(rand() * (max - min + 1));
    const out: string[] = [];
    for (let i = 0; i < k; i++) out.push(word());
    return out;
  };
  const creators = Array.from({ length: Math.max(10, Math.floor(n / 20)) }, () => `0x${hex(rand, 40)}`);
  const now = Date.now();
  // One mission per minute, ending a minute ago: created_at ascends with the (time-ordered) id.
  const firstMs = now - (n + 1) * 60_000;
  const ids: string[] = [];

  for (let start = 0; start < n; start += batchSize) {
    const rows: MissionInsert[] = [];
    for (let i = start; i < Math.min(n, start + batchSize); i++) {
      const createdMs = firstMs + i * 60_000;
      const id = newId("mis", createdMs);
      ids.push(id);
      const r = rand();
      const status = r < 0.88 ? "open" : r < 0.95 ? "resolved" : "voided";
      const title = words(3, 7).join(" ");
      const description = `${words(12, 40).join(" ")}.`;
      const createdAt = new Date(createdMs);
      const resolved = status === "resolved";
      rows.push({
        id,
        creator: creators[Math.floor(rand() * creators.length)]!,
        title: title.charAt(0).toUpperCase() + title.slice(1),
        description: description.charAt(0).toUpperCase() + description.slice(1),
        rewardAsset: "USDC",
        rewardAmount: String((1 + Math.floor(rand() * 500)) * 1_000_000),
        rewardChain: "ledger",
        spamFee: "5000000",
        verificationType: VERIFICATION_TYPES[Math.floor(rand() * VERIFICATION_TYPES.length)]!,
        verificationParams: {},
        deadline: new Date(now + (7 + Math.floor(rand() * 60)) * 86_400_000),
        status,
        phase: status === "open" ? "accepting_submissions" : "closed",
        payoutStatus: "not_applicable",
        tags: words(0, 3).filter((w, j, a) => a.indexOf(w) === j),
        warnings: [],
        submissionCount: resolved ? 1 + Math.floor(rand() * 5) : 0,
        winnerSubmissionId: resolved ? newId("sub", createdMs + 1000) : null,
        winnerAgentId: resolved ? creators[Math.floor(rand() * creators.length)]! : null,
        createdAt,
        updatedAt: resolved || status === "voided" ? new Date(createdMs + 30_000) : createdAt,
      });
    }
    await db.insert(missions).values(rows);
  }
  await db.execute(sql`analyze missions`);
  return { count: n, ids, ms: performance.now() - started };
}

/** How many open missions each search term matches (prefix tsquery, as the server builds it). */
export async function searchSelectivity(db: Db, terms: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of terms) {
    const rows = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from missions where status = 'open' and search @@ to_tsquery('simple', ${`${t}:*`})`,
    );
    out[t] = Number((rows as unknown as { n: number }[])[0]?.n ?? 0);
  }
  return out;
}
