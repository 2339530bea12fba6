import { expect } from "vitest";
import pino from "pino";
import { createApp } from "../../src/app";
import type { Deps, Limits } from "../../src/deps";
import { parseEnv } from "../../src/env";
import { ManualClock } from "../../src/lib/clock";
import { createEvmPort, createOracleReader } from "../../src/lib/evm";
import { createBaseChain } from "../../src/lib/base-chain.viem";
import { createSafeFetcher } from "../../src/lib/safe-fetch";
import { userAgent } from "../../src/lib/user-agent";
import { ResponseCache } from "../../src/lib/response-cache";
import { generateKeyring } from "../../src/lib/receipt-keys";
import { generateSigner } from "../../src/lib/attestation-key";
import { createTestDatabase, type TestDatabase } from "./db";
import { HIGH_RATE_LIMITS } from "./rate-limits";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";
/** Loopback address the test fetcher may reach (content and predicate servers bind here). */
export const TEST_CONTENT_HOST = "127.0.0.2";
export const PUBLIC_URL = "http://oabp.test";

export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: Deps;
  clock: ManualClock;
  db: TestDatabase;
  /** app.request with JSON helpers. */
  call(
    method: string,
    path: string,
    opts?: { body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers; text: string }>;
  close(): Promise<void>;
}

/**
 * A full app on a fresh database with a manual clock (2026-06-01T00:00:00Z) and a fixed admin token.
 * `opts.database`: build it on an existing database instead (a "restarted" server); closing such
 * an app leaves the database to its owner. `opts.ownReceiptKey`: another instance with a key of its own.
 * `opts.limits`: smaller bounds than the constants nobody tunes, to reach one (Deps.limits).
 */
/**
 * One receipt keyring per test database: a "restarted" server on the same database keeps its key,
 * as a real one keeps its key file (its signed payout decisions must still verify: docs/custody.md).
 */
const keyrings = new WeakMap<object, ReturnType<typeof generateKeyring>>();
function keyringOf(db: object, now: Date) {
  const k = keyrings.get(db) ?? generateKeyring(now);
  keyrings.set(db, k);
  return k;
}

export async function makeTestApp(
  env: Record<string, string> = {},
  opts: { poolMax?: number; database?: TestDatabase; ownReceiptKey?: boolean; limits?: Partial<Limits> } = {},
): Promise<TestApp> {
  const db = opts.database ?? (await createTestDatabase(opts));
  // Rate limits stay on but out of the way of tests whose manual clock never refills them
  // (test/rate-limit*.test.ts set real ones).
  // OABP_APPEAL_DEFAULT off: most suites test an award that pays at once; the default appeal
  // (on in production) is tested where a suite passes OABP_APPEAL_DEFAULT: "on".
  const config = parseEnv({
    OABP_PUBLIC_URL: PUBLIC_URL,
    OABP_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: "silent",
    OABP_APPEAL_DEFAULT: "off",
    ...HIGH_RATE_LIMITS,
    ...env,
  });
  const clock = new ManualClock("2026-06-01T00:00:00.000Z");
  const deps: Deps = {
    config,
    database: db.database,
    clock,
    logger: pino({ level: "silent" }),
    evm: createEvmPort(undefined),
    oracle: createOracleReader(config.rpcUrl, userAgent(config.publicUrl)),
    chain: config.baseRail ? createBaseChain(config.baseRail) : null,
    adminToken: ADMIN_TOKEN,
    receiptKeys: opts.ownReceiptKey ? generateKeyring(clock.now()) : keyringOf(db, clock.now()),
    attestation: generateSigner(),
    missionLists: new ResponseCache(config.listCacheBytes),
    // Production policy (public unicast only), except loopback 127.0.0.2 where tests serve content.
    fetcher: createSafeFetcher({
      ipfsGateway: config.ipfsGateway,
      arweaveGateway: config.arweaveGateway,
      timeoutMs: 2000,
      userAgent: userAgent(config.publicUrl),
      allowAddress: (ip) => ip === TEST_CONTENT_HOST,
      // Every test talks to one local receiver: the per-process caps are lifted like the buckets.
      perDomain: 1024,
      perAddress: 1024,
    }),
    ...(opts.limits && { limits: opts.limits }),
  };
  const app = createApp(deps);
  return {
    app,
    deps,
    clock,
    db,
    async call(method, path, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      let body: string | undefined;
      if (o.body !== undefined) {
        body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
        headers["content-type"] ??= "application/json";
      }
      const res = await app.request(path, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, body: parsed as any, headers: res.headers, text };
    },
    close: () => (opts.database ? Promise.resolve() : db.dispose()),
  };
}

/** The mission ids of every page of a GET /missions `path` (its query included), following next_cursor. */
export async function walkMissionPages(t: TestApp, path: string, maxPages = 60): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < maxPages; pages++) {
    const r = await t.call("GET", `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(r.status, r.text).toBe(200);
    seen.push(...r.body.missions.map((m: { id: string }) => m.id));
    cursor = r.body.next_cursor;
    if (!cursor) return seen;
  }
  throw new Error(`more than ${maxPages} pages`);
}
