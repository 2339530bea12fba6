import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateBuckets } from "../../src/db/schema/index";
import { takeToken, takeTokens, purgeFullBuckets } from "../../src/lib/token-bucket";
import { ADMIN_TOKEN, makeTestApp, type TestApp } from "../helpers/app";
import { missionBody, credit, signIn } from "../helpers/agents";
import { INITIALIZE, INITIALIZED, rpc } from "../helpers/mcp";
import { expectError } from "../helpers/errors";

// "rate limits shared by every instance": Postgres token buckets (src/lib/token-bucket.ts)
// behind every write, the session-creating routes and MCP (src/http/rate-limit.ts). The
// two-process proof is test/process/rate-limit-processes.e2e.test.ts.

describe("takeToken (one conditional upsert per check)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.close());
  const policy = { quota: 3, windowSeconds: 30 }; // one token every 10 s

  it("spends the quota, refuses with the seconds until one token is back, refills with time", async () => {
    const db = t.deps.database.db;
    const at = (s: number) => new Date(Date.UTC(2026, 5, 1) + s * 1000);
    expect(await takeToken(db, "k1", policy, at(0))).toEqual({ ok: true, remaining: 2, resetSeconds: 10 });
    expect(await takeToken(db, "k1", policy, at(0))).toMatchObject({ ok: true, remaining: 1 });
    expect(await takeToken(db, "k1", policy, at(1))).toMatchObject({ ok: true, remaining: 0 });
    expect(await takeToken(db, "k1", policy, at(2))).toEqual({
      ok: false,
      remaining: 0,
      retryAfterSeconds: 8,
      resetSeconds: 28,
    });
    expect((await takeToken(db, "k1", policy, at(11))).ok).toBe(true); // 10 s later: one token
    expect((await takeToken(db, "k1", policy, at(11))).ok).toBe(false);
    expect(await takeToken(db, "k2", policy, at(11))).toMatchObject({ ok: true, remaining: 2 }); // keys are independent
    // A lagging clock neither refills nor moves the bucket back.
    expect((await takeToken(db, "k1", policy, at(5))).ok).toBe(false);
    // Long idle: full again, never above the quota.
    expect(await takeToken(db, "k1", policy, at(10_000))).toMatchObject({ ok: true, remaining: 2 });
  });

  it("concurrent checks never overspend: 20 at once on a 3-token bucket → exactly 3 pass", async () => {
    const now = new Date(Date.UTC(2026, 5, 2));
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => takeToken(t.deps.database.db, "race", policy, now)),
    );
    expect(verdicts.filter((v) => v.ok)).toHaveLength(3);
  });

  const verdictsOf = async (...a: Parameters<typeof takeTokens>) => (await takeTokens(...a)).map((s) => s.verdict);

  it("two buckets in one statement: the second is debited only when the first granted its token", async () => {
    const db = t.deps.database.db;
    const now = new Date(Date.UTC(2026, 5, 3));
    const net = { quota: 5, windowSeconds: 50 };
    const pair = [
      { key: "agent", policy },
      { key: "net", policy: net },
    ];
    expect(await verdictsOf(db, pair, now)).toEqual([
      { ok: true, remaining: 2, resetSeconds: 10 },
      { ok: true, remaining: 4, resetSeconds: 10 },
    ]);
    await verdictsOf(db, pair, now);
    await verdictsOf(db, pair, now);
    // The agent's bucket is empty: refused, and the network's keeps its 2 tokens.
    expect(await verdictsOf(db, pair, now)).toEqual([
      { ok: false, remaining: 0, retryAfterSeconds: 10, resetSeconds: 30 },
    ]);
    expect(await takeToken(db, "net", net, now)).toMatchObject({ ok: true, remaining: 1 });
    // The network's bucket empty: the agent's token is spent, the network refuses.
    await takeToken(db, "net", net, now);
    expect(await verdictsOf(db, [pair[1]!, { key: "agent2", policy }], now)).toEqual([
      { ok: false, remaining: 0, retryAfterSeconds: 10, resetSeconds: 50 },
    ]);
    const other = [{ key: "agent3", policy }, pair[1]!];
    expect(await verdictsOf(db, other, now)).toEqual([
      { ok: true, remaining: 2, resetSeconds: 10 },
      { ok: false, remaining: 0, retryAfterSeconds: 10, resetSeconds: 50 },
    ]);
  });

  it("two buckets at once never overspend either: 20 chained takes on a 3-token second bucket → 3 pass", async () => {
    const now = new Date(Date.UTC(2026, 5, 4));
    const roomy = { quota: 100, windowSeconds: 100 };
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        verdictsOf(
          t.deps.database.db,
          [
            { key: `race-agent-${i}`, policy: roomy },
            { key: "race-net", policy },
          ],
          now,
        ),
      ),
    );
    expect(verdicts.filter((v) => v.length === 2 && v[1]!.ok)).toHaveLength(3);
  });

  it("the purge drops buckets that are full again, and only those", async () => {
    const db = t.deps.database.db;
    const now = new Date(Date.UTC(2026, 6, 1));
    await takeToken(db, "old", policy, new Date(now.getTime() - 3_600_000));
    await takeToken(db, "fresh", policy, now);
    await purgeFullBuckets(db, now, 60);
    const rows = await db
      .select({ key: rateBuckets.key })
      .from(rateBuckets)
      .where(inArray(rateBuckets.key, ["old", "fresh"]));
    expect(rows.map((r) => r.key)).toEqual(["fresh"]);
  });
});

