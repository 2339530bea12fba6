// And edge bench figures (docs/abuse.md): `npm run bench:abuse`. Real PostgreSQL.
//
// checks (docs/abuse.md "Resolver"): 75 submissions whose names never resolve (a real
//   local UDP DNS server that swallows their queries, reached through OABP_DNS_SERVERS by the
//   production c-ares resolver), then one honest deliverable on a loopback server: wall time from
//   the start of the check loop until the honest one is checked, with the default pipeline
//   settings (32 workers, 2 s DNS+connect, 1.5 s DNS, 2 per host). Two shapes: 75 subdomains of
//   one domain; 75 names over 10 domains.
// memory: the real server process (src/main.ts); 400 concurrent identical ~1 MiB
//   submissions from one agent; peak RSS of the server (VmHWM) before and after.
// crowd — 200 agents × 4 concurrent ~1 MiB submissions against the process-wide in-flight cap;
//   server RSS before / peak / after and the p99 of honest reads during the flood.
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/oabp_bench_abuse) is dropped and
// recreated; it must contain "bench".
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import pino from "pino";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { generateSigner } from "../src/lib/attestation-key";
import { createApp } from "../src/app";
import { openDatabase } from "../src/db/client";
import type { Deps } from "../src/deps";
import { parseEnv } from "../src/env";
import { createEvmPort, createOracleReader } from "../src/lib/evm";
import { ManualClock } from "../src/lib/clock";
import { createSafeFetcher } from "../src/lib/safe-fetch";
import { missionListCache } from "../src/features/missions/missions.cache";
import { generateKeyring } from "../src/lib/receipt-keys";
import { runPendingChecks } from "../src/jobs/checks";
import { sha256Hex } from "../src/lib/hash";
import { startDnsServer } from "../test/helpers/dns-server";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/oabp_bench_abuse";
const ADMIN = "bench-admin-token-0123456789abcdef";

async function freshDatabase(): Promise<string> {
  const u = new URL(DB_URL);
  const name = u.pathname.slice(1);
  if (!name.includes("bench")) throw new Error(`refusing to drop ${name}: the name must contain "bench"`);
  const admin = postgres({
    host: u.hostname,
    port: Number(u.port || 5432),
    user: u.username || "postgres",
    database: "postgres",
    onnotice: () => {},
  });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  return DB_URL;
}

type Call = (
  method: string,
  p: string,
  o?: { token?: string; body?: unknown },
) => Promise<{ status: number; body: any }>;

async function signIn(call: Call, publicUrl: string) {
  const account = privateKeyToAccount(generatePrivateKey());
  const nonce = (await call("POST", "/auth/nonce")).body.nonce as string;
  const message = createSiweMessage({
    address: account.address,
    chainId: 8453,
    domain: new URL(publicUrl).host,
    nonce,
    uri: publicUrl,
    version: "1",
    issuedAt: new Date(),
  });
  const r = await call("POST", "/auth/siwe", { body: { message, signature: await account.signMessage({ message }) } });
  if (r.status !== 200) throw new Error(`sign-in ${r.status} ${JSON.stringify(r.body)}`);
  return { token: r.body.token as string, address: account.address.toLowerCase() };
}

