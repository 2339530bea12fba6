import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../src/env";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { startDnsServer, type DnsServer } from "../helpers/dns-server";
import { expectError } from "../helpers/errors";
import { startMeshProvider, type MeshProvider } from "../helpers/mesh";

// The Agent Mesh document's own example requests (docs/protocols/agent-mesh-skill-protocol.txt:
// "Registration", "Registration Endpoint", "Discovery", "Invocation via Mesh", "Error Response
// Format") against a hub in private-network mode — they get the document's answers — and against
// a public server — they get the refusals docs/neighbours.md "Private network" documents, each
// naming the setting. The provider is a real process (test/helpers/mesh-provider.mjs) reached
// through the document's own `http://<name>:<port>` endpoints, resolved by a real DNS server.

const SHARED_KEY = "openclaw-mesh-default-key"; // the document's X-API-Key
const asMesh = { "x-api-key": SHARED_KEY };

let lan: TestApp;
let pub: TestApp;
let dns: DnsServer;
let provider: MeshProvider;
let port: number;

beforeAll(async () => {
  // The document's hosts (my-agent, your-agent, searchbot) resolve to the provider's address.
  dns = await startDnsServer({
    records: { "my-agent": TEST_CONTENT_HOST, "your-agent": TEST_CONTENT_HOST, searchbot: TEST_CONTENT_HOST },
    tarpit: () => false,
  });
  provider = await startMeshProvider();
  port = provider.port;
  lan = await makeTestApp({
    OABP_MESH_PRIVATE_NETWORK: "true",
    OABP_MESH_SHARED_KEY: SHARED_KEY,
    OABP_DNS_SERVERS: dns.address,
  });
  pub = await makeTestApp();
});
afterAll(async () => {
  await provider?.stop();
  await dns?.close();
  await lan?.close();
  await pub?.close();
});

