// /health during a burst (docs/operations.md "Probes"): `npm run bench:health`. Real PostgreSQL.
//
// The real server process (src/main.ts) on its defaults; 100 agents each send 4 concurrent ~1 MiB
// submissions (400 at once) while a separate reader process asks GET /health one request at a
// time until the burst is answered. Prints the probe's p50 / p99 / max and the burst's statuses.
// The figure is a measurement, not a test: it depends on the machine (bench/README.md).
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/oabp_bench_health) is dropped and
// recreated; it must contain "bench".
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { recreateDatabase } from "./harness";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/oabp_bench_health";
const ADMIN = "bench-admin-token-0123456789abcdef";
const AGENTS = 100;
const EACH = 4;

/** Reads its URL one request at a time until stdin ends; prints the latencies (ms) of its 200s. */
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

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

async function main() {
  await recreateDatabase(DB_URL);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: DB_URL,
      PORT: String(port),
      HOST: "127.0.0.1",
      OABP_PUBLIC_URL: base,
      OABP_ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      OABP_DATA_DIR: await mkdtemp(path.join(tmpdir(), "oabp-bench-")),
      // One machine plays 100 agents: the per-network write and sign-in buckets are lifted (as
      // bench/abuse.ts "crowd" does); the in-flight byte caps stay on their defaults.
      OABP_RATE_LIMIT_WRITE_IP: "100000/60",
      OABP_RATE_LIMIT_WRITE_NET_AGENTS: "100000/60",
      OABP_RATE_LIMIT_SESSION_IP: "100000/60",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    for (
      let i = 0;
      !(await fetch(`${base}/ready`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 900) throw new Error("server not ready");
      await new Promise((r) => setTimeout(r, 200));
    }
    const call = async (method: string, p: string, o: { token?: string; body?: unknown } = {}) => {
      const res = await fetch(`${base}${p}`, {
        method,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
        headers: {
          ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
          ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
        },
      });
      return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
    };
    const signIn = async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const nonce = (await call("POST", "/auth/nonce")).body.nonce as string;
      const message = createSiweMessage({
        address: account.address,
        chainId: 8453,
        domain: new URL(base).host,
        nonce,
        uri: base,
        version: "1",
        issuedAt: new Date(),
      });
      const r = await call("POST", "/auth/siwe", {
        body: { message, signature: await account.signMessage({ message }) },
      });
      if (r.status !== 200) throw new Error(`sign-in ${r.status}`);
      return { token: r.body.token as string, address: account.address.toLowerCase() };
    };
    const creator = await signIn();
    await call("POST", "/admin/ledger/credit", {
      token: ADMIN,
      body: { agent_id: creator.address, asset: "USDC", amount: "1000000000" },
    });
    const m = await call("POST", "/missions", {
      token: creator.token,
      body: {
        title: "bench",
        description: "bench",
        reward: { asset: "USDC", amount: "10000000" },
        verification: { type: "creator_judges", params: {} },
        deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      },
    });
    if (m.status !== 201) throw new Error(`mission ${m.status}`);
    const agents = [];
    for (let i = 0; i < AGENTS; i++) agents.push(await signIn());
    const reader = spawn(process.execPath, ["-e", READER, `${base}/health`], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    reader.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const done = new Promise<void>((r) => reader.on("exit", () => r()));
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    const statuses = await Promise.all(
      agents.flatMap((a, i) =>
        Array.from({ length: EACH }, (_, j) => {
          const body = JSON.stringify({
            content_uri: `data:application/octet-stream;base64,${Buffer.alloc(740_000, i * EACH + j).toString("base64")}`,
          });
          return fetch(`${base}/missions/${m.body.id}/submissions`, {
            method: "POST",
            body,
            headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" },
          }).then(
            async (r) => (await r.arrayBuffer(), r.status),
            () => 0,
          );
        }),
      ),
    );
    const ms = performance.now() - started;
    reader.stdin.end();
    await done;
    const xs = JSON.parse(out) as number[];
    const codes: Record<string, number> = {};
    for (const s of statuses) codes[s] = (codes[s] ?? 0) + 1;
    process.stdout.write(
      `health: ${AGENTS} agents × ${EACH} concurrent ~1 MiB submissions in ${ms.toFixed(0)} ms → ${JSON.stringify(codes)}; GET /health during the burst: ${xs.length} probes, p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms\n`,
    );
  } finally {
    server.kill("SIGTERM");
  }
}

await main();
