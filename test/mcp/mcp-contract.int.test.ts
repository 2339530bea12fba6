import { describe, expect, it } from "vitest";
import { PUBLIC_URL } from "../helpers/app";
import { openMission } from "../helpers/agents";
import { INITIALIZE, rpc } from "../helpers/mcp";
import { useTestApp } from "../helpers/suite-app";

// What the server declares about its MCP surface — the manifest's §7.1 `mcp` object and the A2A
// card's §7.4 `transport` block — checked against what it really does, request by request.
const t = useTestApp();

const CARD_PATHS = ["/.well-known/agent-card.json", "/.well-known/agent.json", "/agent-card.json"];
const manifest = async () => (await t.call("GET", "/.well-known/oabp.json")).body;
const card = async () => (await t.call("GET", "/.well-known/agent-card.json")).body;

/** RFC 6901 JSON Pointer. */
function pointer(doc: unknown, ptr: string): any {
  return ptr
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<any>((node, key) => (node === undefined ? undefined : node[key]), doc);
}

/** Replays a recipe step of the card literally: its method, its headers (placeholders filled), its body. */
async function replay(step: { method: string; headers: Record<string, string>; body?: unknown }, session?: string) {
  const url = new URL((await card()).transport.protocols[0].url);
  const headers = Object.fromEntries(
    Object.entries(step.headers).map(([k, v]) => [k, v === "<value-from-initialize-response>" ? session! : v]),
  );
  const res = await t.app.request(url.pathname, {
    method: step.method,
    headers,
    body: step.body === undefined ? undefined : JSON.stringify(step.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

describe("manifest mcp object (§7.1, §7.1.1)", () => {
  it("has exactly the §7.1 fields, with the configured window and cooling period", async () => {
    const m = await manifest();
    expect(m.mcp).toMatchObject({
      url: "/mcp",
      transport: "streamable_http",
      session_required: true,
      supported_methods: ["GET", "POST", "DELETE"],
      not_implemented: ["sse", "stdio"],
      handshake_timeout_seconds: 30,
      session_id_cooling_period_seconds: 10,
      lifecycle: {
        initialize: expect.stringContaining("Mcp-Session-Id"),
        initialized_notification: expect.stringContaining("within 30 seconds"),
        tool_calls: expect.stringContaining("tools/call"),
        teardown: expect.stringContaining("200 OK with an empty body"),
        liveness_probe: expect.stringContaining("GET /mcp returns 200 OK"),
      },
      transport_paths: {
        served: ["/mcp"],
        compatibility_served: [],
        not_served: expect.arrayContaining(["/sse", "/v1/messages", "/mcp/sse"]),
      },
    });
    expect(["streamable_http", "sse", "stdio"]).toContain(m.mcp.transport);
    expect(m.endpoints.mcp).toBe(m.mcp.url);
    // compatibility_served and not_served never share a path (§7.1.1 MUST NOT)
    expect(
      m.mcp.transport_paths.compatibility_served.filter((p: string) => m.mcp.transport_paths.not_served.includes(p)),
    ).toEqual([]);
  });

  it("every served path speaks MCP and every supported method answers there (never 404/405)", async () => {
    const m = await manifest();
    for (const path of m.mcp.transport_paths.served) {
      const init = await t.call("POST", path, {
        body: INITIALIZE(),
        headers: { accept: "application/json, text/event-stream" },
      });
      expect(init.status).toBe(200);
      const session = init.headers.get("mcp-session-id")!;
      for (const method of m.mcp.supported_methods) {
        const r = await t.call(
          method,
          path,
          method === "POST"
            ? { body: { jsonrpc: "2.0", method: "notifications/initialized" }, headers: { "mcp-session-id": session } }
            : { headers: { "mcp-session-id": session } },
        );
        expect(r.status, `${method} ${path}`).toBeLessThan(300);
      }
    }
  });

  it("every not_served path gives the §7.2 body, and every compatibility path answers", async () => {
    const m = await manifest();
    for (const path of m.mcp.transport_paths.not_served) {
      for (const method of ["GET", "POST", "DELETE"]) {
        const r = await t.call(method, path);
        expect([404, 405]).toContain(r.status);
        expect(r.body).toMatchObject({
          error: "TransportNotSupported",
          canonical_mcp_endpoint: `${PUBLIC_URL}${m.mcp.url}`,
          transport: m.mcp.transport,
        });
      }
    }
    for (const path of m.mcp.transport_paths.compatibility_served) {
      expect((await t.call("GET", path)).status).toBeLessThan(400);
    }
  });

  it("the published handshake window is the one enforced", async () => {
    const m = await manifest();
    const early = await rpc(t, INITIALIZE());
    t.clock.advance(m.mcp.handshake_timeout_seconds * 1000 - 1);
    expect(
      (
        await rpc(
          t,
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { session: early.headers.get("mcp-session-id")! },
        )
      ).status,
    ).toBe(202);
    const late = await rpc(t, INITIALIZE());
    t.clock.advance(m.mcp.handshake_timeout_seconds * 1000);
    expect(
      (
        await rpc(
          t,
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { session: late.headers.get("mcp-session-id")! },
        )
      ).body.error.code,
    ).toBe(-32001);
  });
});

describe("A2A agent card (§9.3) and its transport block (§7.4)", () => {
  it("is served byte-identical at the three aliases, with the §9.3 fields consistent with the manifest", async () => {
    const bodies = await Promise.all(CARD_PATHS.map((p) => t.call("GET", p)));
    for (const r of bodies) {
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      expect(r.text).toBe(bodies[0]!.text);
    }
    const c = bodies[0]!.body;
    const m = await manifest();
    expect(c).toMatchObject({
      name: m.implementation,
      description: "Open Agent Bounty Protocol mission marketplace",
      protocols: ["oabp", "a2a"],
      oabp_manifest: "/.well-known/oabp.json",
      endpoints: { missions: m.endpoints.missions, mcp: m.mcp.url },
      version: m.version,
    });
    // A2A 1.0: no top-level url (the MCP endpoint is named by endpoints.mcp and the transport
    // block); supportedInterfaces names the A2A binding (test/a2a/a2a-card.int.test.ts).
    expect(c.url).toBeUndefined();
    expect((await t.call("GET", c.oabp_manifest)).status).toBe(200);
    const skill = c.skills.find((s: { id: string }) => s.id === "oabp.missions");
    expect(skill).toMatchObject({
      name: "Open Agent Bounty Protocol missions",
      input_modes: ["application/json"],
      output_modes: ["application/json"],
      endpoints: { manifest: "/.well-known/oabp.json", missions: "/missions" },
    });
    for (const path of Object.values(skill.endpoints) as string[]) expect((await t.call("GET", path)).status).toBe(200);
  });

  it("the transport block points at the manifest's MCP endpoint", async () => {
    const c = await card();
    const m = await manifest();
    expect(c.transport.primary).toBe("mcp-streamable-http");
    const mcp = c.transport.protocols[0];
    expect(mcp).toMatchObject({
      id: "mcp-streamable-http",
      spec: "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http",
    });
    expect(m.mcp.transport_paths.served).toContain(new URL(mcp.url).pathname);
    expect(new URL(mcp.url).origin).toBe(PUBLIC_URL);
    expect(mcp.handshake.responseSessionHeader.name).toBe("Mcp-Session-Id");
  });

  it("its recipe, replayed literally, opens a session and lists the tools", async () => {
    const mcp = (await card()).transport.protocols[0];
    const init = await replay(mcp.handshake);
    expect(init.status).toBe(200);
    const session = init.headers.get(mcp.handshake.responseSessionHeader.name)!;
    expect(session).toBeTruthy();
    expect(init.body.result.protocolVersion).toBe(mcp.handshake.body.params.protocolVersion);
    const notified = await replay(mcp.handshake.postInitializeNotification, session);
    expect(notified.status).toBe(202);
    expect(notified.headers.get("mcp-session-id")).toBe(session);
    const next = await replay(mcp.handshake.exampleNextCall, session);
    expect(next.status).toBe(200);
    expect(next.body.id).toBe(mcp.handshake.exampleNextCall.body.id);
    expect(next.body.result.tools.map((x: { name: string }) => x.name)).toContain("list_missions");
    const bye = await replay(mcp.handshake.teardown, session);
    expect(bye.status).toBe(200);
    expect(bye.text).toBe("");
  });

  it("errorShape is what the server really sends, and recipeUrl resolves to the handshake object", async () => {
    const c = await card();
    const shape = c.transport.protocols[0].errorShape;
    expect(shape.format).toBe("json-rpc-2.0");
    const noInit = await t.call("POST", "/mcp", { body: "", headers: { "content-type": "application/json" } });
    expect({ jsonrpc: noInit.body.jsonrpc, id: noInit.body.id, error: noInit.body.error }).toEqual(
      shape.missingInitialize,
    );
    const listFirst = await rpc(t, { jsonrpc: "2.0", id: 5, method: "tools/list" });
    expect(listFirst.body.error).toEqual(shape.missingInitialize.error);
    const expired = await rpc(t, { jsonrpc: "2.0", method: "notifications/initialized" }, { session: "mcp_gone" });
    expect({ jsonrpc: expired.body.jsonrpc, id: expired.body.id, error: expired.body.error }).toEqual(
      shape.sessionExpired,
    );
    // the recipe pointers dereference: card#/transport/protocols/0/handshake, manifest#/mcp/lifecycle
    const recipe = new URL(shape.missingInitialize.error.data.recipeUrl);
    expect(recipe.origin).toBe(PUBLIC_URL);
    const fetched = (await t.call("GET", recipe.pathname)).body;
    expect(pointer(fetched, decodeURIComponent(recipe.hash.slice(1)))).toEqual(c.transport.protocols[0].handshake);
    const lifecycle = new URL(shape.sessionExpired.error.data.lifecycle);
    expect(pointer((await t.call("GET", lifecycle.pathname)).body, lifecycle.hash.slice(1))).toEqual(
      (await manifest()).mcp.lifecycle,
    );
    // §7.3.5 pointer inside a pending-session refusal: the notification step
    const pending = await rpc(t, INITIALIZE());
    const refused = await rpc(
      t,
      { jsonrpc: "2.0", id: 6, method: "tools/list" },
      { session: pending.headers.get("mcp-session-id")! },
    );
    const step = new URL(refused.body.error.data.recipeUrl);
    expect(pointer(fetched, step.hash.slice(1))).toEqual(c.transport.protocols[0].handshake.postInitializeNotification);
  });

  it("the oabp-rest-readonly fallback lists only GET endpoints, and each answers", async () => {
    const { mission } = await openMission(t);
    const rest = (await card()).transport.protocols.find((p: { id: string }) => p.id === "oabp-rest-readonly");
    expect(rest.endpoints.length).toBeGreaterThanOrEqual(3);
    for (const e of rest.endpoints as { path: string; method: string }[]) {
      expect(e.method).toBe("GET");
      const r = await t.call("GET", e.path.replace("{id}", mission.id));
      expect(r.status, e.path).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  it("is documented in /openapi.json, with /mcp GET, POST and DELETE", async () => {
    const doc = (await t.call("GET", "/openapi.json")).body;
    for (const p of CARD_PATHS) expect(doc.paths[p]?.get, p).toBeDefined();
    expect(Object.keys(doc.paths["/mcp"]).sort()).toEqual(["delete", "get", "post"]);
    expect(doc.paths["/mcp"].post.responses["400"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/McpTransportError",
    );
  });
});