describe("private-network mode: the document's requests get the document's answers", () => {
  let agentId: string;
  let skillId: string;

  it("registers an agent with the shared key and an http:// endpoint on the LAN", async () => {
    const r = await lan.call("POST", "/api/agents/register", {
      headers: asMesh,
      body: {
        name: "MyAgent",
        endpoint: `http://my-agent:${port}/mesh`,
        capabilities: ["messaging", "task_execution", "web_search"],
      },
    });
    expect(r.status, r.text).toBe(200);
    // Exactly the document's response: no key is issued, the shared one is the mesh's.
    expect(r.body).toEqual({ success: true, agentId: expect.any(String), message: "Agent registered successfully" });
    agentId = r.body.agentId;
    // The document's heartbeat, with the shared key, for the agent the path names.
    const beat = await lan.call("POST", `/api/agents/${agentId}/heartbeat`, { headers: asMesh });
    expect(beat.status, beat.text).toBe(200);
    expect(beat.body).toMatchObject({ agent_id: agentId, online: true });
    const stranger = await lan.call("POST", `/api/agents/0x${"2".repeat(40)}/heartbeat`, { headers: asMesh });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error).toMatchObject({
      code: "INVALID_PARAMETER",
      details: { reason: "agent_not_registered" },
    });
  });

  it("registers skills with the shared key: the document's snake_case one and a camelCase one", async () => {
    const r = await lan.call("POST", "/api/skills", {
      headers: asMesh,
      body: {
        agentId,
        name: "web_search",
        description: "Search the web for current information",
        endpoint: `http://your-agent:${port}/mesh/skills/echo`,
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ agent_id: agentId, name: "web_search" });
    skillId = r.body.id;
    const camel = await lan.call("POST", "/api/skills", {
      headers: asMesh,
      body: {
        agentId,
        name: "webSearch",
        description: "camelCase",
        endpoint: `http://searchbot:${port}/mesh/skills/bare`,
      },
    });
    expect(camel.status, camel.text).toBe(200);
    expect(camel.body.name).toBe("webSearch");
    // With the shared key the request must name its agent, and one registered with the mesh.
    const anonymous = await lan.call("POST", "/api/skills", {
      headers: asMesh,
      body: { name: "x_y", description: "d" },
    });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.error).toMatchObject({ code: "INVALID_PARAMETER", details: { reason: "agent_id_required" } });
  });

  it("discovers skills as the document's array", async () => {
    const r = await lan.call("GET", "/api/skills", { headers: asMesh });
    expect(r.status, r.text).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    expect(r.body).toContainEqual(
      expect.objectContaining({
        id: skillId,
        agent_id: agentId,
        agent_name: "MyAgent",
        name: "web_search",
        description: "Search the web for current information",
        endpoint: `http://your-agent:${port}/mesh/skills/echo`,
        created_at: expect.any(String),
      }),
    );
    expect(r.body.map((s: { name: string }) => s.name)).toContain("webSearch");
    // A page boundary is a Link header, the answer stays an array.
    const page = await lan.call("GET", "/api/skills?limit=1", { headers: asMesh });
    expect(page.body).toHaveLength(1);
    expect(page.headers.get("link")).toMatch(/^<\/api\/skills\?limit=1&cursor=[^>]+>; rel="next"$/);
    // The server's page object stays one parameter away for its own clients.
    const own = await lan.call("GET", "/api/skills?format=oabp", { headers: asMesh });
    expect(own.body).toMatchObject({ skills: expect.any(Array), next_cursor: null });
  });

  it("invokes through the hub with the document's body: the provider gets the skill_invocation message", async () => {
    const r = await lan.call("POST", `/api/skills/${skillId}/invoke`, {
      headers: asMesh,
      body: { from: agentId, payload: { query: "latest AI developments" } },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      result: { echo: { query: "latest AI developments" }, from: agentId },
      error: null,
      metadata: { skillName: "web_search" },
    });
  });

  it("answers an unknown skill with the document's SKILL_NOT_FOUND envelope", async () => {
    const r = await lan.call("POST", "/api/skills/skill-uuid/invoke", {
      headers: asMesh,
      body: { from: agentId, payload: { query: "latest AI developments" } },
    });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      success: false,
      result: null,
      error: { code: "SKILL_NOT_FOUND", message: expect.any(String), details: expect.any(Object) },
      metadata: { timestamp: expect.any(String), request_id: expect.stringMatching(/^req_/) },
    });
    const bad = await lan.call("POST", "/api/skills", { headers: asMesh, body: { agentId, description: "no name" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, result: null, error: { code: "INVALID_PARAMETER" } });
    const wrongKey = await lan.call("GET", "/api/skills/skl_x", { headers: { "x-api-key": "not-the-mesh-key" } });
    expect(wrongKey.status).toBe(404); // reads are open; the envelope still speaks the Mesh codes
    expect(wrongKey.body.error.code).toBe("SKILL_NOT_FOUND");
  });

  it("gives a 503 invocation's token back to the skill's rate budget", async () => {
    const busy = await lan.call("POST", "/api/skills", {
      headers: asMesh,
      body: {
        agentId,
        name: "busy_skill",
        description: "answers 503",
        endpoint: `http://my-agent:${port}/mesh/skills/busy`,
        rateLimit: { maxCalls: 1, periodMs: 60_000 },
      },
    });
    expect(busy.status, busy.text).toBe(200);
    for (let i = 0; i < 3; i++) {
      const r = await lan.call("POST", `/api/skills/${busy.body.id}/invoke`, {
        headers: asMesh,
        body: { from: agentId, payload: {} },
      });
      expect(r.status, r.text).toBe(503);
      expect(r.body.error.code).toBe("SERVICE_UNAVAILABLE");
    }
    // An answered call spends the budget: the same limit on a skill that answers.
    const ok = await lan.call("POST", "/api/skills", {
      headers: asMesh,
      body: {
        agentId,
        name: "echo_once",
        description: "answers",
        endpoint: `http://my-agent:${port}/mesh/skills/echo`,
        rateLimit: { maxCalls: 1, periodMs: 60_000 },
      },
    });
    const call = () =>
      lan.call("POST", `/api/skills/${ok.body.id}/invoke`, { headers: asMesh, body: { from: agentId, payload: {} } });
    expect((await call()).status).toBe(200);
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
  });
});

