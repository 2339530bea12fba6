import { describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { MCP_HEADERS } from "../helpers/mcp";
import { startPair, useCleanups } from "../helpers/process-suite";

// Rate limits hold across two server processes on one Postgres. The
// buckets are rows (src/lib/token-bucket.ts), so a client alternating between instances behind a
// load balancer gets one budget, not one per instance; so does the pending-MCP-session cap.
describe.runIf(onRealPostgres)("rate limits across two server processes on one Postgres", () => {
  const cleanups = useCleanups();
  const post = async (base: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + p, {
      method: "POST",
      headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };

  it("one session bucket and one pending-session cap for a client alternating between the instances", async () => {
    // 8 per hour: one token back every 450 s, so the test's own duration refills nothing.
    const { a, b } = await startPair(cleanups, "oabp_rl_two", {
      OABP_RATE_LIMIT_SESSION_IP: "8/3600",
      OABP_MCP_PENDING_SESSIONS_PER_IP: "3",
    });
    const servers = [a, b];

    // MCP initialize, alternating: the cap of 3 pending sessions is for the client, not per instance.
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "rl", version: "1" } },
    };
    const inits = [];
    for (let i = 0; i < 4; i++) inits.push(await post(servers[i % 2]!.base, "/mcp", init, MCP_HEADERS));
    expect(inits.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(inits[3]!.body).toMatchObject({ error: "RATE_LIMITED", details: { reason: "pending_sessions", limit: 3 } });

    // SIWE nonces, alternating: 4 tokens are left of the shared 8 (the 4 initialize calls took theirs).
    const nonces = [];
    for (let i = 0; i < 6; i++) nonces.push(await post(servers[i % 2]!.base, "/auth/nonce"));
    expect(nonces.map((r) => r.status)).toEqual([200, 200, 200, 200, 429, 429]);
    for (const refused of nonces.slice(4)) {
      expect(refused.body).toMatchObject({ error: "RATE_LIMITED", details: { policy: "session-ip" } });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(400); // ≈ 450 s to the next token
      expect(refused.headers.get("ratelimit-policy")).toBe('"session-ip";q=8;w=3600');
      expect(refused.headers.get("ratelimit")).toMatch(/^"session-ip";r=0;t=\d+$/);
    }
    // Each instance counted the other's requests: the last allowed answer of each shows r=0..3 in order.
    expect(nonces.slice(0, 4).map((r) => r.headers.get("ratelimit"))).toEqual(
      [3, 2, 1, 0].map((r) => expect.stringMatching(new RegExp(`^"session-ip";r=${r};t=\\d+$`))),
    );
  }, 90_000);
});
