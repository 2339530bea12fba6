import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type RequestSpec, type Result } from "autocannon";
import { sql } from "drizzle-orm";
import {
  children,
  cpuModel,
  dbName,
  freePort,
  getJson,
  load,
  log,
  machineBusy,
  processCpuMs,
  recreateDatabase,
  ROOT,
  startChild,
  stopAll,
  waitReady,
  withTimeout,
} from "./harness";
import { openDatabase } from "../src/db/client";
import { formatRegressions, readSaved, regressions, save, RATIOS_FILE, type Ratios } from "./regress";
import { SEARCH_TERMS, searchSelectivity, seedMissions } from "./seed";
import { runWrites, startWriteServer, writeLines, writeRatios, writeTableRows, type WriteFigures } from "./writes";

// `npm run bench`: seeds a dedicated Postgres database, starts the real server and a bare
// Hono+drizzle baseline as child processes, drives both with autocannon over loopback and reports
// each scenario's throughput as a ratio to the baseline's GET /missions/{id}. See bench/README.md.

// ---------------------------------------------------------------------------------------------
// Configuration (env)

function intEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

const QUICK = process.env.BENCH_QUICK === "1" || process.env.BENCH_QUICK === "true";
const cfg = {
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
  /** Comma-separated scenario keys to run (the baseline always runs); unset = all. */
  /** Concurrent agents of the write scenario (bench/writes.ts). */
  writers: intEnv("BENCH_WRITERS", 10),
  only: process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((k) => k.trim())) : undefined,
};

// ---------------------------------------------------------------------------------------------

interface Prepared {
  ids: string[];
  selectivity: Record<string, number>;
  postgresVersion: string;
}

/**
 * The checkout whose server is measured (its src/main.ts through tsx): this one, or another
 * commit's worktree (bench/ab.ts). The baseline, the load and the seed are always this checkout's.
 */
const SERVER_DIR = path.resolve(process.env.BENCH_SERVER_DIR ?? ROOT);

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

// ---------------------------------------------------------------------------------------------
// Load

interface Scenario {
  key: string;
  name: string;
  base: string;
  requests: RequestSpec[];
  /** The process answering (its CPU per request is reported beside the rate). */
  pid?: number | undefined;
}

interface Row {
  scenario: Scenario;
  result: Result;
  rps: number;
  /** CPU time (utime + stime, µs) the answering process spent per request in the measured window. */
  cpuUs: number;
}

function describeFailures(r: Result): string | undefined {
  const bad: string[] = [];
  if (r.non2xx > 0) {
    const codes = Object.entries(r.statusCodeStats)
      .filter(([code]) => !code.startsWith("2"))
      .map(([code, s]) => `${code}×${s.count}`)
      .join(", ");
    bad.push(`${r.non2xx} non-2xx (${codes})`);
  }
  if (r.errors > 0) bad.push(`${r.errors} errors (${r.timeouts} timeouts)`);
  if (r.mismatches > 0) bad.push(`${r.mismatches} body mismatches`);
  return bad.length ? bad.join("; ") : undefined;
}

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

/** What most HTTP clients send (browsers, curl --compressed, fetch); autocannon sends none by itself. */
const ACCEPT_COMPRESSED = { "accept-encoding": "gzip, deflate, br" };

function randomPath(ids: string[], headers: Record<string, string> = {}): RequestSpec {
  return {
    method: "GET",
    headers,
    setupRequest: (req) => ({ ...req, path: `/missions/${ids[Math.floor(Math.random() * ids.length)]}` }),
  };
}

/** The HTML page of a random mission of the sample (the web board's twin of get_mission). */
function randomPage(ids: string[]): RequestSpec {
  return {
    method: "GET",
    headers: { accept: "text/html" },
    setupRequest: (req) => ({ ...req, path: `/m/${ids[Math.floor(Math.random() * ids.length)]}` }),
  };
}

