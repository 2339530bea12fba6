import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import postgres from "postgres";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { HIGH_RATE_LIMITS } from "./rate-limits";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const E2E_ADMIN = "e2e-admin-token-0123456789abcdef";
export const E2E_PUBLIC_URL = "https://oabp-e2e.test";

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  exited: Promise<number | null>;
}

/** Node arguments that run a built entry as its npm script does (package.json: start, worker, guardian). */
export const BUILT_ENTRY = (name: "main" | "worker" | "guardian") => [
  "--enable-source-maps",
  "scripts/start.mjs",
  name,
];

/**
 * Boots the real process on a free loopback port; resolves once it listens. As `npm start` runs
 * it, from the build (the e2e project's global setup rebuilds it when stale: docs/testing.md
 * "Spawned processes run the build").
 */
export function startServer(
  env: Record<string, string>,
  opts: { startTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  const args = BUILT_ENTRY("main");
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // Rate limits high unless a test sets its own (test/process/rate-limit-processes.e2e.test.ts does).
    // Appeals off unless a test turns them on: most flows expect an award to pay at once (as makeTestApp).
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      OABP_ADMIN_TOKEN: E2E_ADMIN,
      OABP_PUBLIC_URL: E2E_PUBLIC_URL,
      OABP_APPEAL_DEFAULT: "off",
      ...HIGH_RATE_LIMITS,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // Generous: on a loaded 2-core CI machine a start (tsx, before the build) has taken > 40 s.
    const limit = opts.startTimeoutMs ?? 120_000;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start within ${limit / 1000} s`));
    }, limit);
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    void exited.then((code) => reject(new Error(`server exited early (${code}): ${stderr}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      try {
        const log = JSON.parse(line);
        if (log.msg === "oabp server listening") {
          clearTimeout(timer);
          resolve({ child, port: log.port, base: `http://127.0.0.1:${log.port}`, exited });
        }
      } catch {
        /* not JSON */
      }
    });
  });
}

/** A fresh database on the server named by DATABASE_URL, for a process-level test. */
export async function freshPostgresDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const u = new URL(process.env.DATABASE_URL!);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** One JSON request to a spawned server over real HTTP: status, raw text and the parsed body. */
export async function httpCall(
  base: string,
  method: string,
  p: string,
  body?: unknown,
  token?: string,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { ...extra };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, body: (text ? JSON.parse(text) : undefined) as any };
}

/**
 * SIWE sign-in against a spawned server (chain 8453): a fresh account unless one is given, for the
 * server's public URL (E2E_PUBLIC_URL unless the server was started with its own, as a hub is).
 */
export async function httpSignIn(
  base: string,
  opts: { account?: PrivateKeyAccount; publicUrl?: string } = {},
): Promise<{ token: string; address: string; account: PrivateKeyAccount }> {
  const account = opts.account ?? privateKeyToAccount(generatePrivateKey());
  const publicUrl = opts.publicUrl ?? E2E_PUBLIC_URL;
  const { nonce } = (await httpCall(base, "POST", "/auth/nonce")).body;
  const message = createSiweMessage({
    address: account.address,
    chainId: 8453,
    domain: new URL(publicUrl).host,
    nonce,
    uri: publicUrl,
    version: "1",
  });
  const r = await httpCall(base, "POST", "/auth/siwe", { message, signature: await account.signMessage({ message }) });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.text}`);
  return { token: r.body.token as string, address: account.address.toLowerCase(), account };
}

/** A server process reached at its own public URL, with its own data directory and database. */
export interface Hub {
  proc: ServerProcess;
  /** `http://host:port`: where it listens and its OABP_PUBLIC_URL (its manifest, SIWE domain, issuer). */
  base: string;
  dataDir: string;
  /** Ends the process (SIGTERM), drops its Postgres database, removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Boots a second (or third) server as another operator would run it, for tests across servers
 * (AIP-3 attestations, AIP-4 §7 filers): on `host`:`port`, public at that address, its keys
 * generated into a fresh data directory, on a fresh Postgres database when DATABASE_URL is set
 * (else its own embedded one).
 */
export async function startHub(opts: {
  host: string;
  port: number;
  /** Names the data directory and the database. */
  prefix: string;
  env?: Record<string, string>;
}): Promise<Hub> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `${opts.prefix}-`));
  const base = `http://${opts.host}:${opts.port}`;
  const env: Record<string, string> = {
    OABP_DATA_DIR: dataDir,
    HOST: opts.host,
    PORT: String(opts.port),
    OABP_PUBLIC_URL: base,
    DATABASE_URL: "",
    ...opts.env,
  };
  const fresh = process.env.DATABASE_URL ? await freshPostgresDatabase(opts.prefix.replace(/\W/g, "_")) : undefined;
  if (fresh) env.DATABASE_URL = fresh.url;
  // A loaded machine can take well over 30 s to start a process (tsx + migrations).
  const proc = await startServer(env, { startTimeoutMs: 150_000 });
  return {
    proc,
    base,
    dataDir,
    async stop() {
      if (proc.child.exitCode === null) {
        proc.child.kill("SIGTERM");
        await proc.exited;
      }
      await fresh?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Ends a spawned server (SIGTERM) unless it has already exited. */
export async function stopServer(p: ServerProcess): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGTERM");
  await p.exited;
}

/** Background job rounds a spawned server has run, all jobs and results (its oabp_job_runs_total). */
export async function jobRounds(base: string): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${E2E_ADMIN}` } });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  let n = 0;
  for (const m of (await res.text()).matchAll(/^oabp_job_runs_total\{[^}]*\} (\d+)/gm)) n += Number(m[1]);
  return n;
}

/**
 * Waits until each server has run `rounds` more job rounds than when called: "the job loops
 * tick a few more times", as a condition to poll instead of a sleep.
 */
export async function afterJobRounds(bases: string[], rounds = 3, limitMs = 60_000): Promise<void> {
  const start = await Promise.all(bases.map(jobRounds));
  for (const end = Date.now() + limitMs; ; await new Promise((r) => setTimeout(r, 50))) {
    const now = await Promise.all(bases.map(jobRounds));
    if (now.every((n, i) => n >= start[i]! + rounds)) return;
    if (Date.now() > end) throw new Error(`job loops ran ${JSON.stringify(now)} rounds, from ${JSON.stringify(start)}`);
  }
}
