import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meshAgents } from "../../src/db/schema/index";
import type { TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { echoSkill, PLAIN_SKILLS, providerRegistration, registerPlainSkill, startMeshHub } from "../helpers/mesh";

// Agent Mesh hub end to end (docs/neighbours.md "Agent Mesh"; the Mesh document's "Example:
// Complete Skill Flow"): a real provider process (test/helpers/mesh-provider.mjs) registers,
// heartbeats, registers skills, is discovered and unregisters them. Invocation through the hub is
// in mesh-hub-invoke.e2e.test.ts, the bounds and suspension in mesh-hub-bounds.e2e.test.ts.

let hub: Awaited<ReturnType<typeof startMeshHub>>;
let t: TestApp;
let providerBase: string;
beforeAll(async () => {
  hub = await startMeshHub();
  t = hub.t;
  providerBase = hub.provider.base;
});
afterAll(() => hub?.close());

describe("Agent Mesh hub, end to end with a provider process", () => {
  let providerId: string;
  let apiKey: string;
  const skills: Record<string, string> = {};
  const asProvider = () => ({ "x-api-key": apiKey });

  it("registers an agent without signing in: an agent id and an API key, stored hashed", async () => {
    const r = await t.call("POST", "/api/agents/register", {
      body: providerRegistration(providerBase),
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
    const echo = echoSkill(providerId, providerBase);
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
    for (const [key, name, p] of PLAIN_SKILLS)
      skills[key] = await registerPlainSkill(t, { apiKey, providerBase, name, path: p });
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

  it("the provider unregisters a skill; another agent may not", async () => {
    const other = await signIn(t);
    expectError(await t.call("DELETE", `/api/skills/${skills.bare}`, { token: other.token }), 403, "FORBIDDEN");
    const del = await t.call("DELETE", `/api/skills/${skills.bare}`, { headers: asProvider() });
    expect(del.status, del.text).toBe(200);
    expectError(await t.call("GET", `/api/skills/${skills.bare}`), 404, "NOT_FOUND");
    expect((await t.call("GET", "/api/skills?name=data_answer")).body.skills).toEqual([]);
  });
});
