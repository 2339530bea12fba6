import { pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import { openDatabase, type Database } from "../src/db/client";
import { verifyLedger } from "../src/features/ledger";
import { randomToken, sha256Hex } from "../src/lib/hash";
import {
  freePort,
  log,
  postgresCpuMs,
  processCpuMs,
  recreateDatabase,
  rowsOf,
  startChild,
  stopAll,
  waitReady,
  withTimeout,
} from "./harness";
import { call, insertSession, missionBody, startWriteServer } from "./writes-setup";
import { writeLines, writeRatios } from "./writes-report";

// The value-moving writes against their floor (bench/README.md "Writes"): W concurrent
// creator/solver pairs create missions, submit to them and award them, each step timed as its
// own phase, and the same W writers POST a mission-sized body to the baseline's bare INSERT
// (bench/baseline.ts /write: one INSERT committed on its own) in the same run. Afterwards the
// ledger must verify and every acknowledged write must be in the database exactly once.
//
// Used by `npm run bench` (bench/run.ts) and on its own: `npx tsx bench/writes.ts`
// (BENCH_WRITES_DATABASE_URL, BENCH_WRITERS, BENCH_DURATION, BENCH_CPU_PROF; BENCH_WRITES_STATEMENTS=1
// also counts the statements each write sends, from the server's statement log). The server and
// the shared helpers are in bench/writes-setup.ts, the printed figures in bench/writes-report.ts.

export interface WriteStep {
  perSec: number;
  p50: number;
  p99: number;
  n: number;
  /** CPU per write (ms): the serving process's, and every local postgres process's; undefined where unreadable. */
  cpu?: { app: number; db: number } | undefined;
}
export interface WriteFigures {
  writers: number;
  bare: WriteStep;
  create: WriteStep;
  submit: WriteStep;
  award: WriteStep;
  /** "ledger verifies (N entries); rows: …" or the first problem found. */
  check: string;
  ok: boolean;
}

/** `writers` loops for `seconds`; each iteration is one timed step (false ends that writer). */
async function phase(
  writers: number,
  seconds: number,
  step: (w: number, i: number) => Promise<boolean>,
  pid?: number,
): Promise<WriteStep> {
  const lat: number[] = [];
  const cpu0 = { app: processCpuMs(pid), db: postgresCpuMs() };
  const t0 = performance.now();
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; Date.now() < until; i++) {
        const t = performance.now();
        if (!(await step(w, i))) break;
        lat.push(performance.now() - t);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  const sorted = lat.sort((x, y) => x - y);
  const [app1, db1] = [processCpuMs(pid), postgresCpuMs()];
  const per = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b !== undefined && lat.length > 0 ? (b - a) / lat.length : undefined;
  const [app, db] = [per(cpu0.app, app1), per(cpu0.db, db1)];
  return {
    cpu: app !== undefined && db !== undefined ? { app, db } : undefined,
    perSec: lat.length / secs,
    p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
    p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
    n: lat.length,
  };
}

/**
 * Runs the write scenario against a server (`base`, its admin token) on `db`, after the bare
 * INSERT floor on the baseline. Sessions are inserted directly (sign-in is not what is measured);
 * each creator is credited through the admin API.
 */
export async function runWrites(o: {
  db: Database;
  base: string;
  baselineBase: string;
  adminToken: string;
  writers: number;
  seconds: number;
  /** The server's and the baseline's process ids, for CPU per write (optional). */
  pids?: { server?: number | undefined; baseline?: number | undefined };
}): Promise<WriteFigures> {
  const tag = `w${randomToken().slice(0, 8).toLowerCase()}`;
  const pairs: { creator: { address: string; token: string }; solver: { address: string; token: string } }[] = [];
  for (let w = 0; w < o.writers; w++) {
    const mk = async (role: string) => {
      const address = `0x${sha256Hex(`${role}-${w}-${tag}`).slice(0, 40)}`;
      return { address, token: await insertSession(o.db, address) };
    };
    const creator = await mk("creator");
    await call(o.base, "POST", "/admin/ledger/credit", o.adminToken, {
      agent_id: creator.address,
      asset: "USDC",
      amount: "1000000000000000",
    });
    pairs.push({ creator, solver: await mk("solver") });
  }
  // A short unmeasured warm-up of every route (JIT, prepared statements), then the floor.
  for (const p of pairs.slice(0, 2)) {
    const m = await call(o.base, "POST", "/missions", p.creator.token, missionBody(`${tag}warm`, 0, 0));
    const s = await call(o.base, "POST", `/missions/${m.id as string}/submissions`, p.solver.token, { content: "x" });
    await call(o.base, "POST", `/missions/${m.id as string}/award`, p.creator.token, {
      winners: [{ submission_id: s.submission_id }],
    });
  }
  let bareIds = 0;
  const bare = await phase(
    o.writers,
    o.seconds,
    async (w, i) => {
      await call(o.baselineBase, "POST", "/write", undefined, missionBody(tag, w, i));
      bareIds++;
      return true;
    },
    o.pids?.baseline,
  );
  log(`writes: bare INSERT ${bare.perSec.toFixed(0)}/s (n=${bare.n})`);
  // Three phases, each timed on its own (the steps of one closed loop would all show the loop's
  // rate): throughput = completed steps / the phase's wall time.
  const created: string[][] = pairs.map(() => []);
  const submitted: { mission: string; submission: string }[][] = pairs.map(() => []);
  const create = await phase(
    o.writers,
    o.seconds,
    async (w, i) => {
      const m = await call(o.base, "POST", "/missions", pairs[w]!.creator.token, missionBody(tag, w, i));
      created[w]!.push(m.id as string);
      return true;
    },
    o.pids?.server,
  );
  log(`writes: create ${create.perSec.toFixed(0)}/s (n=${create.n})`);
  const submit = await phase(
    o.writers,
    o.seconds,
    async (w, i) => {
      const mission = created[w]![i];
      if (!mission) return false;
      const s = await call(o.base, "POST", `/missions/${mission}/submissions`, pairs[w]!.solver.token, {
        content: `answer ${w}-${i}`,
      });
      submitted[w]!.push({ mission, submission: s.submission_id as string });
      return true;
    },
    o.pids?.server,
  );
  log(`writes: submit ${submit.perSec.toFixed(0)}/s (n=${submit.n})`);
  const award = await phase(
    o.writers,
    o.seconds,
    async (w, i) => {
      const s = submitted[w]![i];
      if (!s) return false;
      await call(o.base, "POST", `/missions/${s.mission}/award`, pairs[w]!.creator.token, {
        winners: [{ submission_id: s.submission }],
      });
      return true;
    },
    o.pids?.server,
  );
  log(`writes: award ${award.perSec.toFixed(0)}/s (n=${award.n})`);

  // No lost or duplicated writes: every acknowledged one is there once, and nothing else.
  const [c] = rowsOf<{ missions: number; distinct_missions: number; subs: number; resolved: number; bare: number }>(
    await o.db.db.execute(sql`
      select
        (select count(*)::int from missions where ${tag} = any(tags)) as missions,
        (select count(distinct title)::int from missions where ${tag} = any(tags)) as distinct_missions,
        (select count(*)::int from submissions s join missions m on m.id = s.mission_id where ${tag} = any(m.tags)) as subs,
        (select count(*)::int from missions where ${tag} = any(tags) and award is not null) as resolved,
        (select count(*)::int from bench_writes where body->'tags' ? ${tag}) as bare`),
  );
  const ledger = await verifyLedger(o.db.db);
  const want = { missions: create.n, subs: submit.n, resolved: award.n, bare: bareIds };
  const got = { missions: c!.missions, subs: c!.subs, resolved: c!.resolved, bare: c!.bare };
  const problems: string[] = [];
  for (const k of Object.keys(want) as (keyof typeof want)[])
    if (want[k] !== got[k]) problems.push(`${k}: ${got[k]} rows for ${want[k]} acknowledged writes`);
  if (c!.distinct_missions !== c!.missions) problems.push(`missions: ${c!.missions - c!.distinct_missions} duplicated`);
  if (!ledger.ok) problems.push(`ledger: ${JSON.stringify(ledger.problems.slice(0, 3))}`);
  const check = problems.length
    ? `FAIL ${problems.join("; ")}`
    : `ledger verifies (${ledger.entries} entries); rows match the acknowledged writes (missions ${got.missions}, submissions ${got.subs}, resolved ${got.resolved}, bare INSERTs ${got.bare})`;
  return { writers: o.writers, bare, create, submit, award, check, ok: problems.length === 0 };
}

// ---------------------------------------------------------------------------------------------
// Standalone: `npx tsx bench/writes.ts`

async function standalone(): Promise<number> {
  const url = process.env.BENCH_WRITES_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/oabp_bench_writes";
  const writers = Number(process.env.BENCH_WRITERS ?? 10);
  const seconds = Number(process.env.BENCH_DURATION ?? 5);
  const poolMax = Number(process.env.BENCH_POOL_MAX ?? 10);
  await recreateDatabase(url);
  const db = await withTimeout(openDatabase({ url, poolMax: 2, migrate: true }), 60_000, "migrations");
  const counting = process.env.BENCH_WRITES_STATEMENTS === "1";
  // Experiment only (bench/README.md "Writes"): without the statement-level NOTIFY on missions,
  // whose commit-time lock serialises every mission-changing commit, fsync included. The server
  // then misses list-cache invalidations: a measurement, never a configuration.
  if (process.env.BENCH_WRITES_DROP_NOTIFY === "1")
    await db.db.execute(sql`drop trigger if exists missions_changed_notify on missions`);
  const name = new URL(url).pathname.slice(1);
  // The server's sessions take log_statement from the database at connect time.
  if (counting) await db.db.execute(sql.raw(`alter database ${name} set log_statement = 'all'`));
  // Counting: no background jobs, so the log holds the requests' statements only.
  const server = await startWriteServer(
    url,
    poolMax,
    process.env.BENCH_CPU_PROF || undefined,
    counting ? { OABP_JOB_INTERVAL_MS: "0" } : {},
  );
  const bport = await freePort();
  const baseline = startChild("baseline", ["--import", "tsx", "bench/baseline.ts"], {
    PORT: String(bport),
    HOST: "127.0.0.1",
    DATABASE_URL: url,
    DATABASE_POOL_MAX: String(poolMax),
    NODE_ENV: "production",
  });
  const baselineBase = `http://127.0.0.1:${bport}`;
  try {
    await waitReady(baseline, `${baselineBase}/ready`, 60_000);
    if (counting) {
      await countStatements(db, name, server);
      await db.db.execute(sql.raw(`alter database ${name} reset log_statement`));
      await db.close();
      return 0;
    }
    const f = await runWrites({
      db,
      base: server.base,
      baselineBase,
      adminToken: server.adminToken,
      writers,
      seconds,
      pids: { server: server.child.proc.pid, baseline: baseline.proc.pid },
    });
    await db.close();
    await stopAll();
    process.stdout.write(
      `${[`date: ${new Date().toISOString()}`, ...writeLines(f), `bench-writes: ${writeRatios(f)}`].join("\n")}\n`,
    );
    return f.ok ? 0 : 1;
  } finally {
    await stopAll();
    server.cleanup();
  }
}

/**
 * Statements per write, from the server's own statement log (log_statement = all for this
 * database; pg_stat_statements needs a preload and a restart). One create, submit and award by a
 * fresh pair, each counted between two markers.
 */
async function countStatements(db: Database, name: string, server: { base: string; adminToken: string }) {
  const { readFileSync, statSync } = await import("node:fs");
  const logFile = process.env.BENCH_PG_LOG || "/var/log/postgresql/postgresql-15-main.log";
  const mk = async (role: string) => {
    const address = `0x${sha256Hex(`${role}-stmt-${Date.now()}`).slice(0, 40)}`;
    return { address, token: await insertSession(db, address) };
  };
  const creator = await mk("creator");
  const solver = await mk("solver");
  await call(server.base, "POST", "/admin/ledger/credit", server.adminToken, {
    agent_id: creator.address,
    asset: "USDC",
    amount: "1000000000000",
  });
  // A warm pass first: what is counted is the steady state (statements already prepared).
  const once = async () => {
    const m = await call(server.base, "POST", "/missions", creator.token, missionBody("stmt", 0, 0));
    const s = await call(server.base, "POST", `/missions/${m.id as string}/submissions`, solver.token, {
      content: "x",
    });
    return { m: m.id as string, s: s.submission_id as string };
  };
  const warm = await once();
  await call(server.base, "POST", `/missions/${warm.m}/award`, creator.token, {
    winners: [{ submission_id: warm.s }],
  });
  const size = () => statSync(logFile).size;
  const measure = async (what: string, fn: () => Promise<unknown>) => {
    const from = size();
    await fn();
    await new Promise((r) => setTimeout(r, 300));
    const text = readFileSync(logFile).subarray(from).toString("utf8");
    const lines = text.split("\n").filter((l) => l.includes(`@${name} `) && /LOG: {2}(statement|execute)/.test(l));
    log(`statements for one ${what}: ${lines.length}`);
    for (const l of lines) log(`   ${l.replace(/^.*?LOG: {2}/, "").slice(0, 160)}`);
  };
  const ids = { m: "", s: "" };
  await measure("create", async () => {
    ids.m = (await call(server.base, "POST", "/missions", creator.token, missionBody("stmt", 0, 1))).id as string;
  });
  await measure("submit", async () => {
    ids.s = (await call(server.base, "POST", `/missions/${ids.m}/submissions`, solver.token, { content: "y" }))
      .submission_id as string;
  });
  await measure("award", async () => {
    await call(server.base, "POST", `/missions/${ids.m}/award`, creator.token, {
      winners: [{ submission_id: ids.s }],
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  standalone().then(
    (code) => process.exit(code),
    async (e: unknown) => {
      log(`error: ${e instanceof Error ? e.message : String(e)}`);
      await stopAll().catch(() => {});
      process.exit(1);
    },
  );
}