async function openMission(call: Call, publicUrl: string) {
  const creator = await signIn(call, publicUrl);
  await call("POST", "/admin/ledger/credit", {
    token: ADMIN,
    body: { agent_id: creator.address, asset: "USDC", amount: "1000000000" },
  });
  const r = await call("POST", "/missions", {
    token: creator.token,
    body: {
      title: "bench",
      description: "bench mission",
      reward: { asset: "USDC", amount: "10000000" },
      verification: { type: "creator_judges", params: {} },
      deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    },
  });
  if (r.status !== 201) throw new Error(`mission ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

async function checksScenario(shape: "one_domain" | "ten_domains"): Promise<number> {
  const dns = await startDnsServer({ records: { "honest.example": "127.0.0.2" }, tarpit: (n) => n.includes("never") });
  const database = await openDatabase({ url: await freshDatabase(), poolMax: 10 });
  const config = parseEnv({
    OABP_PUBLIC_URL: "http://bench.test",
    OABP_ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: "silent",
    DATABASE_URL: DB_URL,
    OABP_DNS_SERVERS: dns.address,
    // Every Sybil signs in from this one process: room for them (what is measured is the pipeline).
    OABP_RATE_LIMIT_SESSION_IP: "100000/60",
    OABP_RATE_LIMIT_WRITE_IP: "100000/60",
    OABP_RATE_LIMIT_WRITE_NET_AGENTS: "100000/60",
  });
  const honestServer = http.createServer((_q, s) => s.end("honest"));
  const port = await new Promise<number>((r) =>
    honestServer.listen(0, "127.0.0.2", () => r((honestServer.address() as AddressInfo).port)),
  );
  const clock = new ManualClock(new Date());
  const deps: Deps = {
    config,
    database,
    clock,
    logger: pino({ level: "silent" }),
    evm: createEvmPort(undefined),
    oracle: createOracleReader(undefined),
    chain: null,
    adminToken: ADMIN,
    receiptKeys: generateKeyring(clock.now()),
    attestation: generateSigner(),
    missionLists: await missionListCache(database, 0),
    // The production fetcher and resolver with their defaults (as deps.build.ts builds them);
    // only the loopback allowance for the honest server is the bench's.
    fetcher: createSafeFetcher({
      allowAddress: (ip) => ip === "127.0.0.2",
      dns: { servers: config.abuse.dnsServers },
      now: () => clock.now().getTime(),
    }),
  };
  const app = createApp(deps);
  const call: Call = async (method, p, o = {}) => {
    const body = o.body === undefined ? undefined : JSON.stringify(o.body);
    const res = await app.request(p, {
      method,
      body,
      headers: {
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        ...(body ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } : {}),
      },
    });
    return { status: res.status, body: await res.json().catch(() => undefined) };
  };
  const missionId = await openMission(call, config.publicUrl);
  for (let i = 0; i < 75; i++) {
    clock.set(new Date()); // SIWE issuedAt is wall time: keep the server's clock with it
    const a = await signIn(call, config.publicUrl);
    const host = shape === "one_domain" ? `j${i}.sybil-never.example` : `j${i}.never${i % 10}.example`;
    await call("POST", `/missions/${missionId}/submissions`, {
      token: a.token,
      body: { content_uri: `https://${host}/x`, content_hash: `sha256:${sha256Hex(String(i))}` },
    });
  }
  clock.set(new Date());
  const h = await signIn(call, config.publicUrl);
  const honest = (
    await call("POST", `/missions/${missionId}/submissions`, {
      token: h.token,
      body: { content_uri: `http://honest.example:${port}/ok`, content_hash: `sha256:${sha256Hex("honest")}` },
    })
  ).body.id as string;
  const started = performance.now();
  let checkedAt = 0;
  const pg = postgres(DB_URL, { max: 1, onnotice: () => {} });
  const poll = setInterval(async () => {
    const [row] = await pg`select check_result from submissions where id = ${honest}`.catch(() => [] as never[]);
    if (row?.check_result && !checkedAt) checkedAt = performance.now() - started;
  }, 50);
  while (!checkedAt && performance.now() - started < 120_000) {
    await runPendingChecks(deps);
    clock.advance(1000);
    await new Promise((r) => setTimeout(r, 100));
  }
  clearInterval(poll);
  await pg.end();
  honestServer.close();
  await dns.close();
  await database.close();
  return checkedAt;
}

function peakRssMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

