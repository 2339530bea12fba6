import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type Result } from "autocannon";
import { sql } from "drizzle-orm";
import {
  children,
  dbName,
  freePort,
  load,
  log,
  machineBusy,
  processCpuMs,
  recreateDatabase,
  ROOT,
  startChild,
  stopAll,
  stopChild,
  waitReady,
  withTimeout,
} from "./harness";
import { openDatabase } from "../src/db/client";
import { openMcpSession, preflight, sameFilterPages } from "./preflight";
import { describeFailures, report, type Row } from "./report";
import { cfg, SERVER_DIR } from "./run-config";
import { picked, readScenarios, type Scenario } from "./scenarios";
import { SEARCH_TERMS, searchSelectivity, seedMissions } from "./seed";
import { runWrites, type WriteFigures } from "./writes";
import { startWriteServer } from "./writes-setup";

// `npm run bench`: seeds a dedicated Postgres database, starts the real server and a bare
// Hono+drizzle baseline as child processes, drives both with autocannon over loopback and reports
// each scenario's throughput as a ratio to the baseline's GET /missions/{id}. See bench/README.md.
// Settings: run-config.ts; scenarios: scenarios.ts; checks before the load: preflight.ts; the
// report: report.ts.

interface Prepared {
  ids: string[];
  selectivity: Record<string, number>;
  postgresVersion: string;
}

async function prepareDatabase(): Promise<Prepared> {
  log(`recreating database ${dbName(cfg.databaseUrl)}`);
  await recreateDatabase(cfg.databaseUrl);
  const database = await withTimeout(
    openDatabase({ url: cfg.databaseUrl, poolMax: 2, migrate: true }),
    60_000,
    "migrations",
  );
  try {
    log(`seeding ${cfg.missions} missions`);
    const seeded = await withTimeout(seedMissions(database.db, cfg.missions), 60_000 + cfg.missions * 10, "seeding");
    log(`seeded ${seeded.count} missions in ${(seeded.ms / 1000).toFixed(1)} s (incl. ANALYZE)`);
    const selectivity = await withTimeout(searchSelectivity(database.db, SEARCH_TERMS), 30_000, "search selectivity");
    const [v] = (await database.db.execute(sql`show server_version`)) as unknown as { server_version: string }[];
    // A random sample of the seeded ids (Fisher-Yates): every seeded status is public.
    const ids = [...seeded.ids];
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    ids.length = Math.min(cfg.idSample, ids.length);
    return { ids, selectivity, postgresVersion: v?.server_version ?? "?" };
  } finally {
    await database.close();
  }
}

// Load

async function fire(s: Scenario, durationSec: number): Promise<Result> {
  const instance = autocannon({
    url: s.base,
    connections: cfg.connections,
    duration: durationSec,
    timeout: 10,
    requests: s.requests,
  });
  load.running = instance;
  try {
    return await withTimeout(Promise.resolve(instance), (durationSec + 30) * 1000, `autocannon ${s.name}`);
  } catch (e) {
    instance.stop();
    throw e;
  } finally {
    load.running = undefined;
  }
}

async function measure(s: Scenario): Promise<Row> {
  if (cfg.warmup > 0) {
    const w = await fire(s, cfg.warmup);
    const bad = describeFailures(w);
    if (bad) log(`warm-up of ${s.name}: ${bad}`);
  }
  for (const c of children) {
    if (c.exitCode !== undefined)
      throw new Error(`${c.name} exited (code ${c.exitCode}) during the run:\n${c.tail.join("\n")}`);
  }
  const cpu0 = processCpuMs(s.pid);
  const result = await fire(s, cfg.duration);
  const cpu1 = processCpuMs(s.pid);
  const rps = result.requests.average;
  const cpuUs = cpu0 === undefined || cpu1 === undefined ? NaN : ((cpu1 - cpu0) * 1000) / result.requests.total;
  log(
    `${s.name}: ${rps.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${cpuUs.toFixed(0)} µs CPU/req`,
  );
  return { scenario: s, result, rps, cpuUs };
}

// ---------------------------------------------------------------------------------------------
// Processes: the real server, the same server with its list cache off, and the baseline.

function serverEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: cfg.databaseUrl,
    DATABASE_POOL_MAX: String(cfg.poolMax),
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    OABP_DATA_DIR: dataDir,
    // Throughput from one client IP: the per-IP rate limits (docs/abuse-edge.md) would measure themselves.
    OABP_RATE_LIMIT_ENABLED: "false",
  };
}

