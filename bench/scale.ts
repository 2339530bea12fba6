import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type Result } from "autocannon";
import { sql } from "drizzle-orm";
import { openDatabase, type Database } from "../src/db/client";
import { randomToken, sha256Hex } from "../src/lib/hash";
import {
  cpuModel,
  dbName,
  freePort,
  load,
  log,
  machineBusy,
  recreateDatabase,
  startChild,
  stopAll,
  waitReady,
  withTimeout,
} from "./harness";
import { seedScale } from "./scale-seed";

// `npm run bench:scale`: the same public read routes against a small and a large
// database (default 10 000 and 1 000 000 missions, seeded in SQL), every route's mean latency
// large / small (goal ≤ 1.3×), the uncached list pages against the bare baseline, and a write
// scenario (create → submit → award by 10 concurrent agent pairs) as ratios to the read baseline.
// Servers run with the list cache off, so every read reaches Postgres. See bench/README.md.

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const v = raw ? Number(raw) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  return v;
}
const cfg = {
  small: intEnv("BENCH_SCALE_SMALL", 10_000),
  large: intEnv("BENCH_SCALE_LARGE", 1_000_000),
  duration: intEnv("BENCH_DURATION", 5),
  connections: intEnv("BENCH_CONNECTIONS", 10),
  poolMax: intEnv("BENCH_POOL_MAX", 10),
  writers: intEnv("BENCH_WRITERS", 10),
  base: process.env.BENCH_SCALE_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/bench_scale",
  /** Keep a database already seeded with the same N (iterating on the server, not the seed). */
  reuse: process.env.BENCH_SCALE_REUSE === "1",
  /** `writes`: skip the read routes; the baseline, the sitemap check and the write scenario run. */
  only: process.env.BENCH_SCALE_ONLY === "writes" ? ("writes" as const) : undefined,
  /** Comma-separated read routes to run (e.g. `discover,candidates`); unset: all. */
  routes: process.env.BENCH_SCALE_ROUTES?.split(",").filter(Boolean),
  /** Directory for V8 CPU profiles of the servers (node --cpu-prof), written at shutdown. */
  cpuProfDir: process.env.BENCH_CPU_PROF || undefined,
};
const ADMIN = `bench-admin-${randomToken().slice(0, 24)}`;
const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : (r as { rows: T[] }).rows);
const urlFor = (n: number) => `${cfg.base}_${n}`;

async function prepare(n: number): Promise<void> {
  const url = urlFor(n);
  if (cfg.reuse) {
    const db = await openDatabase({ url, poolMax: 2, migrate: true }).catch(() => undefined);
    if (db) {
      const [c] = rowsOf<{ n: number }>(
        await db.db.execute(sql`select count(*)::int as n from missions`).catch(() => []),
      );
      await db.close();
      if (Number(c?.n) === n) {
        log(`reusing ${dbName(url)} (${n} missions)`);
        return;
      }
    }
  }
  await recreateDatabase(url);
  // One connection: the seed's helper functions live in its session (pg_temp).
  const db = await withTimeout(openDatabase({ url, poolMax: 1, migrate: true }), 120_000, "migrations");
  try {
    const s = await withTimeout(seedScale(db.db, n), 3_600_000, `seeding ${n}`);
    log(`seeded ${dbName(url)}: ${s.missions} missions, ${s.agents} agents in ${(s.ms / 1000).toFixed(0)} s`);
  } finally {
    await db.close();
  }
}

/** The mission id inside a list_deep path's base64url cursor. */
function midIdOf(path: string): string {
  const cursor = new URL(path, "http://x").searchParams.get("cursor") ?? "";
  return Buffer.from(cursor, "base64url").toString("utf8");
}