/** tools/call get_mission on a random id of the sample: the MCP twin of the get_mission scenario. */
function mcpGetMission(ids: string[], session: string, headers: Record<string, string> = {}): RequestSpec {
  return {
    method: "POST",
    path: "/mcp",
    headers: { ...MCP_HEADERS, "mcp-session-id": session, ...headers },
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_mission", arguments: { mission_id: ids[Math.floor(Math.random() * ids.length)] } },
      }),
    }),
  };
}

// What a crawler walking filters or pages asks for — never the cached first page.
const LIST_FILTERS = [
  "status=open&verification_type=creator_judges&limit=50",
  "verification_type=first_valid_match&limit=50",
  "status=resolved,voided&limit=50",
  "asset=USDC&reward_min=100000000&limit=50",
  "status=open&mission_type=freeform&limit=50",
];

function rotatingFilters(filters: readonly string[]): RequestSpec {
  let i = 0;
  return { method: "GET", setupRequest: (req) => ({ ...req, path: `/missions?${filters[i++ % filters.length]!}` }) };
}

/** A page of 50 starting right after a random seeded mission: deep keyset cursors everywhere in the set. */
function deepCursor(ids: string[]): RequestSpec {
  return {
    method: "GET",
    setupRequest: (req) => ({
      ...req,
      path: `/missions?limit=50&cursor=${Buffer.from(ids[Math.floor(Math.random() * ids.length)]!, "utf8").toString("base64url")}`,
    }),
  };
}

/** The bare stack's own 50-row page (bench/baseline.ts `/page`): the floor of every list page. */
function barePage(): RequestSpec {
  return { method: "GET", path: "/page" };
}

/** The bare page after a random sampled id: the floor of `deepCursor`'s keyset pages. */
function barePageDeep(ids: string[]): RequestSpec {
  return {
    method: "GET",
    setupRequest: (req) => ({ ...req, path: `/page?before=${ids[Math.floor(Math.random() * ids.length)]!}` }),
  };
}

function rotatingSearch(terms: readonly string[]): RequestSpec {
  let i = 0;
  return {
    method: "GET",
    setupRequest: (req) => ({
      ...req,
      path: `/missions?status=open&q=${encodeURIComponent(terms[i++ % terms.length]!)}`,
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// MCP: one session opened before the load (initialize + notifications/initialized); the scenario
// then repeats tools/call list_missions on it — the MCP twin of GET /missions?limit=50.

const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
};
const MCP_LIST_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "list_missions", arguments: { limit: 50 } },
});

async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

async function openMcpSession(serverBase: string): Promise<string> {
  const init = await postJson(
    `${serverBase}/mcp`,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "oabp-bench", version: "1" } },
    }),
    MCP_HEADERS,
  );
  const session = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !session)
    throw new Error(`MCP initialize: ${init.status} ${JSON.stringify(init.body).slice(0, 300)}`);
  const done = await postJson(
    `${serverBase}/mcp`,
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    { ...MCP_HEADERS, "mcp-session-id": session },
  );
  if (done.status !== 202) throw new Error(`MCP notifications/initialized: ${done.status}`);
  return session;
}

// ---------------------------------------------------------------------------------------------
// Pre-flight: one request per scenario, checked for the expected shape, before any load.