async function memoryScenario(n = 400) {
  await freshDatabase();
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const publicUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: DB_URL,
      PORT: String(port),
      HOST: "127.0.0.1",
      OABP_PUBLIC_URL: publicUrl,
      OABP_ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      OABP_DATA_DIR: await mkdtemp(path.join(tmpdir(), "oabp-bench-")),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    for (let i = 0; ; i++) {
      if (
        await fetch(`${publicUrl}/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 900) throw new Error("server not ready"); // 3 min: tsx start-up on a loaded machine
      await new Promise((r) => setTimeout(r, 200));
    }
    const call: Call = async (method, p, o = {}) => {
      const res = await fetch(`${publicUrl}${p}`, {
        method,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
        headers: {
          ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
          ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
        },
      });
      return { status: res.status, body: await res.json().catch(() => undefined) };
    };
    const missionId = await openMission(call, publicUrl);
    const agent = await signIn(call, publicUrl);
    const before = peakRssMb(server.pid!);
    const body = JSON.stringify({
      content_uri: `data:application/octet-stream;base64,${Buffer.alloc(740_000, 7).toString("base64")}`,
    });
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: n }, () =>
        fetch(`${publicUrl}/missions/${missionId}/submissions`, {
          method: "POST",
          body,
          headers: { authorization: `Bearer ${agent.token}`, "content-type": "application/json" },
        }).then(
          async (r) => (await r.arrayBuffer(), r.status),
          () => 0,
        ),
      ),
    );
    const ms = performance.now() - started;
    const after = peakRssMb(server.pid!);
    const count = (s: number) => statuses.filter((x) => x === s).length;
    return {
      n,
      bodyBytes: body.length,
      beforeMb: before.hwm,
      peakMb: after.hwm,
      deltaMb: after.hwm - before.hwm,
      ms,
      s201: count(201),
      s409: count(409),
      s429: count(429),
      s503: count(503),
      other: statuses.filter((s) => ![201, 409, 429, 503].includes(s)).length,
    };
  } finally {
    server.kill("SIGTERM");
  }
}

/**
 * In-flight request bytes (docs/abuse.md "In-flight request bytes"): the real server process on its defaults
 * (the process cap 16 MiB, 4 MiB per caller); 200 agents each send 4 concurrent ~1 MiB
 * submissions (800 at once) while an honest reader reads GET /missions/{id} one at a time until the
 * flood is answered. RSS of the server before, its peak (VmHWM), the honest reads' p99, and the
 * peak bytes admitted from the exported gauge.
 */
/** Reads its URL one request at a time until stdin ends; prints the 200s' latencies (ms). */
const READER = `
const xs = []; let stop = false;
process.stdin.on("end", () => (stop = true)); process.stdin.resume();
(async () => {
  while (!stop || xs.length < 50) {
    const t0 = performance.now();
    try { const r = await fetch(process.argv[1]); await r.arrayBuffer(); if (r.status === 200) xs.push(performance.now() - t0); } catch {}
  }
  process.stdout.write(JSON.stringify(xs));
  process.exit(0);
})();`;

async function crowdScenario(agents = 200, each = 4) {
  await freshDatabase();
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const publicUrl = `http://127.0.0.1:${port}`;
  const metricsToken = "bench-metrics-token-0123456789abcdef";
  const server = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: DB_URL,
      PORT: String(port),
      HOST: "127.0.0.1",
      OABP_PUBLIC_URL: publicUrl,
      OABP_ADMIN_TOKEN: ADMIN,
      OABP_METRICS_TOKEN: metricsToken,
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      OABP_DATA_DIR: await mkdtemp(path.join(tmpdir(), "oabp-bench-")),
      // 200 sign-ins and their writes come from one address here (many in the attack): room for them.
      OABP_RATE_LIMIT_WRITE_IP: "100000/60",
      OABP_RATE_LIMIT_WRITE_NET_AGENTS: "100000/60",
      OABP_RATE_LIMIT_SESSION_IP: "100000/60",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    for (let i = 0; ; i++) {
      if (
        await fetch(`${publicUrl}/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 900) throw new Error("server not ready"); // 3 min: tsx start-up on a loaded machine
      await new Promise((r) => setTimeout(r, 200));
    }
    const call: Call = async (method, p, o = {}) => {
      const res = await fetch(`${publicUrl}${p}`, {
        method,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
        headers: {
          ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
          ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
        },
      });
      return { status: res.status, body: await res.json().catch(() => undefined) };
    };
    const missionId = await openMission(call, publicUrl);
    const crowd: { token: string }[] = [];
    for (let i = 0; i < agents; i++) crowd.push(await signIn(call, publicUrl));
    // One body per slot (4 distinct deliverables, ~0.94 MiB each); the client keeps 4 strings.
    const bodies = Array.from({ length: each }, (_, k) =>
      JSON.stringify({
        content_uri: `data:application/octet-stream;base64,${Buffer.alloc(740_000, k + 1).toString("base64")}`,
      }),
    );
    const before = peakRssMb(server.pid!);
    // The honest reader is its own process: in this one, 800 uploads would delay its own reads.
    const reader = spawn(process.execPath, ["-e", READER, `${publicUrl}/missions/${missionId}`], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    reader.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const readerDone = new Promise<void>((r) => reader.on("exit", () => r()));
    const started = performance.now();
    const statuses = await Promise.all(
      crowd.flatMap((a) =>
        bodies.map((body) =>
          fetch(`${publicUrl}/missions/${missionId}/submissions`, {
            method: "POST",
            body,
            headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" },
          }).then(
            async (r) => (await r.arrayBuffer(), r.status),
            () => 0,
          ),
        ),
      ),
    );
    const ms = performance.now() - started;
    reader.stdin.end();
    await readerDone;
    const reads = JSON.parse(out) as number[];
    const after = peakRssMb(server.pid!);
    const scrape = await (
      await fetch(`${publicUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    ).text();
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(scrape)?.[1] ?? NaN);
    const sorted = [...reads].sort((a, b) => a - b);
    const codes = new Map<number, number>();
    for (const s of statuses) codes.set(s, (codes.get(s) ?? 0) + 1);
    return {
      n: statuses.length,
      bodyBytes: bodies[0]!.length,
      rssBeforeMb: before.rss,
      peakMb: after.hwm,
      rssAfterMb: after.rss,
      deltaMb: after.hwm - before.rss,
      ms,
      reads: reads.length,
      p50: sorted[Math.floor(sorted.length / 2)]!,
      p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!,
      maxRead: sorted[sorted.length - 1]!,
      peakInflightMb: gauge("oabp_request_bytes_in_flight_peak") / (1024 * 1024),
      codes: Object.fromEntries(codes),
    };
  } finally {
    server.kill("SIGTERM");
  }
}

/**
 * Honest reads under a flood (docs/abuse-edge.md "Read limits", docs/events.md "Inbox"): the real server process
 * on its defaults; 300 missions of other creators (events in the outbox); honest reads
 * (GET /missions/{id}, one at a time) idle, then while one agent keeps 50 inbox reads in flight.
 */
async function inboxScenario(samples = 300) {
  await freshDatabase();
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const publicUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: DB_URL,
      PORT: String(port),
      HOST: "127.0.0.1",
      OABP_PUBLIC_URL: publicUrl,
      OABP_ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      OABP_DATA_DIR: await mkdtemp(path.join(tmpdir(), "oabp-bench-")),
      // Set-up writes and sign-ins come from one address: room for them (reads keep their defaults).
      OABP_RATE_LIMIT_WRITE_IP: "100000/60",
      OABP_RATE_LIMIT_WRITE_AGENT: "100000/60",
      OABP_RATE_LIMIT_WRITE_NET_AGENTS: "100000/60",
      OABP_RATE_LIMIT_SESSION_IP: "100000/60",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    for (let i = 0; ; i++) {
      if (
        await fetch(`${publicUrl}/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 900) throw new Error("server not ready"); // 3 min: tsx start-up on a loaded machine
      await new Promise((r) => setTimeout(r, 200));
    }
    const call: Call = async (method, p, o = {}) => {
      const res = await fetch(`${publicUrl}${p}`, {
        method,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
        headers: {
          ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
          ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
        },
      });
      return { status: res.status, body: await res.json().catch(() => undefined) };
    };
    let missionId = "";
    for (let i = 0; i < 300; i++) missionId = await openMission(call, publicUrl);
    const attacker = await signIn(call, publicUrl);
    const read = async () => {
      const t0 = performance.now();
      const r = await fetch(`${publicUrl}/missions/${missionId}`);
      await r.arrayBuffer();
      return performance.now() - t0;
    };
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const idle: number[] = [];
    for (let i = 0; i < samples; i++) idle.push(await read());
    let stop = false;
    const codes = new Map<string, number>();
    const flood = async () => {
      while (!stop) {
        const r = await fetch(`${publicUrl}/agents/me/inbox?limit=100`, {
          headers: { authorization: `Bearer ${attacker.token}` },
        }).catch(() => undefined);
        const status = r?.status ?? 0;
        const reason = status === 429 ? ((await r!.json().catch(() => undefined)) as any)?.details?.reason : undefined;
        if (status !== 429) await r?.arrayBuffer();
        const key = reason ? `429 ${reason}` : String(status);
        codes.set(key, (codes.get(key) ?? 0) + 1);
      }
    };
    const flooders = Array.from({ length: 50 }, flood);
    // Burst: the flood's first seconds, while the agent still spends its full read bucket.
    const burst: number[] = [];
    for (let i = 0; i < samples; i++) burst.push(await read());
    // Steady state: once the agent's bucket is spent (its first token refusal), the flood goes on.
    for (let i = 0; i < 1200 && !codes.has("429 rate_limited"); i++) await new Promise((r) => setTimeout(r, 100));
    const steady: number[] = [];
    for (let i = 0; i < samples; i++) steady.push(await read());
    stop = true;
    await Promise.all(flooders);
    // Idle again after the flood: the spread between the two idle figures is the machine's noise.
    const after: number[] = [];
    for (let i = 0; i < samples; i++) after.push(await read());
    return {
      idleP50: p50(idle),
      afterP50: p50(after),
      burstP50: p50(burst),
      steadyP50: p50(steady),
      codes: Object.fromEntries(codes),
    };
  } finally {
    server.kill("SIGTERM");
  }
}

const fmt = (n: number) => n.toFixed(0);
const only = process.env.BENCH_SCENARIO;
if (!only || only === "checks") {
  for (const shape of ["one_domain", "ten_domains"] as const) {
    const ms = await checksScenario(shape);
    console.log(
      `checks/${shape}: honest deliverable checked ${ms ? `after ${fmt(ms)} ms` : "NOT within 120 s"} behind 75 never-resolving names (real DNS server, c-ares)`,
    );
  }
}
if (!only || only === "memory") {
  const m = await memoryScenario();
  console.log(
    `memory: ${m.n} concurrent identical ${fmt(m.bodyBytes / 1024)} KiB submissions from one agent in ${fmt(m.ms)} ms → 201×${m.s201} 409×${m.s409} 429×${m.s429} 503×${m.s503} other×${m.other}; server peak RSS ${fmt(m.beforeMb)} → ${fmt(m.peakMb)} MB (+${fmt(m.deltaMb)} MB)`,
  );
}
if (!only || only === "crowd") {
  const m = await crowdScenario();
  console.log(
    `crowd: 200 agents × 4 concurrent ${fmt(m.bodyBytes / 1024)} KiB submissions (${m.n}) in ${fmt(m.ms)} ms → ${JSON.stringify(m.codes)}; server RSS ${fmt(m.rssBeforeMb)} MB before, peak ${fmt(m.peakMb)} MB (+${fmt(m.deltaMb)} MB), ${fmt(m.rssAfterMb)} MB after; peak request bytes in flight ${m.peakInflightMb.toFixed(1)} MiB; honest GET /missions/{id} during the flood: ${m.reads} reads, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, max ${m.maxRead.toFixed(1)} ms`,
  );
}
if (!only || only === "inbox") {
  const m = await inboxScenario();
  console.log(
    `inbox: honest GET /missions/{id} p50 idle ${m.idleP50.toFixed(1)} ms → ${m.burstP50.toFixed(1)} ms (×${(m.burstP50 / m.idleP50).toFixed(2)}) in the flood's burst (agent's read bucket full), ${m.steadyP50.toFixed(1)} ms (×${(m.steadyP50 / m.idleP50).toFixed(2)}) once its bucket is spent, while one agent keeps 50 inbox reads in flight; its answers ${JSON.stringify(m.codes)}; idle again after the flood ${m.afterP50.toFixed(1)} ms`,
  );
}
process.exit(0);