/** Paths of every public read route, with parameters picked from this database. */
async function routes(db: Database, n: number): Promise<Record<string, string>> {
  const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await db.db.execute(q))[0]!;
  const mid = await one<{ id: string }>(
    sql`select id from missions order by id desc offset ${Math.floor(n / 2)} limit 1`,
  );
  const busy = await one<{ reviewee: string }>(sql`select reviewee from review_stats order by count desc limit 1`);
  const creator = await one<{ creator: string }>(
    sql`select creator from missions group by creator order by count(*) desc limit 1`,
  );
  // The narrow filters are parameterised per database so that both sizes serve a full page: a
  // rare tag or a narrow range holding 3 missions at 10k and 50 at 1M would measure the size of
  // the answer, not whether the query scans. Each is the narrowest that still fills a page.
  const rare = await one<{ tag: string }>(
    sql`select tag from mission_tags group by tag having count(*) > 50 order by count(*) asc, tag limit 1`,
  );
  const page = 51;
  const amountAt = async (from: bigint) =>
    (
      await one<{ a: string }>(
        sql`select reward_amount::text as a from missions where reward_amount >= ${from.toString()}::numeric and status <> 'pending_escrow' and hidden_at is null order by reward_amount offset ${page - 1} limit 1`,
      )
    ).a;
  const narrowMax = await amountAt(250_000_000n);
  const assetMax = BigInt(narrowMax) > 251_000_000n ? narrowMax : "251000000";
  const deadline = await one<{ d: string; e: string }>(sql`
    with d0 as (select min(deadline) + interval '30 days' as d from missions)
    select to_char(d, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as d,
           to_char(greatest(d + interval '1 hour', (select deadline from missions where deadline >= d and status <> 'pending_escrow' and hidden_at is null order by deadline offset ${page - 1} limit 1)),
                   'YYYY-MM-DD"T"HH24:MI:SS"Z"') as e
      from d0`);
  const agentsMid = await one<{ rating: number; id: string; snap: string }>(sql`
    select rating, id, pg_current_snapshot()::text as snap from agents order by rating desc, id asc offset (select count(*) / 2 from agents) limit 1`);
  const cursor = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const agentsDeep = cursor({ a: Date.now() - 60_000, s: agentsMid.snap, r: agentsMid.rating, i: agentsMid.id });
  const d0 = new Date(deadline.d);
  const d1 = new Date(deadline.e).toISOString();
  return {
    get_mission: `/missions/${mid.id}`,
    list: "/missions?limit=50",
    list_deep: `/missions?limit=50&cursor=${Buffer.from(mid.id).toString("base64url")}`,
    status_resolved: "/missions?status=resolved&limit=50",
    creator: `/missions?creator=${creator.creator}&limit=50`,
    tag_rare: `/missions?tag=${rare.tag}&limit=50`,
    tag_common: "/missions?tag=agent&limit=50",
    reward_narrow: `/missions?reward_min=250000000&reward_max=${narrowMax}&limit=50`,
    reward_asset: `/missions?asset=USDC&reward_min=250000000&reward_max=${assetMax}&limit=50`,
    deadline_window: `/missions?deadline_after=${d0.toISOString()}&deadline_before=${d1}&limit=50`,
    type_status: "/missions?verification_type=oracle&status=open&limit=50",
    search: "/missions?status=open&q=backend",
    submissions: `/missions/${mid.id}/submissions`,
    leaderboard: "/leaderboard?limit=50",
    agents: "/agents?limit=50",
    agents_deep: `/agents?limit=50&cursor=${agentsDeep}`,
    agent_busy: `/agents/${busy.reviewee}`,
    agent_history: `/agents/${busy.reviewee}/history`,
    agent_reviews: `/agents/${busy.reviewee}/reviews`,
    feed: "/feed.xml",
    sitemap: "/sitemap.xml",
    // Discovery (ADP §4.3): a POST with its query as the body (`POST <path> <json>`).
    discover: `POST /adp/adp.discover ${JSON.stringify({ tags: ["nlp"], query: "agent deploy backend", limit: 10 })}`,
    candidates: `/missions/${mid.id}/candidates?limit=10`,
  };
}

/**
 * Mean latency large / small. Below a millisecond autocannon's means (0.0, 0.1 ms) cannot carry a
 * ratio (the memoised sitemap index read "2.00" from them), so there it is taken from throughput:
 * with a fixed number of connections each waiting for its answer, mean latency is connections /
 * throughput (Little's law), so small req/s / large req/s is the same ratio, resolved.
 */
function latencyRatio(s: Result, l: Result): number {
  if (Math.min(s.latency.mean, l.latency.mean) >= 1) return l.latency.mean / s.latency.mean;
  return s.requests.average / Math.max(1, l.requests.average);
}

/** A route as autocannon options: a path (GET), or `POST <path> <json body>`. */
function requestOf(base: string, p: string) {
  const post = /^POST (\S+) (.*)$/.exec(p);
  return post
    ? { url: base + post[1], method: "POST" as const, body: post[2], headers: { "content-type": "application/json" } }
    : { url: base + p };
}

async function fire(base: string, p: string, connections = cfg.connections): Promise<Result> {
  // One second first, unmeasured: a route's first requests fill the per-instance caches (mission
  // documents, the sitemap index) and warm the JIT; the window then measures the steady state.
  await withTimeout(
    Promise.resolve(autocannon({ ...requestOf(base, p), connections, duration: 1, timeout: 20 })),
    30_000,
    "warm-up",
  );
  const inst = autocannon({ ...requestOf(base, p), connections, duration: cfg.duration, timeout: 20 });
  load.running = inst;
  try {
    return await withTimeout(Promise.resolve(inst), (cfg.duration + 30) * 1000, `autocannon ${p}`);
  } finally {
    load.running = undefined;
  }
}

