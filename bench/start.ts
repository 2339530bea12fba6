import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEscrowChain, type EscrowChain } from "../test/helpers/escrow-chain";
import { freshPostgresDatabase } from "../test/helpers/process";

// `npm run bench:start` (bench/README.md "Start time"): from the build, `npm start` (and `npm run
// worker`) to a healthy GET /health, N times; prints the wall time and the CPU time the process
// tree spent until then (user + system of npm and the server, from /proc, at the first 200),
// medians and every run. The CPU time is the figure to compare on a shared machine.
//
//   npx tsx bench/start.ts [--runs 5] [--worker] [--postgres] [--source] [--cpu-prof DIR]
//
// The database is set up by a first, unmeasured start (migrations, keys), as an operator's
// restart finds it. --postgres: a fresh database of its own on the server DATABASE_URL names
// (default postgres://postgres@127.0.0.1:5432/postgres), dropped at the end; else the embedded PGlite.

const ROOT = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const RUNS = Number(opt("--runs") ?? 5);
const WORKER = args.includes("--worker");
const POSTGRES = args.includes("--postgres");
const CPU_PROF = opt("--cpu-prof");
/** The sources through tsx (`npm run dev`, and what `npm start` ran before the build). */
const SOURCE = args.includes("--source");
const TICK_S = 1 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** User + system seconds of every live process in the process group (npm, node under it). */
function groupCpu(pgid: number): number {
  return group(pgid).reduce((a, b) => a + b, 0) * TICK_S;
}

/** CPU ticks of each live process of the group. */
function group(pgid: number): number[] {
  const out: number[] = [];
  for (const p of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${p}/stat`, "utf8");
    } catch {
      continue;
    }
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from 3 (state) on
    if (Number(f[2]) !== pgid) continue; // field 5: pgrp
    if (f[0] !== "Z") out.push(Number(f[11]) + Number(f[12])); // fields 14, 15: utime, stime
  }
  return out;
}

interface Run {
  wallS: number;
  cpuS: number;
}

async function once(env: Record<string, string>, port: number): Promise<Run> {
  const script = WORKER ? "worker" : "start";
  // --cpu-prof is refused in NODE_OPTIONS: profiled, the server runs as package.json's script
  // does, without npm in front.
  const [cmd, argv] = CPU_PROF
    ? [
        process.execPath,
        [
          "--enable-source-maps",
          "--cpu-prof",
          `--cpu-prof-dir=${CPU_PROF}`,
          "scripts/start.mjs",
          WORKER ? "worker" : "main",
        ],
      ]
    : SOURCE
      ? ["npx", ["tsx", WORKER ? "src/worker.ts" : "src/main.ts"]]
      : ["npm", ["run", "--silent", script]];
  const t0 = performance.now();
  const child = spawn(cmd, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true, // its own process group: measured and stopped together
  });
  const exited = new Promise((r) => child.on("exit", r));
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`${script} exited (${child.exitCode}) before it was healthy`);
    await sleep(5);
  }
  const run = { wallS: (performance.now() - t0) / 1000, cpuS: groupCpu(child.pid!) };
  process.kill(-child.pid!, "SIGTERM");
  await exited;
  // npm exits at once; the server under it drains first and must free the port.
  while (group(child.pid!).length > 0) await sleep(20);
  return run;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  execFileSync(process.execPath, [path.join(ROOT, "scripts/build.mjs"), "--if-stale"], { stdio: "inherit" });
  const dataDir = mkdtempSync(path.join(tmpdir(), "oabp-bench-start-"));
  let chain: EscrowChain | undefined;
  process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
  const db = POSTGRES ? await freshPostgresDatabase("oabp_bench_start") : undefined;
  try {
    const port = await freePort();
    const env: Record<string, string> = {
      HOST: "127.0.0.1",
      OABP_DATA_DIR: dataDir,
      DATABASE_URL: db?.url ?? "",
      LOG_LEVEL: "warn",
    };
    if (WORKER) {
      chain = await startEscrowChain();
      Object.assign(env, chain.env(), { OABP_WORKER_PORT: String(port) });
    } else env.PORT = String(port);
    await once(env, port); // migrations, keys: not a restart
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once(env, port));
    const what = `${SOURCE ? "tsx (sources)" : WORKER ? "npm run worker" : "npm start"} (${POSTGRES ? "PostgreSQL" : "PGlite"})`;
    console.log(
      `${what} → healthy /health, median of ${RUNS}: ${median(runs.map((r) => r.wallS)).toFixed(2)} s wall, ` +
        `${median(runs.map((r) => r.cpuS)).toFixed(2)} s CPU`,
    );
    console.log(`  runs (wall / CPU s): ${runs.map((r) => `${r.wallS.toFixed(2)}/${r.cpuS.toFixed(2)}`).join("  ")}`);
  } finally {
    await chain?.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
