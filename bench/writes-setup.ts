// What the write scenarios (bench/writes.ts, bench/scale.ts) share: the server they drive, its
// env, a JSON call that throws on a failed status, sessions inserted directly (sign-in is not what
// is measured) and the mission body they create.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "../src/db/client";
import { randomToken, sha256Hex } from "../src/lib/hash";
import { freePort, startChild, waitReady } from "./harness";

/** Server env for the write scenario: rate-limit buckets on (their cost is a write's) but roomy. */
export const WRITE_SERVER_ENV = {
  OABP_RATE_LIMIT_WRITE_IP: "9999999/60",
  OABP_RATE_LIMIT_WRITE_AGENT: "9999999/60",
  OABP_RATE_LIMIT_WRITE_NET_AGENTS: "9999999/60",
  OABP_RATE_LIMIT_READ: "9999999/60",
  OABP_READ_INFLIGHT_PER_CALLER: "10000",
};

export async function call(base: string, method: string, p: string, token: string | undefined, body?: unknown) {
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

/** A session for `address`, inserted directly: its bearer token. */
export async function insertSession(db: Database, address: string): Promise<string> {
  const token = randomToken();
  await db.db.execute(
    sql`insert into auth_sessions (token_hash, agent_id, created_at, expires_at) values (${sha256Hex(token)}, ${address}, now(), now() + interval '1 day')`,
  );
  return token;
}

export const missionBody = (tag: string, w: number, i: number) => ({
  title: `Bench write ${w}-${i}`,
  description: "A mission created by the bench write scenario.",
  reward: { asset: "USDC", amount: "10000000" },
  verification: { type: "creator_judges", params: {} },
  deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  tags: [tag],
});

/** Starts the server the write scenario drives (its own admin token, the write env). */
export async function startWriteServer(
  databaseUrl: string,
  poolMax: number,
  cpuProfDir?: string,
  env: Record<string, string> = {},
  cwd?: string,
) {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "oabp-writes-"));
  const adminToken = `bench-admin-${randomToken().slice(0, 24)}`;
  const prof = cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(cpuProfDir)] : [];
  // The compiled build, as production runs it (`npm start`; docs/operations.md "Build and
  // start"): through tsx every request would also pay the loader's hooks.
  const built = startChild("build", ["scripts/build.mjs", "--if-stale"], {}, cwd);
  await built.exited;
  if (built.exitCode !== 0) throw new Error(`build failed (${String(built.exitCode)})`);
  const child = startChild(
    "server-writes",
    [...prof, "--enable-source-maps", "dist/main.js"],
    {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: String(poolMax),
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      OABP_DATA_DIR: dir,
      OABP_ADMIN_TOKEN: adminToken,
      ...WRITE_SERVER_ENV,
      ...env,
    },
    cwd,
  );
  const base = `http://127.0.0.1:${port}`;
  await waitReady(child, `${base}/ready`, 120_000);
  return { base, adminToken, child, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
