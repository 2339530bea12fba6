import path from "node:path";
import { ROOT } from "./harness";

// `npm run bench`'s settings, read once from the environment (bench/README.md "Knobs (env)").

function intEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

const QUICK = process.env.BENCH_QUICK === "1" || process.env.BENCH_QUICK === "true";
export const cfg = {
  quick: QUICK,
  databaseUrl: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/oabp_bench",
  missions: intEnv("BENCH_MISSIONS", QUICK ? 2000 : 10_000),
  connections: intEnv("BENCH_CONNECTIONS", 50),
  duration: intEnv("BENCH_DURATION", QUICK ? 3 : 10),
  warmup: intEnv("BENCH_WARMUP", QUICK ? 1 : 3, 0),
  poolMax: intEnv("BENCH_POOL_MAX", 10),
  /** Number of distinct ids the GET /missions/{id} scenarios cycle through. */
  idSample: intEnv("BENCH_ID_SAMPLE", 1000),
  /** Directory for a V8 CPU profile of the real server (node --cpu-prof), written at shutdown. */
  cpuProfDir: process.env.BENCH_CPU_PROF || undefined,
  /** How long each child may take to answer /ready (a first start through tsx compiles every file). */
  readyMs: intEnv("BENCH_READY_SECONDS", 60) * 1000,
  /** Concurrent agents of the write scenario (bench/writes.ts). */
  writers: intEnv("BENCH_WRITERS", 10),
  /** Comma-separated scenario keys to run (the baseline always runs); unset = all. */
  only: process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((k) => k.trim())) : undefined,
};

/**
 * The checkout whose server is measured (its src/main.ts through tsx): this one, or another
 * commit's worktree (bench/ab.ts). The baseline, the load and the seed are always this checkout's.
 */
export const SERVER_DIR = path.resolve(process.env.BENCH_SERVER_DIR ?? ROOT);