async function preflight(serverBase: string, baselineBase: string, ids: string[], mcpSession: string): Promise<void> {
  const id = ids[0]!;
  const b = await getJson(`${baselineBase}/missions/${id}`);
  if (b.status !== 200 || (b.body as { id?: string }).id !== id)
    throw new Error(`baseline GET /missions/${id}: ${b.status} ${JSON.stringify(b.body).slice(0, 300)}`);
  const g = await getJson(`${serverBase}/missions/${id}`);
  if (g.status !== 200 || (g.body as { id?: string }).id !== id)
    throw new Error(`server GET /missions/${id}: ${g.status} ${JSON.stringify(g.body).slice(0, 300)}`);
  const l = await getJson(`${serverBase}/missions?limit=50`);
  const listed = (l.body as { missions?: unknown[] }).missions;
  if (l.status !== 200 || !Array.isArray(listed) || listed.length !== Math.min(50, cfg.missions)) {
    throw new Error(`server GET /missions?limit=50: ${l.status} ${JSON.stringify(l.body).slice(0, 300)}`);
  }
  // The MCP call must carry exactly the REST list (structuredContent), in a successful tool result.
  const m = await postJson(`${serverBase}/mcp`, MCP_LIST_BODY, { ...MCP_HEADERS, "mcp-session-id": mcpSession });
  const result = (m.body as { result?: { isError?: boolean; structuredContent?: unknown } }).result;
  if (
    m.status !== 200 ||
    result?.isError !== false ||
    JSON.stringify(result.structuredContent) !== JSON.stringify(l.body)
  ) {
    throw new Error(`server MCP tools/call list_missions: ${m.status} ${JSON.stringify(m.body).slice(0, 300)}`);
  }
  const mg = await postJson(
    `${serverBase}/mcp`,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get_mission", arguments: { mission_id: id } },
    }),
    { ...MCP_HEADERS, "mcp-session-id": mcpSession },
  );
  const one = (mg.body as { result?: { isError?: boolean; structuredContent?: unknown } }).result;
  if (mg.status !== 200 || one?.isError !== false || JSON.stringify(one.structuredContent) !== JSON.stringify(g.body)) {
    throw new Error(`server MCP tools/call get_mission: ${mg.status} ${JSON.stringify(mg.body).slice(0, 300)}`);
  }
  for (const t of SEARCH_TERMS) {
    const q = await getJson(`${serverBase}/missions?status=open&q=${encodeURIComponent(t)}`);
    const found = (q.body as { missions?: { status: string }[] }).missions;
    if (q.status !== 200 || !Array.isArray(found))
      throw new Error(`server search q=${t}: ${q.status} ${JSON.stringify(q.body).slice(0, 300)}`);
    if (found.some((m) => m.status !== "open"))
      throw new Error(`server search q=${t} returned a mission that is not open`);
  }
}

// ---------------------------------------------------------------------------------------------

