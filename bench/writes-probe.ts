import { readFileSync, rmSync, mkdtempSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createApp } from "../src/app";
import { openDatabase } from "../src/db/client";
import { rowsOf } from "../src/db/rows";
import { buildDeps } from "../src/deps.build";
import { parseEnv } from "../src/env";
import { startJobRunner } from "../src/jobs/runner";
import { randomToken, sha256Hex } from "../src/lib/hash";
import { recreateDatabase } from "./harness";
import { WRITE_SERVER_ENV } from "./writes-setup";

// CPU per write without the noise of a shared machine's other work (bench/README.md "Writes
// within a CPU budget"): the app in this process, one create → submit → award at a time through
// app.fetch, its CPU from process.cpuUsage and Postgres's from /proc of this database's own
// backends (bench/writes.ts sums every local postgres process, other sessions' work included).
// No HTTP server, no concurrency: an A/B of the write path itself.
//
//   npx tsx bench/writes-probe.ts            (BENCH_WRITES_PROBE_N rounds, 150 by default)
//   BENCH_WRITES_PROBE_IDLE=1 …              the idle job runner's CPU and transactions per second
//   BENCH_WRITES_PROBE_PROF=<file> …         a CPU profile of the measured rounds only (no start, no warm-up)
// BENCH_WRITES_PROBE_URL names the database (dropped and created; its name must contain "bench").

const url = process.env.BENCH_WRITES_PROBE_URL || "postgres://postgres@127.0.0.1:5432/oabp_bench_writes_probe";
const rounds = Number(process.env.BENCH_WRITES_PROBE_N ?? 150);
const WARM_ROUNDS = 60;
const IDLE_SECONDS = 15;

await recreateDatabase(url);
const db = await openDatabase({ url, poolMax: 2, migrate: true });
const dataDir = mkdtempSync(path.join(os.tmpdir(), "oabp-writes-probe-"));
const adminToken = `bench-admin-${randomToken().slice(0, 24)}`;
const deps = await buildDeps(
  parseEnv({
    DATABASE_URL: url,
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    OABP_ADMIN_TOKEN: adminToken,
    OABP_DATA_DIR: dataDir,
    ...WRITE_SERVER_ENV,
  }),
);
const app = createApp(deps);

async function call(method: string, p: string, token: string, body?: unknown) {
  const res = await app.fetch(
    new Request(`http://127.0.0.1${p}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "x-forwarded-for": "127.0.0.1" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function agent(role: string) {
  const address = `0x${sha256Hex(`${role}-${randomToken()}`).slice(0, 40)}`;
  const token = randomToken();
  await db.db.execute(
    sql`insert into auth_sessions (token_hash, agent_id, created_at, expires_at) values (${sha256Hex(token)}, ${address}, now(), now() + interval '1 day')`,
  );
  return { address, token };
}

/** CPU ms of this database's backends so far (their /proc stat; clock ticks of 10 ms). */
async function backendsCpuMs(): Promise<number> {
  const rows = rowsOf<{ pid: number }>(
    await db.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`),
  );
  let ms = 0;
  for (const { pid } of rows) {
    try {
      // utime and stime: fields 14 and 15, the 12th and 13th after the parenthesised name
      const f = (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").split(" ");
      ms += (Number(f[11] ?? 0) + Number(f[12] ?? 0)) * 10;
    } catch {
      // a backend that ended meanwhile
    }
  }
  return ms;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function idle() {
  const runner = startJobRunner(deps, 1000);
  await new Promise((r) => setTimeout(r, 3000));
  const commits = async () =>
    rowsOf<{ x: number }>(
      await db.db.execute(
        sql`select (xact_commit + xact_rollback)::int as x from pg_stat_database where datname = current_database()`,
      ),
    )[0]?.x ?? 0;
  const [x0, c0, t0] = [await commits(), cpuMs(), performance.now()];
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const secs = (performance.now() - t0) / 1000;
  const [x1, c1] = [await commits(), cpuMs()];
  await runner.stop();
  return `idle: app CPU ${((c1 - c0) / secs).toFixed(1)} ms/s, ${((x1 - x0) / secs).toFixed(1)} transactions/s`;
}

/** V8's profiler over the measured rounds, written to `file` on stop (a no-op without a file). */
async function profiler(file: string | undefined) {
  if (!file) return { stop: async () => {} };
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  return {
    stop: async () => {
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

async function writes() {
  const creator = await agent("creator");
  const solver = await agent("solver");
  await call("POST", "/admin/ledger/credit", adminToken, {
    agent_id: creator.address,
    asset: "USDC",
    amount: "1000000000000000",
  });
  const spent = { create: 0, submit: 0, award: 0 };
  const round = async (i: number, measured: boolean) => {
    const step = async <T>(k: keyof typeof spent, run: () => Promise<T>) => {
      const a = cpuMs();
      const out = await run();
      if (measured) spent[k] += cpuMs() - a;
      return out;
    };
    const m = await step("create", () =>
      call("POST", "/missions", creator.token, {
        title: `Probe ${i}`,
        description: "A mission created by the write probe.",
        reward: { asset: "USDC", amount: "10000000" },
        verification: { type: "creator_judges", params: {} },
        deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        tags: ["probe"],
      }),
    );
    const s = await step("submit", () =>
      call("POST", `/missions/${m.id as string}/submissions`, solver.token, { content: `answer ${i}` }),
    );
    await step("award", () =>
      call("POST", `/missions/${m.id as string}/award`, creator.token, {
        winners: [{ submission_id: s.submission_id }],
      }),
    );
  };
  for (let i = 0; i < WARM_ROUNDS; i++) await round(i, false);
  const profile = await profiler(process.env.BENCH_WRITES_PROBE_PROF);
  const pg0 = await backendsCpuMs();
  for (let i = 0; i < rounds; i++) await round(WARM_ROUNDS + i, true);
  const pg = (await backendsCpuMs()) - pg0;
  await profile.stop();
  const per = (ms: number) => (ms / rounds).toFixed(2);
  return `${rounds} rounds: app CPU per write: create ${per(spent.create)} ms, submit ${per(spent.submit)} ms, award ${per(spent.award)} ms; this database's backends ${per(pg)} ms per round`;
}

try {
  process.stdout.write(`${process.env.BENCH_WRITES_PROBE_IDLE === "1" ? await idle() : await writes()}\n`);
} finally {
  await deps.database.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