async function call(base: string, method: string, p: string, token: string | undefined, body?: unknown) {
  const res = await fetch(base + p, {
    method,
    headers: { "content-type": "application/json", ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * 10 creator/solver pairs, each looping create → submit → award for the duration; the step
 * latencies and counts. Sessions are inserted directly (sign-in is not what is measured).
 */
async function writes(db: Database, base: string) {
  const pairs: { creator: { address: string; token: string }; solver: { address: string; token: string } }[] = [];
  for (let w = 0; w < cfg.writers; w++) {
    const mk = async (role: string) => {
      const address = `0x${sha256Hex(`${role}-${w}-${ADMIN}`).slice(0, 40)}`;
      const token = randomToken();
      await db.db.execute(
        sql`insert into auth_sessions (token_hash, agent_id, created_at, expires_at) values (${sha256Hex(token)}, ${address}, now(), now() + interval '1 day')`,
      );
      return { address, token };
    };
    const creator = await mk("creator");
    await call(base, "POST", "/admin/ledger/credit", ADMIN, {
      agent_id: creator.address,
      asset: "USDC",
      amount: "1000000000000000",
    });
    pairs.push({ creator, solver: await mk("solver") });
  }
  // Three phases, each timed on its own (the steps of one closed loop would all show the loop's
  // rate): every writer creates for the duration, then its solver submits to those missions, then
  // the creator awards them. Throughput = completed steps / the phase's wall time.
  const created: string[][] = pairs.map(() => []);
  const submitted: { mission: string; submission: string }[][] = pairs.map(() => []);
  const phase = async (
    key: string,
    step: (w: number, i: number) => Promise<boolean>,
  ): Promise<{ perSec: number; p50: number; p99: number; n: number }> => {
    const lat: number[] = [];
    const t0 = performance.now();
    const until = Date.now() + cfg.duration * 1000;
    await Promise.all(
      pairs.map(async (_, w) => {
        for (let i = 0; Date.now() < until; i++) {
          const t = performance.now();
          if (!(await step(w, i))) break;
          lat.push(performance.now() - t);
        }
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    const sorted = [...lat].sort((x, y) => x - y);
    log(`writes ${key}: ${lat.length} in ${secs.toFixed(1)} s`);
    return {
      perSec: lat.length / secs,
      p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
      p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
      n: lat.length,
    };
  };
  const create = await phase("create", async (w, i) => {
    const m = await call(base, "POST", "/missions", pairs[w]!.creator.token, {
      title: `Bench write ${w}-${i}`,
      description: "A mission created by the scale bench write scenario.",
      reward: { asset: "USDC", amount: "10000000" },
      verification: { type: "creator_judges", params: {} },
      deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      tags: ["bench"],
    });
    created[w]!.push(m.id as string);
    return true;
  });
  const submit = await phase("submit", async (w, i) => {
    const mission = created[w]![i];
    if (!mission) return false;
    const s = await call(base, "POST", `/missions/${mission}/submissions`, pairs[w]!.solver.token, {
      content: `answer ${w}-${i}`,
    });
    submitted[w]!.push({ mission, submission: s.submission_id as string });
    return true;
  });
  const award = await phase("award", async (w, i) => {
    const s = submitted[w]![i];
    if (!s) return false;
    await call(base, "POST", `/missions/${s.mission}/award`, pairs[w]!.creator.token, {
      winners: [{ submission_id: s.submission }],
    });
    return true;
  });
  return { create, submit, award };
}

/** The write floor: the same writers POST a mission-sized body to the baseline's bare INSERT. */
async function bareWrites(baselineBase: string, writers: number): Promise<number> {
  let n = 0;
  const t0 = performance.now();
  const until = Date.now() + cfg.duration * 1000;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; Date.now() < until; i++) {
        await call(baselineBase, "POST", "/write", undefined, {
          title: `Bench write ${w}-${i}`,
          description: "A mission created by the scale bench write scenario.",
          reward: { asset: "USDC", amount: "10000000" },
        });
        n++;
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

/**
 * The sitemap index at the large size against the sitemaps.org limits: every file ≤ 50 000 URLs
 * and ≤ 50 MB, every public mission listed exactly once, every file with a lastmod.
 */
async function checkSitemap(db: Database, base: string): Promise<string> {
  const index = await (await fetch(`${base}/sitemap.xml`, { signal: AbortSignal.timeout(120_000) })).text();
  const files = [...index.matchAll(/<sitemap><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/sitemap>/g)];
  if (files.length === 0 || files.length > 50_000) throw new Error(`sitemap index: ${files.length} files`);
  let urls = 0;
  let maxUrls = 0;
  let maxBytes = 0;
  const seen = new Set<string>();
  for (const [, loc, lastmod] of files) {
    const text = await (
      await fetch(`${base}${new URL(loc!).pathname}`, { signal: AbortSignal.timeout(120_000) })
    ).text();
    const n = (text.match(/<url>/g) ?? []).length;
    // Mission pages are the web board's /m/{id} (src/lib/view-paths.ts).
    for (const m of text.matchAll(/\/m\/(mis_[0-9A-Z]+)</g)) seen.add(m[1]!);
    const bytes = Buffer.byteLength(text);
    if (n > 50_000 || bytes > 52_428_800)
      throw new Error(`${loc}: ${n} URLs, ${bytes} bytes — over the sitemap limits`);
    if (loc!.includes("missions-") && !lastmod) throw new Error(`${loc}: no lastmod`);
    urls += n;
    maxUrls = Math.max(maxUrls, n);
    maxBytes = Math.max(maxBytes, bytes);
  }
  const [c] = rowsOf<{ n: number }>(
    await db.db.execute(sql`select count(*)::int as n from missions where status <> 'pending_escrow'`),
  );
  if (seen.size !== Number(c!.n)) throw new Error(`sitemap lists ${seen.size} distinct missions, ${c!.n} are public`);
  return `sitemap index: ${files.length} files, ${urls} URLs, every public mission once (${seen.size}); largest file ${maxUrls} URLs, ${(maxBytes / 1e6).toFixed(1)} MB — within 50 000 / 50 MB`;
}

async function main() {
  const busy = await machineBusy(2000);
  const t0 = performance.now();
  for (const n of [cfg.small, cfg.large]) await prepare(n);
  const dirs: string[] = [];
  const server = async (n: number) => {
    const port = await freePort();
    const dir = mkdtempSync(path.join(os.tmpdir(), "oabp-scale-"));
    dirs.push(dir);
    const prof = cfg.cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(cfg.cpuProfDir)] : [];
    const child = startChild(`server-${n}`, [...prof, "--import", "tsx", "src/main.ts"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: urlFor(n),
      DATABASE_POOL_MAX: String(cfg.poolMax),
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      OABP_DATA_DIR: dir,
      OABP_LIST_CACHE_BYTES: "0",
      OABP_ADMIN_TOKEN: ADMIN,
      // The buckets stay on (their upsert is part of a write's cost) but with room for the
      // write scenario, whose agents all come from one loopback IP.
      OABP_RATE_LIMIT_WRITE_IP: "9999999/60",
      OABP_RATE_LIMIT_WRITE_AGENT: "9999999/60",
      OABP_RATE_LIMIT_WRITE_NET_AGENTS: "9999999/60",
      OABP_RATE_LIMIT_READ: "9999999/60",
      OABP_READ_INFLIGHT_PER_CALLER: "10000",
    });
    const base = `http://127.0.0.1:${port}`;
    await waitReady(child, `${base}/ready`, 120_000);
    return base;
  };
  try {
    const [small, large] = [await server(cfg.small), await server(cfg.large)];
    const bport = await freePort();
    const baseline = startChild("baseline", ["--import", "tsx", "bench/baseline.ts"], {
      PORT: String(bport),
      HOST: "127.0.0.1",
      DATABASE_URL: urlFor(cfg.large),
      DATABASE_POOL_MAX: String(cfg.poolMax),
      NODE_ENV: "production",
    });
    const baselineBase = `http://127.0.0.1:${bport}`;
    await waitReady(baseline, `${baselineBase}/ready`, 60_000);
    const dbs = [
      await openDatabase({ url: urlFor(cfg.small), poolMax: 2, migrate: false }),
      await openDatabase({ url: urlFor(cfg.large), poolMax: 2, migrate: false }),
    ];
    const [rs, rl] = [await routes(dbs[0]!, cfg.small), await routes(dbs[1]!, cfg.large)];
    for (const k of ["tag_rare", "reward_narrow", "reward_asset", "deadline_window"]) log(`${k}: ${rs[k]} | ${rl[k]}`);
    const lines: string[] = [];
    const b = await fire(baselineBase, rl.get_mission!.replace("/missions/", "/missions/"));
    const baseRps = b.requests.average;
    log(`baseline: ${baseRps.toFixed(0)} req/s`);
    lines.push(
      "| route | small req/s | small mean ms | large req/s | large mean ms | p99 large ms | latency large/small | large vs baseline | non-2xx |",
    );
    lines.push("|:--|--:|--:|--:|--:|--:|--:|--:|--:|");
    // The floor of any 50-mission page on this stack (bench/baseline.ts /page): first and deep.
    const floor = {
      first: (await fire(baselineBase, "/page")).requests.average,
      deep: (await fire(baselineBase, `/page?before=${encodeURIComponent(midIdOf(rl.list_deep!))}`)).requests.average,
    };
    log(`bare 50-row page: ${floor.first.toFixed(0)} / deep ${floor.deep.toFixed(0)} req/s`);
    const vsFloor: string[] = [];
    const ratios: string[] = [];
    const picked = (k: string) => !cfg.routes || cfg.routes.includes(k);
    for (const key of cfg.only === "writes" ? [] : Object.keys(rs).filter(picked)) {
      const s = await fire(small, rs[key]!);
      const l = await fire(large, rl[key]!);
      const ratio = latencyRatio(s, l);
      const bad = s.non2xx + l.non2xx + s.errors + l.errors;
      log(
        `${key}: ${s.requests.average.toFixed(0)} → ${l.requests.average.toFixed(0)} req/s, latency ×${ratio.toFixed(2)}${bad ? `, ${bad} failures` : ""}`,
      );
      lines.push(
        `| ${key} | ${s.requests.average.toFixed(0)} | ${s.latency.mean.toFixed(1)} | ${l.requests.average.toFixed(0)} | ${l.latency.mean.toFixed(1)} | ${l.latency.p99} | ${ratio.toFixed(2)} | ${(l.requests.average / baseRps).toFixed(2)} | ${bad} |`,
      );
      ratios.push(`${key}=${ratio.toFixed(2)}`);
      if (rl[key]!.startsWith("/missions?") && rl[key]!.includes("limit=50"))
        vsFloor.push(`${key}=${(l.requests.average / (key === "list_deep" ? floor.deep : floor.first)).toFixed(2)}`);
    }
    const sitemapLine = await checkSitemap(dbs[1]!, large);
    log(sitemapLine);
    const bare = await bareWrites(baselineBase, cfg.writers);
    log(`bare INSERT baseline: ${bare.toFixed(0)}/s`);
    const w = await writes(dbs[1]!, large);
    const wl = Object.entries(w).map(
      ([k, v]) =>
        `${k}=${(v.perSec / baseRps).toFixed(3)} (${(v.perSec / bare).toFixed(2)}× bare INSERT; ${v.perSec.toFixed(0)}/s, n=${v.n}, p50 ${v.p50.toFixed(0)} ms, p99 ${v.p99.toFixed(0)} ms)`,
    );
    await Promise.all(dbs.map((d) => d.close()));
    await stopAll();
    process.stdout.write(
      [
        "",
        `date: ${new Date().toISOString()}; machine: nproc=${os.availableParallelism()}, cpu="${cpuModel()}", node ${process.version}; CPU busy before start ${busy}`,
        `settings: small=${cfg.small}, large=${cfg.large}, connections=${cfg.connections}, duration=${cfg.duration}s, pool=${cfg.poolMax}, writers=${cfg.writers}, list cache off`,
        `baseline GET /missions/{id} at ${cfg.large}: ${baseRps.toFixed(0)} req/s`,
        "",
        ...lines,
        "",
        `bare 50-row page on the baseline (/page, prepared, c.json): first ${floor.first.toFixed(0)} req/s = ${(floor.first / baseRps).toFixed(2)}× the read baseline, deep ${floor.deep.toFixed(0)} req/s = ${(floor.deep / baseRps).toFixed(2)}×`,
        `list pages at ${cfg.large} against that floor: ${vsFloor.join(" ") || "(reads skipped)"}`,
        sitemapLine,
        `bare INSERT baseline (${cfg.writers} writers, POST /write on the baseline): ${bare.toFixed(0)}/s = ${(bare / baseRps).toFixed(3)}× the read baseline`,
        `writes (${cfg.writers} concurrent pairs, ratio of step throughput to the read baseline): ${wl.join("; ")}`,
        `total time: ${((performance.now() - t0) / 1000).toFixed(0)} s`,
        `bench-scale: ${ratios.join(" ")}`,
        "",
      ].join("\n"),
    );
  } finally {
    await stopAll();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  async (e: unknown) => {
    log(
      `error: ${e instanceof Error ? `${e.message.slice(0, 400)} ${(e.cause as Error | undefined)?.message ?? ""}` : String(e)}`,
    );
    await stopAll().catch(() => {});
    process.exit(1);
  },
);
