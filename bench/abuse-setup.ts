// What every abuse scenario (bench/abuse.ts) sets up: the bench database, sign-in and a funded
// mission through the API, and the real server process with its peak memory.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { recreateDatabase } from "./harness";

export const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/oabp_bench_abuse";
export const ADMIN = "bench-admin-token-0123456789abcdef";

export async function freshDatabase(): Promise<string> {
  await recreateDatabase(DB_URL);
  return DB_URL;
}

export type Call = (
  method: string,
  p: string,
  o?: { token?: string; body?: unknown },
) => Promise<{ status: number; body: any }>;

export async function signIn(call: Call, publicUrl: string) {
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

export async function openMission(call: Call, publicUrl: string) {
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

export function peakRssMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/**
 * The real server process (src/main.ts) on a random loopback port, on its production defaults
 * plus `env`, once it answers GET /ready; `call` speaks to it over HTTP.
 */
export async function startServer(env: Record<string, string> = {}) {
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
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stop = () => server.kill("SIGTERM");
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
  } catch (e) {
    stop();
    throw e;
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
  return { publicUrl, call, pid: server.pid!, stop };
}

/** A child's script: reads its URL one request at a time until stdin ends; prints the 200s' latencies (ms). */
export const LATENCY_READER = `
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

/** One submission POSTed as it is: its status, 0 when the connection failed. */
export const postSubmission = (publicUrl: string, missionId: string, token: string, body: string) =>
  fetch(`${publicUrl}/missions/${missionId}/submissions`, {
    method: "POST",
    body,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
  }).then(
    async (r) => (await r.arrayBuffer(), r.status),
    () => 0,
  );
