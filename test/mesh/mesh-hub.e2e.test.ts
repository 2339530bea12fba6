import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meshAgents } from "../../src/db/schema/index";
import { ADMIN_TOKEN, makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";

// Agent Mesh hub end to end (docs/neighbours.md "Agent Mesh"; the Mesh document's "Example:
// Complete Skill Flow"): a real provider process (test/helpers/mesh-provider.mjs) on 127.0.0.2 —
// the one loopback address the test app's SSRF-safe fetcher may reach, as for content servers —
// registers, heartbeats, registers skills; a consumer discovers and invokes them through the hub.

const PROVIDER_SCRIPT = path.resolve(import.meta.dirname, "../helpers/mesh-provider.mjs");

let t: TestApp;
let provider: ChildProcess;
let providerBase: string;

function startProvider(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [PROVIDER_SCRIPT], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`provider exited (${code})`)));
    createInterface({ input: child.stdout! }).once("line", (line) => {
      const { port } = JSON.parse(line) as { port: number };
      resolve({ child, base: `http://${TEST_CONTENT_HOST}:${port}` });
    });
  });
}

beforeAll(async () => {
  // The hub's own time cap is short so the silent provider's timeout comes quickly; nothing
  // asserts a duration, only the outcome.
  t = await makeTestApp({ OABP_MESH_SKILLS_PER_AGENT: "5" }, { limits: { meshInvokeTimeoutMs: 400 } });
  ({ child: provider, base: providerBase } = await startProvider());
});
afterAll(async () => {
  if (provider && provider.exitCode === null) {
    const exited = new Promise((r) => provider.once("exit", r));
    provider.kill("SIGTERM");
    await exited;
  }
  await t?.close();
});

const received = async () =>
  (await (await fetch(`${providerBase}/received`)).json()) as Array<{
    path: string;
    from_header: string | null;
    message: any;
  }>;

