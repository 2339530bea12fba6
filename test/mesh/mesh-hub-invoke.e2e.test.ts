import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { registerMeshProvider, startMeshHub, type RegisteredProvider } from "../helpers/mesh";

// Invoking a provider process's skills through the Agent Mesh hub (docs/neighbours.md "Agent
// Mesh"; the Mesh document's "Invocation via Mesh"): what the provider receives and the caller
// gets back, input checked against the skill's schema, a provider's timeout and error, a skill's
// rate limit per caller, and a mission naming the skill it wants.

let hub: Awaited<ReturnType<typeof startMeshHub>>;
let t: TestApp;
let providerId: string;
let skills: RegisteredProvider["skills"];
const received = () => hub.provider.received();
beforeAll(async () => {
  hub = await startMeshHub();
  t = hub.t;
  ({ providerId, skills } = await registerMeshProvider(t, hub.provider.base));
});
afterAll(() => hub?.close());

describe("Agent Mesh hub: invoking a provider process's skills", () => {
  let consumer: { token: string; address: string };

  it("invokes a skill through the hub: the provider gets a skill_invocation message, the caller a Mesh Skill Response", async () => {
    consumer = await signIn(t);
    const r = await t.call("POST", `/api/skills/${skills.echo}/invoke`, {
      token: consumer.token,
      body: { from: consumer.address, payload: { query: "latest AI developments" } },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      success: true,
      result: { echo: { query: "latest AI developments" }, from: consumer.address },
      error: null,
      metadata: {
        skillName: "web_search",
        version: "1.0.0",
        processingTimeMs: expect.any(Number),
        timestamp: t.clock.now().toISOString(),
        invocationId: expect.stringMatching(/^inv_/),
        provider: providerId,
      },
    });
    expect(r.headers.get("ratelimit-policy")).toBe('"mesh-invoke";q=120;w=60, "mesh-skill";q=3;w=60');
    const got = (await received()).at(-1)!;
    expect(got.path).toBe("/mesh/skills/echo");
    expect(got.from_header).toBe(consumer.address);
    expect(got.message).toEqual({
      id: r.body.metadata.invocationId,
      from_agent: consumer.address,
      to_agent: providerId,
      content: { type: "skill_invocation", skillName: "web_search", payload: { query: "latest AI developments" } },
      message_type: "skill_invocation",
      created_at: t.clock.now().toISOString(),
    });

    // A provider answering a bare result: it is the result.
    const bare = await t.call("POST", `/api/skills/${skills.bare}/invoke`, {
      token: consumer.token,
      body: { payload: {} },
    });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body).toMatchObject({ success: true, result: { answer: 42 }, error: null });
  });

  it("refuses input that does not match the inputSchema (400, never forwarded) and unknown skills (404)", async () => {
    const before = (await received()).length;
    const bad = await t.call("POST", `/api/skills/${skills.echo}/invoke`, {
      token: consumer.token,
      body: { payload: { query: "", extra: true } },
    });
    expectError(bad, 400, "INVALID_PARAMETER");
    expect(bad.body.details).toMatchObject({ reason: "invalid_input", skill_id: skills.echo });
    expect(bad.body.details.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "#/query" }),
        expect.objectContaining({ path: "#/extra" }),
      ]),
    );
    expect((await received()).length).toBe(before);
    const missing = await t.call("POST", "/api/skills/skl_01JZ0000000000000000000000/invoke", {
      token: consumer.token,
      body: { payload: {} },
    });
    expectError(missing, 404, "NOT_FOUND");
    expect(missing.body.details).toMatchObject({ reason: "skill_not_found" });
    expectError(
      await t.call("POST", `/api/skills/${skills.echo}/invoke`, { body: { payload: {} } }),
      401,
      "UNAUTHORIZED",
    );
    const notMe = await t.call("POST", `/api/skills/${skills.echo}/invoke`, {
      token: consumer.token,
      body: { from: providerId, payload: { query: "x" } },
    });
    expectError(notMe, 403, "FORBIDDEN");
  });

  it("a provider that never answers: 504 TIMEOUT", async () => {
    const r = await t.call("POST", `/api/skills/${skills.slow}/invoke`, {
      token: consumer.token,
      body: { payload: {} },
    });
    expectError(r, 504, "TIMEOUT");
    expect(r.body.details).toMatchObject({ reason: "provider_timeout", skill_name: "sys_sleep", provider: providerId });
  });

  it("a provider that answers 500: INTERNAL_ERROR with its Mesh error", async () => {
    const r = await t.call("POST", `/api/skills/${skills.boom}/invoke`, {
      token: consumer.token,
      body: { payload: {} },
    });
    expectError(r, 500, "INTERNAL_ERROR");
    expect(r.body.details).toMatchObject({
      reason: "provider_error",
      provider_status: 500,
      provider_error: { code: "INTERNAL_ERROR", message: "the search index is on fire" },
    });
  });

  it("a skill over its rate limit: 429 with Retry-After, per caller; a token comes back with time", async () => {
    // web_search allows 3 calls a minute per caller; this consumer has used 1.
    for (let i = 0; i < 2; i++) {
      const ok = await t.call("POST", `/api/skills/${skills.echo}/invoke`, {
        token: consumer.token,
        body: { payload: { query: `q${i}` } },
      });
      expect(ok.status, ok.text).toBe(200);
    }
    const before = (await received()).length;
    const refused = await t.call("POST", `/api/skills/${skills.echo}/invoke`, {
      token: consumer.token,
      body: { payload: { query: "one too many" } },
    });
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.body.details).toMatchObject({ reason: "rate_limited", policy: "mesh-skill", skill_id: skills.echo });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await received()).length).toBe(before);
    // Another caller has its own budget.
    const other = await signIn(t);
    const theirs = await t.call("POST", `/api/skills/${skills.echo}/invoke`, {
      token: other.token,
      body: { payload: { query: "mine" } },
    });
    expect(theirs.status, theirs.text).toBe(200);
    // 20 s later one of the 3-per-minute tokens is back.
    t.clock.advance(20_000);
    const later = await t.call("POST", `/api/skills/${skills.echo}/invoke`, {
      token: consumer.token,
      body: { payload: { query: "again" } },
    });
    expect(later.status, later.text).toBe(200);
  });

  it("a mission names the skill it wants; an unknown skill is refused", async () => {
    await credit(t, consumer.address, 1_000_000_000n);
    const m = await t.call("POST", "/api/missions", {
      token: consumer.token,
      body: missionBody(t, { skill_id: skills.echo }),
    });
    expect(m.status, m.text).toBe(201);
    expect(m.body.skill_id).toBe(skills.echo);
    expect((await t.call("GET", `/api/missions/${m.body.id}`)).body.skill_id).toBe(skills.echo);
    const plain = await t.call("POST", "/api/missions", { token: consumer.token, body: missionBody(t) });
    expect(plain.body).not.toHaveProperty("skill_id");
    const bad = await t.call("POST", "/api/missions", {
      token: consumer.token,
      body: missionBody(t, { skill_id: "skl_01JZ0000000000000000000000" }),
    });
    expectError(bad, 400, "INVALID_PARAMETER");
    expect(bad.body.details).toMatchObject({ field: "skill_id", reason: "skill_not_found" });
  });
});
