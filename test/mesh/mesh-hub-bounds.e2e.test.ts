import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { registerMeshProvider, startMeshHub, type RegisteredProvider } from "../helpers/mesh";

// The Agent Mesh hub's bounds (docs/neighbours.md "Agent Mesh"): skills per agent, what a skill's
// schema and endpoint may be, and what suspending a consumer or a provider stops.

let hub: Awaited<ReturnType<typeof startMeshHub>>;
let t: TestApp;
let provider: RegisteredProvider;
beforeAll(async () => {
  hub = await startMeshHub();
  t = hub.t;
  provider = await registerMeshProvider(t, hub.provider.base);
});
afterAll(() => hub?.close());

describe("Agent Mesh hub: bounds and suspension", () => {
  let consumer: { token: string; address: string };
  beforeAll(async () => {
    consumer = await signIn(t);
  });

  it("bounds: skills per agent, schema depth and keywords, endpoints the hub may not call", async () => {
    const five = await t.call("POST", "/api/skills", {
      headers: provider.asProvider(),
      body: { name: "data_fifth", description: "five of five" },
    });
    expect(five.status, five.text).toBe(200);
    const six = await t.call("POST", "/api/skills", {
      headers: provider.asProvider(),
      body: { name: "data_sixth", description: "one too many" },
    });
    expectError(six, 409, "CONFLICT");
    expect(six.body.details).toMatchObject({ reason: "too_many_skills", limit: 5 });
    // Replacing an existing one is still allowed at the cap.
    const replace = await t.call("POST", "/api/skills", {
      headers: provider.asProvider(),
      body: { name: "data_fifth", description: "five of five, again" },
    });
    expect(replace.status, replace.text).toBe(200);

    const s = await signIn(t);
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 20; i++) deep = { type: "array", items: deep };
    const tooDeep = await t.call("POST", "/api/skills", {
      token: s.token,
      body: { name: "deep", description: "d", inputSchema: deep },
    });
    expectError(tooDeep, 400, "INVALID_PARAMETER");
    expect(tooDeep.body.details).toMatchObject({ field: "inputSchema", reason: "invalid_schema" });
    const ref = await t.call("POST", "/api/skills", {
      token: s.token,
      body: { name: "refs", description: "r", inputSchema: { $ref: "#/definitions/x" } },
    });
    expectError(ref, 400, "INVALID_PARAMETER");
    const big = await t.call("POST", "/api/skills", {
      token: s.token,
      body: { name: "big", description: "b", inputSchema: { description: "x".repeat(20_000) } },
    });
    expectError(big, 413, "PAYLOAD_TOO_LARGE");
    const metadata = await t.call("POST", "/api/skills", {
      token: s.token,
      body: { name: "cloud", description: "c", endpoint: "http://169.254.169.254/latest/meta-data" },
    });
    expectError(metadata, 400, "INVALID_PARAMETER");
    expect(metadata.body.details).toMatchObject({ field: "endpoint", reason: "blocked_address" });
  });

  it("a suspended agent cannot register skills or invoke; its skills answer 503", async () => {
    const s = await t.call("POST", `/api/admin/agents/${consumer.address}/suspend`, {
      token: ADMIN_TOKEN,
      body: { reason: "mesh test" },
    });
    expect(s.status, s.text).toBe(200);
    const inv = await t.call("POST", `/api/skills/${provider.skills.bare}/invoke`, {
      token: consumer.token,
      body: { payload: {} },
    });
    expectError(inv, 403, "FORBIDDEN");
    expect(inv.body.details).toMatchObject({ reason: "suspended" });
    const reg = await t.call("POST", "/api/skills", {
      token: consumer.token,
      body: { name: "data_mine", description: "m" },
    });
    expectError(reg, 403, "FORBIDDEN");

    const p = await t.call("POST", `/api/admin/agents/${provider.providerId}/suspend`, {
      token: ADMIN_TOKEN,
      body: { reason: "mesh test" },
    });
    expect(p.status, p.text).toBe(200);
    const other = await signIn(t);
    const toSuspended = await t.call("POST", `/api/skills/${provider.skills.bare}/invoke`, {
      token: other.token,
      body: { payload: {} },
    });
    expectError(toSuspended, 503, "SERVICE_UNAVAILABLE");
    expect(toSuspended.body.details).toMatchObject({ reason: "provider_suspended" });
  });
});