describe("Agent Mesh hub, end to end with a provider process", () => {
  let providerId: string;
  let apiKey: string;
  const skills: Record<string, string> = {};
  let consumer: { token: string; address: string };
  const asProvider = () => ({ "x-api-key": apiKey });

  it("registers an agent without signing in: an agent id and an API key, stored hashed", async () => {
    const r = await t.call("POST", "/api/agents/register", {
      body: { name: "SearchBot", endpoint: `${providerBase}/mesh`, capabilities: ["web_search", "data_extraction"] },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      success: true,
      agentId: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      message: "Agent registered successfully",
      api_key: expect.stringMatching(/^oabp_mesh_/),
    });
    expect(r.headers.get("cache-control")).toBe("no-store");
    providerId = r.body.agentId;
    apiKey = r.body.api_key;
    const rows = await t.deps.database.db.select().from(meshAgents).where(eq(meshAgents.agentId, providerId));
    expect(rows[0]!.apiKeyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(apiKey);

    // The directory entry: the Mesh name and capabilities on GET /agents/{id}.
    const a = await t.call("GET", `/api/agents/${providerId}`);
    expect(a.body).toMatchObject({
      agent_id: providerId,
      display_name: "SearchBot",
      capabilities: ["web_search", "data_extraction"],
      registered: true,
      skills: [],
    });
  });

  it("heartbeats with its API key; a wrong key is anonymous (401)", async () => {
    t.clock.advance(45_000);
    const r = await t.call("POST", `/api/agents/${providerId}/heartbeat`, { headers: asProvider() });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ agent_id: providerId, online: true, last_seen_at: t.clock.now().toISOString() });
    const bad = await t.call("POST", `/api/agents/${providerId}/heartbeat`, {
      headers: { "x-api-key": "oabp_mesh_not-a-key" },
    });
    expectError(bad, 401, "UNAUTHORIZED");
  });

  it("registers skills with schemas, tags and a rate limit; re-registering a name replaces it", async () => {
    const echo = {
      agentId: providerId,
      name: "web_search",
      description: "Search the web for current information",
      endpoint: `${providerBase}/mesh/skills/echo`,
      version: "1.0.0",
      inputSchema: {
        type: "object",
        required: ["query"],
        properties: { query: { type: "string", minLength: 1, maxLength: 100 }, limit: { type: "integer", minimum: 1 } },
        additionalProperties: false,
      },
      outputSchema: { type: "object", required: ["echo"] },
      tags: ["web", "search"],
      rateLimit: { maxCalls: 3, periodMs: 60_000 },
    };
    const first = await t.call("POST", "/api/skills", { headers: asProvider(), body: { ...echo, version: "0.9.0" } });
    expect(first.status, first.text).toBe(200);
    const again = await t.call("POST", "/api/skills", { headers: asProvider(), body: echo });
    expect(again.status, again.text).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body).toMatchObject({
      id: expect.stringMatching(/^skl_/),
      agent_id: providerId,
      agent_name: "SearchBot",
      name: "web_search",
      version: "1.0.0",
      tags: ["web", "search"],
      rate_limit: { maxCalls: 3, periodMs: 60_000 },
      input_schema: echo.inputSchema,
    });
    skills.echo = again.body.id;
    for (const [key, name, p] of [
      ["bare", "data_answer", "bare"],
      ["slow", "sys_sleep", "slow"],
      ["boom", "data_explode", "boom"],
    ] as const) {
      const r = await t.call("POST", "/api/skills", {
        headers: asProvider(),
        body: { name, description: `the ${p} skill`, endpoint: `${providerBase}/mesh/skills/${p}`, tags: ["data"] },
      });
      expect(r.status, r.text).toBe(200);
      skills[key] = r.body.id;
    }
    // Its agent record lists them.
    const a = await t.call("GET", `/api/agents/${providerId}`);
    expect(a.body.skills.map((s: { name: string }) => s.name)).toEqual([
      "web_search",
      "data_answer",
      "sys_sleep",
      "data_explode",
    ]);
  });

  it("discovers skills by tag and name, in keyset pages", async () => {
    const byTag = await t.call("GET", "/api/skills?tag=search");
    expect(byTag.status, byTag.text).toBe(200);
    expect(byTag.body.skills.map((s: { id: string }) => s.id)).toEqual([skills.echo]);
    const byName = await t.call("GET", "/api/skills?name=data_answer");
    expect(byName.body.skills.map((s: { id: string }) => s.id)).toEqual([skills.bare]);
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `/api/skills?tag=data&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const r = await t.call("GET", q);
      expect(r.status, r.text).toBe(200);
      pages.push(...r.body.skills.map((s: { id: string }) => s.id));
      cursor = r.body.next_cursor;
    } while (cursor);
    expect(pages).toEqual([skills.bare, skills.slow, skills.boom]);
    expectError(await t.call("GET", "/api/skills?cursor=bm90LWFuLWlk"), 400, "INVALID_PARAMETER");
    const one = await t.call("GET", `/api/skills/${skills.echo}`);
    expect(one.body).toMatchObject({ id: skills.echo, name: "web_search" });
  });

  it("the provider's skills show on its agent page (escaped) and beside its ADP card in discovery", async () => {
    const x = await t.call("POST", "/api/skills", {
      headers: asProvider(),
      body: { name: "web_markup", description: "<script>alert(1)</script> & more", tags: ["web"] },
    });
    expect(x.status, x.text).toBe(200);
    const page = await t.app.request(`/u/${providerId}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("<code>web_search</code>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more");
    expect(html).not.toContain("<script>alert(1)");
    expect((await t.call("DELETE", `/api/skills/${x.body.id}`, { headers: asProvider() })).status).toBe(200);

    const card = await t.call("POST", "/adp/adp.advertise", {
      headers: asProvider(),
      body: { id: "agent://searchbot", name: "SearchBot", skills: ["web/search"] },
    });
    expect(card.status, card.text).toBe(200);
    const found = await t.call("POST", "/adp/adp.discover", { body: { tags: ["web/search"] } });
    expect(found.status, found.text).toBe(200);
    const mine = found.body.results.find((r: { agent_id: string }) => r.agent_id === providerId);
    expect(mine.agent_card).toMatchObject({ id: "agent://searchbot" });
    expect(mine.agent_card).not.toHaveProperty("mesh_skills");
    expect(mine.mesh_skills.map((k: { name: string }) => k.name)).toEqual([
      "web_search",
      "data_answer",
      "sys_sleep",
      "data_explode",
    ]);
  });

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

  it("bounds: skills per agent, schema depth and keywords, endpoints the hub may not call", async () => {
    const five = await t.call("POST", "/api/skills", {
      headers: asProvider(),
      body: { name: "data_fifth", description: "five of five" },
    });
    expect(five.status, five.text).toBe(200);
    const six = await t.call("POST", "/api/skills", {
      headers: asProvider(),
      body: { name: "data_sixth", description: "one too many" },
    });
    expectError(six, 409, "CONFLICT");
    expect(six.body.details).toMatchObject({ reason: "too_many_skills", limit: 5 });
    // Replacing an existing one is still allowed at the cap.
    const replace = await t.call("POST", "/api/skills", {
      headers: asProvider(),
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
    const inv = await t.call("POST", `/api/skills/${skills.bare}/invoke`, {
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

    const p = await t.call("POST", `/api/admin/agents/${providerId}/suspend`, {
      token: ADMIN_TOKEN,
      body: { reason: "mesh test" },
    });
    expect(p.status, p.text).toBe(200);
    const other = await signIn(t);
    const toSuspended = await t.call("POST", `/api/skills/${skills.bare}/invoke`, {
      token: other.token,
      body: { payload: {} },
    });
    expectError(toSuspended, 503, "SERVICE_UNAVAILABLE");
    expect(toSuspended.body.details).toMatchObject({ reason: "provider_suspended" });
  });

  it("the provider unregisters a skill; another agent may not", async () => {
    const other = await signIn(t);
    expectError(await t.call("DELETE", `/api/skills/${skills.bare}`, { token: other.token }), 403, "FORBIDDEN");
    const del = await t.call("DELETE", `/api/skills/${skills.bare}`, { headers: asProvider() });
    expect(del.status, del.text).toBe(200);
    expectError(await t.call("GET", `/api/skills/${skills.bare}`), 404, "NOT_FOUND");
    expect((await t.call("GET", "/api/skills?name=data_answer")).body.skills).toEqual([]);
  });
});