describe("a public server: the same requests get the documented refusals, each naming the setting", () => {
  it("refuses the shared key: 401 naming OABP_MESH_PRIVATE_NETWORK", async () => {
    const r = await pub.call("POST", "/api/agents/register", {
      headers: asMesh,
      body: { name: "MyAgent", endpoint: "http://my-agent:3000" },
    });
    expectError(r, 401, "UNAUTHORIZED");
    expect(r.body.details).toMatchObject({ reason: "unknown_api_key", setting: "OABP_MESH_PRIVATE_NETWORK" });
    const skill = await pub.call("POST", "/api/skills", {
      headers: asMesh,
      body: { agentId: "0x" + "1".repeat(40), name: "web_search", description: "d" },
    });
    expectError(skill, 401, "UNAUTHORIZED");
    expect(skill.body.details.setting).toBe("OABP_MESH_PRIVATE_NETWORK");
    const beat = await pub.call("POST", `/api/agents/0x${"1".repeat(40)}/heartbeat`, { headers: asMesh });
    expectError(beat, 401, "UNAUTHORIZED");
    expect(beat.body.details.setting).toBe("OABP_MESH_PRIVATE_NETWORK");
  });

  it("refuses an http:// endpoint: 400 https_required naming the setting", async () => {
    const r = await pub.call("POST", "/api/agents/register", {
      body: { name: "MyAgent", endpoint: "http://my-agent:3000" },
    });
    expectError(r, 400, "INVALID_PARAMETER");
    expect(r.body.details).toMatchObject({
      field: "endpoint",
      reason: "https_required",
      setting: "OABP_MESH_PRIVATE_NETWORK",
    });
    const a = await signIn(pub);
    const lanLiteral = await pub.call("POST", "/api/skills", {
      token: a.token,
      body: { name: "web_search", description: "d", endpoint: "https://192.168.1.20/skills/web_search" },
    });
    expectError(lanLiteral, 400, "INVALID_PARAMETER");
    expect(lanLiteral.body.details).toMatchObject({ reason: "blocked_address", setting: "OABP_MESH_PRIVATE_NETWORK" });
  });

  it("accepts camelCase skill names there too (the document recommends snake_case, it does not require it)", async () => {
    const a = await signIn(pub);
    const r = await pub.call("POST", "/api/skills", {
      token: a.token,
      body: { name: "webSearch", description: "Search the web" },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.name).toBe("webSearch");
    expect(
      (await pub.call("POST", "/api/skills", { token: a.token, body: { name: "1x", description: "d" } })).status,
    ).toBe(400);
  });

  it("answers an unknown skill in the server's body, and in the Mesh envelope with format=mesh", async () => {
    const a = await signIn(pub);
    const body = { payload: { query: "latest AI developments" } };
    const own = await pub.call("POST", "/api/skills/skill-uuid/invoke", { token: a.token, body });
    expectError(own, 404, "NOT_FOUND");
    expect(own.body.details).toMatchObject({ reason: "skill_not_found" });
    const mesh = await pub.call("POST", "/api/skills/skill-uuid/invoke?format=mesh", { token: a.token, body });
    expect(mesh.status).toBe(404);
    expect(mesh.body).toMatchObject({ success: false, result: null, error: { code: "SKILL_NOT_FOUND" } });
    const list = await pub.call("GET", "/api/skills");
    expect(list.body).toMatchObject({ skills: expect.any(Array), next_cursor: null });
    expect(Array.isArray((await pub.call("GET", "/api/skills?format=mesh")).body)).toBe(true);
  });

  it("refuses to start in private-network mode on a public server, naming the setting", () => {
    const env = { OABP_MESH_PRIVATE_NETWORK: "true", OABP_MESH_SHARED_KEY: SHARED_KEY };
    expect(() => parseEnv({ ...env, OABP_PUBLIC_URL: "https://mesh.oabp.org" })).toThrow(
      /OABP_MESH_PRIVATE_NETWORK: refused on a public server/,
    );
    expect(() => parseEnv({ ...env, OABP_PUBLIC_URL: "http://8.8.8.8:4000" })).toThrow(/refused on a public server/);
    expect(() => parseEnv({ OABP_MESH_PRIVATE_NETWORK: "true", OABP_PUBLIC_URL: "http://mesh-hub:4000" })).toThrow(
      /OABP_MESH_SHARED_KEY: required/,
    );
    expect(() => parseEnv({ OABP_MESH_SHARED_KEY: SHARED_KEY })).toThrow(/only with OABP_MESH_PRIVATE_NETWORK=true/);
    for (const url of ["http://mesh-hub:4000", "http://192.168.1.10:4000", "http://hub.lan", "http://[fd00::1]:4000"])
      expect(parseEnv({ ...env, OABP_PUBLIC_URL: url }).meshPrivateNetwork).toBe(true);
  });
});