describe("REST and MCP behind the shared buckets", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({
      OABP_TRUST_PROXY: "true",
      OABP_RATE_LIMIT_WRITE_IP: "1000/60",
      OABP_RATE_LIMIT_WRITE_AGENT: "3/60",
      OABP_RATE_LIMIT_WRITE_NET_AGENTS: "600/60",
      OABP_RATE_LIMIT_SESSION_IP: "4/60",
      OABP_MCP_PENDING_SESSIONS_PER_IP: "2",
    });
  });
  afterAll(() => t.close());
  const from = (ip: string) => ({ "x-forwarded-for": ip });

  it("SIWE nonces: the per-IP session bucket, with RateLimit-Policy / RateLimit and a 429 with Retry-After", async () => {
    const ok = await t.call("POST", "/auth/nonce", { headers: from("198.51.100.1") });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-policy")).toBe('"session-ip";q=4;w=60');
    expect(ok.headers.get("ratelimit")).toBe('"session-ip";r=3;t=15');
    for (let i = 0; i < 3; i++)
      expect((await t.call("POST", "/auth/nonce", { headers: from("198.51.100.1") })).status).toBe(200);
    const refused = await t.call("POST", "/auth/nonce", { headers: from("198.51.100.1") });
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("15");
    expect(refused.headers.get("ratelimit")).toBe('"session-ip";r=0;t=60');
    expect(refused.body.details).toMatchObject({ policy: "session-ip", retry_after_seconds: 15 });
    // Another client has its own bucket; 15 s later this one has a token again.
    expect((await t.call("POST", "/auth/nonce", { headers: from("198.51.100.2") })).status).toBe(200);
    t.clock.advance(15_000);
    expect((await t.call("POST", "/auth/nonce", { headers: from("198.51.100.1") })).status).toBe(200);
  });

  it("writes: per agent (whatever its IP), then per network; reads are not limited; the admin token is exempt", async () => {
    const a = await signIn(t); // its nonce came from IP "unknown"
    await credit(t, a.address, 1_000_000_000n);
    const post = (ip: string) =>
      t.call("POST", "/missions", { token: a.token, headers: from(ip), body: missionBody(t) });
    const first = await post("203.0.113.1");
    expect(first.status, first.text).toBe(201);
    // Signed in: the agent's bucket first, then the network's bucket of signed-in writes (default 600/60).
    expect(first.headers.get("ratelimit-policy")).toBe('"write-agent";q=3;w=60, "write-net-agents";q=600;w=60');
    expect(first.headers.get("ratelimit")).toBe('"write-agent";r=2;t=20, "write-net-agents";r=599;t=1');
    expect((await post("203.0.113.2")).status).toBe(201);
    expect((await post("203.0.113.3")).status).toBe(201);
    const refused = await post("203.0.113.4");
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.body.details.policy).toBe("write-agent");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await t.call("GET", "/missions", { token: a.token, headers: from("203.0.113.4") })).status).toBe(200);
    const admin = await t.call("POST", "/admin/ledger/credit", {
      token: ADMIN_TOKEN,
      headers: from("203.0.113.4"),
      body: { agent_id: a.address, asset: "USDC", amount: "1" },
    });
    expect(admin.status).toBe(200);
    expect(admin.headers.get("ratelimit")).toBeNull();
  });

  it("MCP: initialize spends the session bucket; pending sessions are capped per IP; write tools spend write tokens", async () => {
    const ip = "192.0.2.50";
    const init = () => rpc(t, INITIALIZE(), { headers: from(ip) });
    const s1 = await init();
    expect(s1.status, s1.text).toBe(200);
    expect((await init()).status).toBe(200);
    // Two sessions still in their handshake from this IP: a third is refused until one finishes.
    const third = await init();
    expectError(third, 429, "RATE_LIMITED");
    expect(third.body.details).toMatchObject({ reason: "pending_sessions", limit: 2 });
    const done = await rpc(t, INITIALIZED, { session: s1.headers.get("mcp-session-id")!, headers: from(ip) });
    expect(done.status).toBe(202);
    expect((await init()).status).toBe(200);
    // The session bucket (4) is now empty: 4 initialize calls took a token each.
    const empty = await init();
    expectError(empty, 429, "RATE_LIMITED");
    expect(empty.body.details.policy).toBe("session-ip");

    // A write tool takes the agent's write token like REST: this agent has 3.
    const b = await signIn(t);
    const open = await rpc(t, INITIALIZE(), { token: b.token, headers: from("192.0.2.60") });
    const session = open.headers.get("mcp-session-id")!;
    await rpc(t, INITIALIZED, { session, token: b.token, headers: from("192.0.2.60") });
    const claim = (id: number) =>
      rpc(
        t,
        {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "claim_mission", arguments: { mission_id: "mis_00000000000000000000000000" } },
        },
        { session, token: b.token, headers: from("192.0.2.60") },
      );
    for (let i = 0; i < 3; i++) expect((await claim(10 + i)).status).toBe(200); // tool errors (no such mission), tokens spent
    expectError(await claim(20), 429, "RATE_LIMITED");
    // Read tools are not limited.
    const list = await rpc(
      t,
      { jsonrpc: "2.0", id: 30, method: "tools/call", params: { name: "list_missions", arguments: {} } },
      { session, token: b.token, headers: from("192.0.2.60") },
    );
    expect(list.status).toBe(200);
  });
});
