import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";
import { ROOT, freshPostgresDatabase } from "../helpers/process";

// docs/operations.md "Metrics": the real `npm run worker` process serves its own GET /health and
// GET /metrics on OABP_WORKER_PORT — the settlement rounds it runs, the base rail's state and the
// escrow gauges (resolver gas balance, rail availability) — and nothing else.

let chain: EscrowChain;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  chain = await startEscrowChain();
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await chain?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}
async function get(url: string, token?: string) {
  try {
    const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    return { status: res.status, text: await res.text() };
  } catch {
    return null; // not listening yet
  }
}

describe("npm run worker: its own /health and /metrics (real process)", () => {
  it("answers /health with its rounds and the rail's state, /metrics with the escrow gauges", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "oabp-worker-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    let url = "";
    if (onRealPostgres) {
      const db = await freshPostgresDatabase("oabp_worker_http");
      cleanups.push(db.drop);
      url = db.url;
    }
    const port = await freePort();
    const child: ChildProcess = spawn("npm", ["run", "--silent", "worker"], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...chain.env(),
        HOST: "127.0.0.1",
        OABP_WORKER_PORT: String(port),
        OABP_DATA_DIR: dir,
        DATABASE_URL: url,
        OABP_JOB_INTERVAL_MS: "200",
        OABP_METRICS_TOKEN: "worker-metrics-token-0123456789",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group: npm and the node process under it stop together
    });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
      await exited;
    });
    const base = `http://127.0.0.1:${port}`;
    let health = null;
    for (const end = Date.now() + 120_000; ; await sleep(200)) {
      health = await get(`${base}/health`);
      if (health?.status === 200) break;
      if (child.exitCode !== null || Date.now() > end)
        throw new Error(`worker /health not ok (${health?.status} ${health?.text}): ${stderr}`);
    }
    const body = JSON.parse(health.text);
    expect(body).toMatchObject({ status: "ok", signs: true, last_error: null, base_rail: { available: true } });

    expect((await get(`${base}/metrics`))!.status).toBe(401); // the metrics token is required
    const metrics = (await get(`${base}/metrics`, "worker-metrics-token-0123456789"))!;
    expect(metrics.status, metrics.text).toBe(200);
    expect(metrics.text).toMatch(/oabp_base_rail_available\{chain_id="8453",reason=""\} 1/);
    const gas = /oabp_resolver_gas_balance_wei\{[^}]*resolver="(0x[0-9a-f]{40})"[^}]*\} (\d+)/.exec(metrics.text);
    expect(gas?.[1]).toBe(chain.resolver.address.toLowerCase());
    expect(BigInt(gas![2]!)).toBe(await chain.ethBalance(chain.resolver.address));
    expect(metrics.text).toContain("oabp_queue_depth");
    expect((await get(`${base}/missions`))!.status).toBe(404); // nothing else is served

    process.kill(-child.pid!, "SIGTERM");
    await exited; // it stops on SIGTERM (after the round in progress)
    expect(child.exitCode !== null || child.signalCode !== null).toBe(true);
  }, 240_000);
});