async function startProcesses() {
  const [serverPort, baselinePort, uncachedPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "oabp-bench-"));
  const uncachedDir = mkdtempSync(path.join(os.tmpdir(), "oabp-bench-nocache-"));
  const cleanup = () => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(uncachedDir, { recursive: true, force: true });
  };
  const nodeArgs = cfg.cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(cfg.cpuProfDir)] : [];
  const serverArgs = [...nodeArgs, "--import", "tsx", "src/main.ts"];
  const server = startChild("server", serverArgs, serverEnv(serverPort, dataDir), SERVER_DIR);
  // The same server with its mission-list cache off: what a list costs when every request misses
  // (e.g. under a steady stream of writes).
  const uncached = startChild(
    "server-nocache",
    serverArgs,
    { ...serverEnv(uncachedPort, uncachedDir), OABP_LIST_CACHE_BYTES: "0" },
    SERVER_DIR,
  );
  const baseline = startChild(
    "baseline",
    ["--import", "tsx", "bench/baseline.ts"],
    {
      PORT: String(baselinePort),
      HOST: "127.0.0.1",
      DATABASE_URL: cfg.databaseUrl,
      DATABASE_POOL_MAX: String(cfg.poolMax),
      NODE_ENV: "production",
    },
    ROOT,
  );
  const bases = {
    server: `http://127.0.0.1:${serverPort}`,
    baseline: `http://127.0.0.1:${baselinePort}`,
    uncached: `http://127.0.0.1:${uncachedPort}`,
    pids: { server: server.proc.pid, baseline: baseline.proc.pid, uncached: uncached.proc.pid },
  };
  return { server, uncached, baseline, bases, cleanup };
}

/** The value-moving writes against the same-run bare INSERT (bench/writes.ts). */
async function measureWrites(baselineBase: string, baselinePid: number | undefined): Promise<WriteFigures> {
  const w = await startWriteServer(cfg.databaseUrl, cfg.poolMax, cfg.cpuProfDir, {}, SERVER_DIR);
  const db = await openDatabase({ url: cfg.databaseUrl, poolMax: 2, migrate: false });
  try {
    return await runWrites({
      db,
      base: w.base,
      baselineBase,
      adminToken: w.adminToken,
      writers: cfg.writers,
      seconds: cfg.duration,
      pids: { server: w.child.proc.pid, baseline: baselinePid },
    });
  } finally {
    await db.close();
    w.cleanup();
  }
}

async function main(): Promise<number> {
  const t0 = performance.now();
  // Other work on the machine skews every figure: record how busy it was just before we started.
  const busyAtStart = await machineBusy(2000);
  const prepared = await prepareDatabase();
  const { server, uncached, baseline, bases, cleanup } = await startProcesses();
  try {
    await Promise.all([
      waitReady(server, `${bases.server}/ready`, cfg.readyMs),
      waitReady(uncached, `${bases.uncached}/ready`, cfg.readyMs),
      waitReady(baseline, `${bases.baseline}/ready`, cfg.readyMs),
    ]);
    log(`server on ${bases.server}, baseline on ${bases.baseline}`);
    const mcpSession = await openMcpSession(bases.server);
    await preflight(bases.server, bases.baseline, prepared.ids, mcpSession);
    await sameFilterPages(bases.server, bases.uncached);

    const rows: Row[] = [];
    for (const s of readScenarios(bases, prepared.ids, mcpSession)) if (picked(s.key)) rows.push(await measure(s));
    // The writes last: they add rows the read scenarios would otherwise see. The read servers stop
    // first: idle, their event hubs and job runners would still answer every write's wake —
    // Postgres CPU the write did not cause, and a core taken from it (bench/README.md "Writes").
    let writes: WriteFigures | undefined;
    if (!cfg.only || cfg.only.has("writes")) {
      await Promise.all([stopChild(server), stopChild(uncached)]);
      writes = await measureWrites(bases.baseline, bases.pids.baseline);
    }

    const facts = {
      t0,
      busyAtStart,
      postgresVersion: prepared.postgresVersion,
      ids: prepared.ids.length,
      selectivity: prepared.selectivity,
    };
    const { out, failed } = report(facts, rows, writes);
    await stopAll();
    process.stdout.write(`${out.join("\n")}\n`);
    return failed ? 1 : 0;
  } finally {
    await stopAll();
    cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  async (e: unknown) => {
    log(`error: ${e instanceof Error ? e.message : String(e)}`);
    await stopAll().catch(() => {});
    process.exit(1);
  },
);
