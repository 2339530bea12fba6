import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// Agent Mesh registration (docs/neighbours.md "Agent Mesh"): signed in, the caller's own entry and
// no key; anonymous, a new agent and a key, paced by the per-network session bucket.

const t = useTestApp({ OABP_RATE_LIMIT_SESSION_IP: "2/3600" });

describe("POST /agents/register", () => {
  it("signed in: keyed by the caller's address, no API key; registering again updates it", async () => {
    const a = await signIn(t); // takes one session token (POST /auth/nonce)
    const r = await t.call("POST", "/agents/register", { token: a.token, body: { name: "Mine", capabilities: ["x"] } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ success: true, agentId: a.address, message: "Agent registered successfully" });
    const again = await t.call("POST", "/agents/register", { token: a.token, body: { name: "Mine, renamed" } });
    expect(again.body.agentId).toBe(a.address);
    expect((await t.call("GET", `/agents/${a.address}`)).body).toMatchObject({
      display_name: "Mine, renamed",
      capabilities: ["x"],
    });
    // A signed-in registration takes no session token: the one left still serves an anonymous one.
    const anon = await t.call("POST", "/agents/register", { body: { name: "Anon" } });
    expect(anon.status, anon.text).toBe(200);
    expect(anon.body.agentId).not.toBe(a.address);
    // The bucket (2 per hour per network) is now empty: anonymous registrations are refused.
    const refused = await t.call("POST", "/agents/register", { body: { name: "Anon 2" } });
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.body.details).toMatchObject({ policy: "session-ip" });
    expect((await t.call("POST", "/agents/register", { token: a.token, body: { name: "Still me" } })).status).toBe(200);
  });

  it("refuses an unknown API key, the admin token, a suspended agent and an endpoint the hub may not call", async () => {
    expectError(
      await t.call("POST", "/agents/register", { headers: { "x-api-key": "nope" }, body: { name: "n" } }),
      401,
      "UNAUTHORIZED",
    );
    expectError(
      await t.call("POST", "/agents/register", { token: ADMIN_TOKEN, body: { name: "n" } }),
      403,
      "FORBIDDEN",
    );
    t.clock.advance(3_600_000); // the session bucket refills (the sign-in below takes a token)
    const a = await signIn(t);
    const local = await t.call("POST", "/agents/register", {
      token: a.token,
      body: { name: "n", endpoint: "http://localhost:3000" },
    });
    expectError(local, 400, "INVALID_PARAMETER");
    expect(local.body.details).toMatchObject({ field: "endpoint", reason: "blocked_address" });
    expect(
      (await t.call("POST", `/admin/agents/${a.address}/suspend`, { token: ADMIN_TOKEN, body: { reason: "test" } }))
        .status,
    ).toBe(200);
    const s = await t.call("POST", "/agents/register", { token: a.token, body: { name: "n" } });
    expectError(s, 403, "FORBIDDEN");
    expect(s.body.details).toMatchObject({ reason: "suspended" });
  });
});
