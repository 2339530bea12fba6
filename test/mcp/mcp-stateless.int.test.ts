import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpSessions } from "../../src/db/schema/index";
import { serveTestApp, type ServedTestApp } from "../helpers/served";
import { openMission, signIn } from "../helpers/agents";

// The stateless MCP 2026-07-28 lane on /mcp, with the revision's own examples over raw fetch
// (schema/2026-07-28/examples DiscoverRequest, ListToolsRequest; transports/streamable-http
// "Standard Request Headers"): no initialize, no Mcp-Session-Id; `_meta` on every request; the
// Mcp-Method / Mcp-Name headers checked against the body (docs/mcp.md "Stateless lane").

let t: ServedTestApp;
beforeAll(async () => {
  t = await serveTestApp();
});
afterAll(() => t?.close());

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "ExampleClient", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A stateless JSON-RPC request: its params carry the per-request `_meta` (META). */
const request = (id: string | number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: META },
});

async function post(body: Record<string, any>, headers: Record<string, string> = {}) {
  const r = await fetch(`${t.base}/mcp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": body.method,
      ...(body.params?.name ? { "Mcp-Name": body.params.name } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  expect(r.headers.get("mcp-session-id")).toBeNull();
  return { status: r.status, body: (await r.json()) as Record<string, any> };
}

describe("MCP 2026-07-28 stateless lane", () => {
  it("server/discover, tools/list and tools/call without initialize or a session", async () => {
    const sessionsBefore = (await t.deps.database.db.select().from(mcpSessions)).length;
    const discover = await post(request("discover-1", "server/discover"));
    expect(discover.status).toBe(200);
    expect(discover.body).toMatchObject({
      jsonrpc: "2.0",
      id: "discover-1",
      result: {
        resultType: "complete",
        supportedVersions: expect.arrayContaining(["2026-07-28", "2025-11-25", "2025-06-18"]),
        capabilities: { tools: {} },
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "oabp-server" } },
        ttlMs: expect.any(Number),
        cacheScope: "public",
      },
    });

    const list = await post(request("list-tools-example", "tools/list"));
    expect(list.status).toBe(200);
    expect(list.body.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "public" });
    const names = (list.body.result.tools as { name: string }[]).map((x) => x.name);
    expect(names).toContain("get_mission");

    const { mission } = await openMission(t);
    const got = await post(request(1, "tools/call", { name: "get_mission", arguments: { mission_id: mission.id } }));
    expect(got.status).toBe(200);
    expect(got.body.result).toMatchObject({
      resultType: "complete",
      isError: false,
      structuredContent: { id: mission.id, status: "open" },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "oabp-server" } },
    });
    expect(JSON.parse(got.body.result.content[0].text)).toEqual(got.body.result.structuredContent);

    // A write with the request's own credentials (no session to sign in on).
    const solver = await signIn(t);
    const sub = await post(
      request(2, "tools/call", {
        name: "submit_solution",
        arguments: { mission_id: mission.id, content: "stateless" },
      }),
      { Authorization: `Bearer ${solver.token}` },
    );
    expect(sub.body.result).toMatchObject({ isError: false, structuredContent: { submitter: solver.address } });
    // No session was minted for any of it.
    expect((await t.deps.database.db.select().from(mcpSessions)).length).toBe(sessionsBefore);
  });

  it("answers the revision's modern errors: unsupported version, header mismatch, unknown method", async () => {
    const old = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1900-01-01" } },
      },
      { "MCP-Protocol-Version": "1900-01-01" },
    );
    expect(old.status).toBe(400);
    expect(old.body.error).toMatchObject({
      code: -32022,
      data: { supported: expect.arrayContaining(["2026-07-28"]), requested: "1900-01-01" },
    });
    const wrongName = await post(request(2, "tools/call", { name: "get_mission", arguments: {} }), {
      "Mcp-Name": "list_missions",
    });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.error.code).toBe(-32020);
    const noMethod = await post(request(3, "tools/list"), { "Mcp-Method": "prompts/list" });
    expect(noMethod.status).toBe(400);
    expect(noMethod.body.error.code).toBe(-32020);
    // Base64 sentinel names decode before the comparison.
    const encoded = await post(request(4, "tools/call", { name: "list_missions", arguments: {} }), {
      "Mcp-Name": `=?base64?${Buffer.from("list_missions").toString("base64")}?=`,
    });
    expect(encoded.status).toBe(200);
    // The stateless header without the `_meta` it mirrors is a mismatch, not a legacy request.
    const bare = await post({ jsonrpc: "2.0", id: 6, method: "tools/list" });
    expect(bare.status).toBe(400);
    expect(bare.body.error.code).toBe(-32020);
    // A stale Mcp-Session-Id is ignored on the stateless lane (transports/streamable-http "Backward Compatibility").
    const stale = await post(request(7, "tools/list"), { "Mcp-Session-Id": "mcp_gone" });
    expect(stale.status).toBe(200);
    const unknown = await post(request(5, "prompts/list"));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe(-32601);
  });
});