function table(rows: Row[], baselineRps: number, extra: string[][] = []): string {
  const header = ["scenario", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "ratio", "CPU µs/req"];
  const body = rows.map((r) => [
    r.scenario.name,
    r.rps.toFixed(0),
    r.result.latency.p50.toFixed(0),
    r.result.latency.p99.toFixed(0),
    String(r.result.non2xx),
    String(r.result.errors),
    (r.rps / baselineRps).toFixed(2),
    Number.isFinite(r.cpuUs) ? r.cpuUs.toFixed(0) : "",
  ]);
  body.push(...extra.map((e) => (e.length < header.length ? [...e, ""] : e)));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  const sep = `|${widths.map((w, i) => (i === 0 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [line(header), sep, ...body.map(line)].join("\n");
}

// ---------------------------------------------------------------------------------------------
// The read scenarios, and the read rows of the read targets against their same-run floors.

interface Bases {
  server: string;
  baseline: string;
  uncached: string;
  /** The processes behind them, whose CPU per request each row reports. */
  pids: { server?: number | undefined; baseline?: number | undefined; uncached?: number | undefined };
}

function readScenarios(b: Bases, ids: string[], mcpSession: string): Scenario[] {
  const pidOf = (base: string) =>
    base === b.server ? b.pids.server : base === b.baseline ? b.pids.baseline : b.pids.uncached;
  return scenarioList(b, ids, mcpSession).map((s) => ({ ...s, pid: pidOf(s.base) }));
}

function scenarioList(b: Bases, ids: string[], mcpSession: string): Scenario[] {
  const [serverBase, baselineBase, uncachedBase] = [b.server, b.baseline, b.uncached];
  const mcpList = (headers: Record<string, string> = {}): RequestSpec => ({
    method: "POST",
    path: "/mcp",
    headers: { ...MCP_HEADERS, "mcp-session-id": mcpSession, ...headers },
    body: MCP_LIST_BODY,
  });
  return [
    {
      key: "baseline",
      name: "baseline GET /missions/{id}",
      base: baselineBase,
      requests: [randomPath(ids)],
    },
    { key: "get_mission", name: "server GET /missions/{id}", base: serverBase, requests: [randomPath(ids)] },
    {
      key: "list",
      name: "server GET /missions?limit=50",
      base: serverBase,
      requests: [{ method: "GET", path: "/missions?limit=50" }],
    },
    {
      key: "search",
      name: "server GET /missions?status=open&q=…",
      base: serverBase,
      requests: [rotatingSearch(SEARCH_TERMS)],
    },
    {
      key: "mcp_list",
      name: "server MCP tools/call list_missions",
      base: serverBase,
      requests: [mcpList()],
    },
    {
      key: "mcp_get",
      name: "server MCP tools/call get_mission",
      base: serverBase,
      requests: [mcpGetMission(ids, mcpSession)],
    },
    // The same reads as most clients ask for them (Accept-Encoding: gzip, deflate, br), so the
    // bench sees what compression costs (bench/README.md "What made anonymous reads dearer").
    {
      key: "get_mission_br",
      name: "server GET /missions/{id}, compressed",
      base: serverBase,
      requests: [randomPath(ids, ACCEPT_COMPRESSED)],
    },
    {
      key: "list_br",
      name: "server GET /missions?limit=50, compressed",
      base: serverBase,
      requests: [{ method: "GET", path: "/missions?limit=50", headers: ACCEPT_COMPRESSED }],
    },
    {
      key: "mcp_list_br",
      name: "server MCP list_missions, compressed",
      base: serverBase,
      requests: [mcpList(ACCEPT_COMPRESSED)],
    },
    {
      key: "mcp_get_br",
      name: "server MCP get_mission, compressed",
      base: serverBase,
      requests: [mcpGetMission(ids, mcpSession, ACCEPT_COMPRESSED)],
    },
    // The web board and a mission page, as ratios to the JSON routes they render.
    {
      key: "web_board",
      name: "server GET /?limit=50 (HTML board)",
      base: serverBase,
      requests: [{ method: "GET", path: "/?limit=50&status=any", headers: { accept: "text/html" } }],
    },
    {
      key: "web_mission",
      name: "server GET /m/{id} (HTML mission page)",
      base: serverBase,
      requests: [randomPage(ids)],
    },
    {
      key: "list_uncached",
      name: "uncached GET /missions?limit=50",
      base: uncachedBase,
      requests: [{ method: "GET", path: "/missions?limit=50" }],
    },
    {
      key: "search_uncached",
      name: "uncached GET /missions?status=open&q=…",
      base: uncachedBase,
      requests: [rotatingSearch(SEARCH_TERMS)],
    },
    {
      key: "filter_uncached",
      name: "uncached GET /missions?<filter>&limit=50",
      base: uncachedBase,
      requests: [rotatingFilters(LIST_FILTERS)],
    },
    {
      key: "deep_uncached",
      name: "uncached GET /missions?limit=50&cursor=<deep>",
      base: uncachedBase,
      requests: [deepCursor(ids)],
    },
    // The floors of the list rows: the bare stack's 50-row page, first and deep (bench/baseline.ts).
    { key: "page_floor", name: "baseline GET /page (bare 50-row page)", base: baselineBase, requests: [barePage()] },
    {
      key: "page_floor_deep",
      name: "baseline GET /page?before=<deep> (bare page)",
      base: baselineBase,
      requests: [barePageDeep(ids)],
    },
    // Each filter of LIST_FILTERS on its own: the goal holds on every filter, not on their mean.
    ...LIST_FILTERS.map((f, i) => ({
      key: `filter_uncached_${i + 1}`,
      name: `uncached GET /missions?${f}`,
      base: uncachedBase,
      requests: [{ method: "GET" as const, path: `/missions?${f}` }],
    })),
  ];
}

/** Which scenarios a run measures: the baseline and the floors always, the rest as BENCH_ONLY says. */
function picked(key: string): boolean {
  return (
    key === "baseline" ||
    key.startsWith("page_floor") ||
    !cfg.only ||
    cfg.only.has(key) ||
    cfg.only.has(key.replace(/_\d+$/, ""))
  );
}

/**
 * The read rows of the read targets, each against its same-run floor: list pages against the
 * bare 50-row page (first, or deep for the cursor), a mission against the bare PK select, MCP
 * and the web pages against the JSON routes they answer from.
 */
function readFloorLines(rpsOf: (key: string) => number): string[] {
  const r = (a: string, b: string) => (rpsOf(a) / rpsOf(b)).toFixed(2);
  const filters = LIST_FILTERS.map((f, i) => `${f}=${r(`filter_uncached_${i + 1}`, "page_floor")}`);
  return [
    "read rows against their same-run floors (goal in brackets):",
    `  uncached list / bare 50-row page [>= 0.9]: first ${r("list_uncached", "page_floor")}, deep cursor ${r("deep_uncached", "page_floor_deep")} (vs the bare first page ${r("deep_uncached", "page_floor")}), search ${r("search_uncached", "page_floor")}, filters rotating ${r("filter_uncached", "page_floor")}`,
    `  each filter: ${filters.join(" ")}`,
    `  GET /missions/{id} / bare PK select [>= 0.9]: ${r("get_mission", "baseline")}`,
    `  MCP list_missions / REST list [>= 0.9]: ${r("mcp_list", "list")}; MCP get_mission / REST get: ${r("mcp_get", "get_mission")}`,
    `  compressed (gzip, deflate, br): GET /missions/{id} / bare PK select ${r("get_mission_br", "baseline")}, list / plain list ${r("list_br", "list")}, MCP list / REST list ${r("mcp_list_br", "list_br")}, MCP get / REST get ${r("mcp_get_br", "get_mission_br")}`,
    `  web board / JSON list [>= 0.7]: ${r("web_board", "list")}`,
    `  mission page / JSON mission [>= 0.7]: ${r("web_mission", "get_mission")}`,
    `  bare 50-row page / bare PK select: first ${r("page_floor", "baseline")}, deep ${r("page_floor_deep", "baseline")}`,
  ];
}

// ---------------------------------------------------------------------------------------------

/** The ratios a run is judged by: each read against its floor, MCP and pages against REST, writes against the bare INSERT. */
function runRatios(rpsOf: (key: string) => number, baselineRps: number, writes?: WriteFigures): Ratios {
  const r: Ratios = {};
  for (const k of [
    "get_mission",
    "list",
    "search",
    "list_uncached",
    "search_uncached",
    "filter_uncached",
    "deep_uncached",
  ])
    r[k] = rpsOf(k) / baselineRps;
  r.mcp_list_vs_rest = rpsOf("mcp_list") / rpsOf("list");
  r.mcp_get_vs_rest = rpsOf("mcp_get") / rpsOf("get_mission");
  r.get_mission_br = rpsOf("get_mission_br") / baselineRps;
  r.mcp_list_vs_rest_br = rpsOf("mcp_list_br") / rpsOf("list_br");
  r.mcp_get_vs_rest_br = rpsOf("mcp_get_br") / rpsOf("get_mission_br");
  r.web_board_vs_list = rpsOf("web_board") / rpsOf("list");
  r.web_mission_vs_get = rpsOf("web_mission") / rpsOf("get_mission");
  if (writes)
    for (const k of ["create", "submit", "award"] as const) r[`write_${k}`] = writes[k].perSec / writes.bare.perSec;
  for (const [k, v] of Object.entries(r)) if (!Number.isFinite(v)) delete r[k]; // BENCH_ONLY left it out
  return r;
}

const serverCommit = () =>
  execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: SERVER_DIR, encoding: "utf8" }).trim();

async function main(): Promise<number> {
  const t0 = performance.now();
  // Other work on the machine skews every figure: record how busy it was just before we started.
  const busyAtStart = await machineBusy(2000);
  const prepared = await prepareDatabase();

  const [serverPort, baselinePort, uncachedPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "oabp-bench-"));
  const nodeArgs = cfg.cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(cfg.cpuProfDir)] : [];
  const server = startChild(
    "server",
    [...nodeArgs, "--import", "tsx", "src/main.ts"],
    {
      PORT: String(serverPort),
      HOST: "127.0.0.1",
      DATABASE_URL: cfg.databaseUrl,
      DATABASE_POOL_MAX: String(cfg.poolMax),
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      OABP_DATA_DIR: dataDir,
      // Throughput from one client IP: the per-IP rate limits (docs/abuse-edge.md) would measure themselves.
      OABP_RATE_LIMIT_ENABLED: "false",
    },
    SERVER_DIR,
  );
  // The same server with its mission-list cache off: what a list costs when every request misses
  // (e.g. under a steady stream of writes).
  const uncachedDir = mkdtempSync(path.join(os.tmpdir(), "oabp-bench-nocache-"));
  const uncached = startChild(
    "server-nocache",
    [...nodeArgs, "--import", "tsx", "src/main.ts"],
    {
      PORT: String(uncachedPort),
      HOST: "127.0.0.1",
      DATABASE_URL: cfg.databaseUrl,
      DATABASE_POOL_MAX: String(cfg.poolMax),
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      OABP_DATA_DIR: uncachedDir,
      OABP_LIST_CACHE_BYTES: "0",
      OABP_RATE_LIMIT_ENABLED: "false",
    },
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
  const serverBase = `http://127.0.0.1:${serverPort}`;
  const baselineBase = `http://127.0.0.1:${baselinePort}`;
  const uncachedBase = `http://127.0.0.1:${uncachedPort}`;
  try {
    await Promise.all([
      waitReady(server, `${serverBase}/ready`, 60_000),
      waitReady(uncached, `${uncachedBase}/ready`, 60_000),
      waitReady(baseline, `${baselineBase}/ready`, 60_000),
    ]);
    log(`server on ${serverBase}, baseline on ${baselineBase}`);
    const mcpSession = await openMcpSession(serverBase);
    await preflight(serverBase, baselineBase, prepared.ids, mcpSession);
    // The uncached server answers every filter with the same page as the cached one (links aside:
    // each server's public URL is its own port).
    for (const f of LIST_FILTERS) {
      const [a, b] = await Promise.all([
        getJson(`${serverBase}/missions?${f}`),
        getJson(`${uncachedBase}/missions?${f}`),
      ]);
      const [ta, tb] = [
        JSON.stringify(a.body).replaceAll(`:${serverPort}/`, "/"),
        JSON.stringify(b.body).replaceAll(`:${uncachedPort}/`, "/"),
      ];
      if (a.status !== 200 || b.status !== 200 || ta !== tb) {
        let i = 0;
        while (i < ta.length && ta[i] === tb[i]) i++;
        throw new Error(
          `GET /missions?${f}: cached ${a.status}, uncached ${b.status}, bodies differ at ${ta.slice(i - 80, i + 40)} | ${tb.slice(i - 80, i + 40)}`,
        );
      }
    }

    const scenarios = readScenarios(
      {
        server: serverBase,
        baseline: baselineBase,
        uncached: uncachedBase,
        pids: { server: server.proc.pid, baseline: baseline.proc.pid, uncached: uncached.proc.pid },
      },
      prepared.ids,
      mcpSession,
    );
    const rows: Row[] = [];
    for (const s of scenarios) if (picked(s.key)) rows.push(await measure(s));

    // The value-moving writes against the same-run bare INSERT (bench/writes.ts), last: they add
    // rows the read scenarios would otherwise see.
    let writes: WriteFigures | undefined;
    if (!cfg.only || cfg.only.has("writes")) {
      const w = await startWriteServer(cfg.databaseUrl, cfg.poolMax, cfg.cpuProfDir, {}, SERVER_DIR);
      const db = await openDatabase({ url: cfg.databaseUrl, poolMax: 2, migrate: false });
      try {
        writes = await runWrites({
          db,
          base: w.base,
          baselineBase,
          adminToken: w.adminToken,
          writers: cfg.writers,
          seconds: cfg.duration,
          pids: { server: w.child.proc.pid, baseline: baseline.proc.pid },
        });
      } finally {
        await db.close();
        w.cleanup();
      }
    }

    const baselineRps = rows[0]!.rps;
    const rpsOf = (key: string) => rows.find((r) => r.scenario.key === key)?.rps ?? NaN;
    const ratio = (key: string) => (rpsOf(key) / baselineRps).toFixed(2);
    const failures = rows.flatMap((r) => {
      const bad = describeFailures(r.result);
      return bad ? [`${r.scenario.name}: ${bad}`] : [];
    });

    const out: string[] = [];
    out.push("");
    out.push(`date: ${new Date().toISOString()}`);
    out.push(
      `machine: nproc=${os.availableParallelism?.() ?? os.cpus().length}, cpu="${cpuModel()}", node ${process.version}, postgres ${prepared.postgresVersion}, CPU busy before start ${busyAtStart}`,
    );
    out.push(
      `settings: missions=${cfg.missions}, connections=${cfg.connections}, duration=${cfg.duration}s, warmup=${cfg.warmup}s, pool=${cfg.poolMax}, ids=${prepared.ids.length}${cfg.quick ? ", quick" : ""}`,
    );
    out.push(
      `search terms (open missions matched): ${SEARCH_TERMS.map((t) => `${t}=${prepared.selectivity[t]}`).join(", ")}`,
    );
    out.push("");
    out.push(table(rows, baselineRps, writes && writeTableRows(writes)));
    out.push("");
    out.push(...readFloorLines(rpsOf), "");
    if (writes) out.push(...writeLines(writes), "");
    if (writes && !writes.ok) failures.push(`writes: ${writes.check}`);
    for (const f of failures) out.push(`FAIL ${f}`);
    out.push(`total time: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // mcp_*_vs_rest: an MCP tools/call against the equivalent REST call (design target ≥ 0.7).
    out.push(
      `bench: get_mission=${ratio("get_mission")} list=${ratio("list")} search=${ratio("search")} list_uncached=${ratio("list_uncached")} search_uncached=${ratio("search_uncached")} filter_uncached=${ratio("filter_uncached")} deep_uncached=${ratio("deep_uncached")} mcp_list_vs_rest=${(rpsOf("mcp_list") / rpsOf("list")).toFixed(2)} mcp_get_vs_rest=${(rpsOf("mcp_get") / rpsOf("get_mission")).toFixed(2)} web_board_vs_list=${(rpsOf("web_board") / rpsOf("list")).toFixed(2)} web_mission_vs_get=${(rpsOf("web_mission") / rpsOf("get_mission")).toFixed(2)}`,
    );
    if (writes) out.push(`bench-writes (vs the same-run bare INSERT): ${writeRatios(writes)}`);
    // Every ratio as one JSON line (bench/ab.ts reads it), then against the last quiet run.
    const ratios = runRatios(rpsOf, baselineRps, writes);
    out.push(`bench-json: ${JSON.stringify(ratios)}`);
    const saved = readSaved();
    if (saved) out.push(...formatRegressions(saved, regressions(saved, ratios)));
    if (process.env.BENCH_SAVE === "1") {
      const settings = `missions=${cfg.missions}, connections=${cfg.connections}, duration=${cfg.duration}s, pool=${cfg.poolMax}`;
      save({ date: new Date().toISOString(), commit: serverCommit(), settings, ratios });
      out.push(`saved as the quiet run: ${path.relative(process.cwd(), RATIOS_FILE)}`);
    }
    await stopAll();
    process.stdout.write(`${out.join("\n")}\n`);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(uncachedDir, { recursive: true, force: true });
    return failures.length ? 1 : 0;
  } finally {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(uncachedDir, { recursive: true, force: true });
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
