import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Ratios } from "./regress";

// `npm run bench:ab -- <commit A> <commit B> [--rounds 3] [--share-node-modules]` (bench/README.md "A/B"): the same
// bench (this checkout's bench/run.ts, seed, baseline and load) against the server of each commit,
// run alternately on one machine — A B, B A, A B … — so drift in the machine's load falls on both.
// Each commit is a git worktree (removed at the end) sharing this checkout's node_modules when
// the lockfiles agree. Prints each ratio's median per commit, B/A, and the noise: the largest
// spread of one commit's runs. Extra env (BENCH_ONLY, BENCH_QUICK, …) passes through to run.ts.

const ROOT = path.resolve(import.meta.dirname, "..");

export interface AbRow {
  key: string;
  a: number;
  b: number;
  /** b / a. */
  ratio: number;
  /** Half the larger relative spread (max − min) / median of either side's runs. */
  noise: number;
  verdict: "B faster" | "B slower" | "same within noise";
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const spread = (xs: number[]) => (xs.length < 2 ? 0 : (Math.max(...xs) - Math.min(...xs)) / median(xs) / 2);

/** Per ratio present in every run of both sides: medians, B/A and a verdict against the noise. */
export function abSummary(aRuns: Ratios[], bRuns: Ratios[]): AbRow[] {
  const keys = Object.keys(aRuns[0] ?? {}).filter((k) => [...aRuns, ...bRuns].every((r) => Number.isFinite(r[k])));
  return keys.map((key) => {
    const av = aRuns.map((r) => r[key]!);
    const bv = bRuns.map((r) => r[key]!);
    const [a, b] = [median(av), median(bv)];
    const noise = Math.max(spread(av), spread(bv));
    const ratio = b / a;
    const verdict = ratio - 1 > noise ? "B faster" : 1 - ratio > noise ? "B slower" : "same within noise";
    return { key, a, b, ratio, noise, verdict };
  });
}

/** The `bench-json:` line of a run's output. */
export function parseRun(stdout: string): Ratios {
  const line = stdout.split("\n").find((l) => l.startsWith("bench-json: "));
  if (!line) throw new Error("the run printed no bench-json line");
  return JSON.parse(line.slice("bench-json: ".length)) as Ratios;
}

function worktree(dir: string, commit: string, share: boolean): string {
  const at = path.join(dir, commit.replace(/[^0-9A-Za-z._-]/g, "_"));
  execFileSync("git", ["worktree", "add", "--detach", at, commit], { cwd: ROOT, stdio: "ignore" });
  const sameLock =
    readFileSync(path.join(at, "package-lock.json"), "utf8") ===
    readFileSync(path.join(ROOT, "package-lock.json"), "utf8");
  if (sameLock || share) symlinkSync(path.join(ROOT, "node_modules"), path.join(at, "node_modules"), "dir");
  else execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: at, stdio: "inherit" });
  return at;
}

function runOnce(serverDir: string): Ratios {
  const r = spawnSync(process.execPath, ["--import", "tsx", "bench/run.ts"], {
    cwd: ROOT,
    env: { ...process.env, BENCH_SERVER_DIR: serverDir, BENCH_SAVE: "" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0 && !r.stdout.includes("bench-json: ")) throw new Error(`bench/run.ts exited ${r.status}`);
  return parseRun(r.stdout);
}

async function main() {
  const args = process.argv.slice(2);
  const rounds = Number(args.includes("--rounds") ? args[args.indexOf("--rounds") + 1] : 3);
  const [a, b] = args.filter((x, i) => !x.startsWith("--") && args[i - 1] !== "--rounds");
  if (!a || !b) throw new Error("usage: bench/ab.ts <commit A> <commit B> [--rounds N]");
  const dir = mkdtempSync(path.join(tmpdir(), "oabp-ab-"));
  const trees: string[] = [];
  try {
    // --share-node-modules: this checkout's packages even where the lockfiles differ (when only
    // tooling changed between the commits; saves an install per commit on a shared machine).
    const share = args.includes("--share-node-modules");
    const [ta, tb] = [worktree(dir, a, share), worktree(dir, b, share)];
    trees.push(ta, tb);
    const runs: { a: Ratios[]; b: Ratios[] } = { a: [], b: [] };
    for (let i = 0; i < rounds; i++) {
      const order: ("a" | "b")[] = i % 2 === 0 ? ["a", "b"] : ["b", "a"];
      for (const side of order) {
        process.stderr.write(`ab: round ${i + 1}/${rounds}, ${side === "a" ? a : b}\n`);
        runs[side].push(runOnce(side === "a" ? ta : tb));
      }
    }
    console.log(`\nA/B: A = ${a}, B = ${b}, ${rounds} alternating rounds; ratios against each run's own floor`);
    console.log("ratio                 A       B     B/A   noise  verdict");
    for (const r of abSummary(runs.a, runs.b))
      console.log(
        `${r.key.padEnd(20)} ${r.a.toFixed(3).padStart(6)}  ${r.b.toFixed(3).padStart(6)}  ${r.ratio.toFixed(2).padStart(5)}  ±${(r.noise * 100).toFixed(0).padStart(2)} %  ${r.verdict}`,
      );
  } finally {
    for (const t of trees)
      if (existsSync(t)) execFileSync("git", ["worktree", "remove", "--force", t], { cwd: ROOT, stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
