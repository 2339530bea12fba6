import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mcpSessions } from "../../src/db/schema/index";
import { createSession, terminateSession } from "../../src/features/mcp/mcp.sessions";
import { startJobRunner } from "../../src/jobs/runner";
import { PUBLIC_URL } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { INITIALIZE, INITIALIZED, initialize, expectTransportError, openSession, request, rpc } from "../helpers/mcp";
import { useTestApp } from "../helpers/suite-app";

// AIP-1 §7.2–§7.3 and MCP 2025-06-18 Streamable HTTP, one rule per test, over raw HTTP with the
// injected clock for the handshake window, the idle timeout and the cooling period.
const t = useTestApp();

const SECOND = 1000;
const row = async (id: string) =>
  (await t.deps.database.db.select().from(mcpSessions).where(eq(mcpSessions.id, id)))[0];
const RECIPE = `${PUBLIC_URL}/.well-known/agent-card.json#/transport/protocols/0/handshake`;

describe("initialize", () => {
  it("answers with Mcp-Session-Id, the id repeated in the result, and our protocol revision", async () => {
    const r = await rpc(t, INITIALIZE());
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    const id = r.headers.get("mcp-session-id")!;
    expect(id).toMatch(/^[\x21-\x7e]{20,}$/);
    expect(r.body.result).toMatchObject({
      protocolVersion: "2025-06-18",
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: "oabp-server", version: expect.any(String) },
      instructions: expect.any(String),
      sessionId: id,
    });
    expect(await row(id)).toMatchObject({ state: "pending", clientName: "oabp-test", clientVersion: "1.0.0" });
  });

  it("answers the client's revision when it speaks it, else 2025-11-25, and ignores a stale session header", async () => {
    const old = await rpc(
      t,
      request("initialize", {
        protocolVersion: "2024-11-05",
        capabilities: {},
        clientInfo: { name: "x", version: "0" },
      }),
      { session: "mcp_stale" },
    );
    expect(old.body.result.protocolVersion).toBe("2024-11-05");
    expect(old.headers.get("mcp-session-id")).not.toBe("mcp_stale");
    const unknown = await rpc(
      t,
      request("initialize", {
        protocolVersion: "1999-01-01",
        capabilities: {},
        clientInfo: { name: "x", version: "0" },
      }),
    );
    expect(unknown.body.result.protocolVersion).toBe("2025-11-25");
  });

  it("30 concurrent initialize calls from one client all succeed with distinct session ids", async () => {
    const all = await Promise.all(Array.from({ length: 30 }, () => rpc(t, INITIALIZE())));
    expect(all.map((r) => r.status)).toEqual(Array(30).fill(200));
    const ids = all.map((r) => r.headers.get("mcp-session-id"));
    expect(new Set(ids).size).toBe(30);
    for (const r of all) expect(r.body.result.sessionId).toBe(r.headers.get("mcp-session-id"));
    // and every one of them completes its handshake
    const done = await Promise.all(ids.map((id) => rpc(t, INITIALIZED, { session: id! })));
    expect(done.map((r) => r.status)).toEqual(Array(30).fill(202));
  });
});

describe("handshake window (§7.3.1)", () => {
  it("a session that never sends notifications/initialized gets no tool calls, then is rejected and discarded", async () => {
    const id = await initialize(t);
    // pending: tools are refused with a 4xx JSON-RPC error that points at the missing step
    const early = await rpc(t, request("tools/list"), { session: id });
    expectTransportError(early, 400, -32600, PUBLIC_URL);
    expect(early.body.error.data.recipeUrl).toBe(`${RECIPE}/postInitializeNotification`);
    const call = await rpc(t, request("tools/call", { name: "list_missions", arguments: {} }), { session: id });
    expect(call.status).toBe(400);
    expect(early.headers.get("mcp-session-id")).toBeNull(); // nothing successful to echo
    // past the window: the session is gone for every purpose, before any purge has run
    t.clock.advance(30 * SECOND + 1);
    expectTransportError(await rpc(t, request("tools/list"), { session: id }), 404, -32001, PUBLIC_URL);
    expectTransportError(await rpc(t, INITIALIZED, { session: id }), 404, -32001, PUBLIC_URL);
    expect(await row(id)).toMatchObject({ state: "pending" });
    // the job runner discards it once the cooling period has passed too (the id stays reserved until then)
    const jobs = startJobRunner(t.deps, 0);
    await jobs.tick();
    expect(await row(id)).toBeDefined();
    t.clock.advance(10 * SECOND);
    await jobs.tick();
    expect(await row(id)).toBeUndefined();
    expectTransportError(await rpc(t, request("tools/list"), { session: id }), 404, -32001, PUBLIC_URL);
  });

  it("notifications/initialized inside the window activates the session; repeating it is harmless", async () => {
    const id = await initialize(t);
    t.clock.advance(29 * SECOND);
    const r = await rpc(t, INITIALIZED, { session: id });
    expect(r.status).toBe(202);
    expect(r.text).toBe("");
    expect(r.headers.get("mcp-session-id")).toBe(id);
    expect(await row(id)).toMatchObject({ state: "active" });
    expect((await rpc(t, INITIALIZED, { session: id })).status).toBe(202);
    // sent as a request (with an id) by some clients: answered, not refused
    const asRequest = await rpc(t, { jsonrpc: "2.0", id: 9, method: "notifications/initialized" }, { session: id });
    expect(asRequest.body).toEqual({ jsonrpc: "2.0", id: 9, result: {} });
    expect((await rpc(t, request("tools/list"), { session: id })).status).toBe(200);
  });
});

describe("follow-ups (§7.3.5)", () => {
  it("every successful follow-up response echoes Mcp-Session-Id", async () => {
    const id = await initialize(t);
    const init = await rpc(t, INITIALIZED, { session: id });
    const list = await rpc(t, request("tools/list"), { session: id });
    const call = await rpc(t, request("tools/call", { name: "list_missions", arguments: { limit: 1 } }), {
      session: id,
    });
    const ping = await rpc(t, request("ping"), { session: id });
    const cancelled = await rpc(
      t,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      { session: id },
    );
    const answer = await rpc(t, { jsonrpc: "2.0", id: 77, result: {} }, { session: id });
    const unknownMethod = await rpc(t, request("resources/list"), { session: id });
    for (const r of [init, list, call, ping, cancelled, answer, unknownMethod]) {
      expect([200, 202]).toContain(r.status);
      expect(r.headers.get("mcp-session-id")).toBe(id);
    }
    expect(unknownMethod.body.error.code).toBe(-32601);
    expect(ping.body.result).toEqual({});
  });

  it("an unknown, expired or terminated session is -32001 'session expired' with the endpoint and the recipe", async () => {
    const req = request("tools/list");
    const r = await rpc(t, req, { session: "mcp_never_issued" });
    expectTransportError(r, 404, -32001, PUBLIC_URL);
    expect(r.body.error.message).toBe("session expired");
    expect(r.body.error.data).toMatchObject({
      canonical_endpoint: `${PUBLIC_URL}/mcp`,
      recipeUrl: RECIPE,
      lifecycle: `${PUBLIC_URL}/.well-known/oabp.json#/mcp/lifecycle`,
    });
    expect(r.body.id).toBe(req.id);
    // a header that cannot be a session id at all gets the same answer
    expect((await rpc(t, request("tools/list"), { session: "bad id with spaces" })).status).toBe(404);
  });

  it("an active session ends after the idle timeout; requests push the deadline back", async () => {
    const id = await openSession(t);
    t.clock.advance(50 * 60 * SECOND);
    expect((await rpc(t, request("ping"), { session: id })).status).toBe(200); // extends to +60 min from now
    t.clock.advance(50 * 60 * SECOND);
    expect((await rpc(t, request("tools/list"), { session: id })).status).toBe(200);
    t.clock.advance(60 * 60 * SECOND + 1);
    expectTransportError(await rpc(t, request("tools/list"), { session: id }), 404, -32001, PUBLIC_URL);
  });

  it("a session opened by a signed-in agent is invisible to other callers", async () => {
    const a = await signIn(t);
    const b = await signIn(t);
    const id = await openSession(t, a.token);
    expect((await rpc(t, request("tools/list"), { session: id, token: a.token })).status).toBe(200);
    expect((await rpc(t, request("tools/list"), { session: id, token: b.token })).status).toBe(404);
    expect((await rpc(t, request("tools/list"), { session: id })).status).toBe(404);
    // nor can they end it
    await t.call("DELETE", "/mcp", { token: b.token, headers: { "mcp-session-id": id } });
    expect((await rpc(t, request("tools/list"), { session: id, token: a.token })).status).toBe(200);
  });
});

describe("teardown (§7.3.2) and liveness (§7.3.4)", () => {
  it("DELETE ends the session: 200 with an empty body; the id is then expired", async () => {
    const id = await openSession(t);
    const r = await t.call("DELETE", "/mcp", { headers: { "mcp-session-id": id } });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    expect(r.headers.get("mcp-session-id")).toBe(id);
    expect(await row(id)).toMatchObject({ state: "terminated" });
    expectTransportError(await rpc(t, request("tools/list"), { session: id }), 404, -32001, PUBLIC_URL);
  });

  it("DELETE with an unknown, terminated or missing id is also 200 with an empty body", async () => {
    const id = await openSession(t);
    await t.call("DELETE", "/mcp", { headers: { "mcp-session-id": id } });
    for (const headers of [{ "mcp-session-id": id }, { "mcp-session-id": "mcp_unknown" }, {}] as Record<
      string,
      string
    >[]) {
      const r = await t.call("DELETE", "/mcp", { headers });
      expect(r.status).toBe(200);
      expect(r.text).toBe("");
      expect(r.headers.get("mcp-session-id")).toBeNull();
    }
  });

  it('GET is 200 {"ready":true} with or without a session; HEAD answers too', async () => {
    const id = await openSession(t);
    const none = await t.call("GET", "/mcp");
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ ready: true });
    const live = await t.call("GET", "/mcp", { headers: { "mcp-session-id": id } });
    expect(live.body).toEqual({ ready: true });
    expect(live.headers.get("mcp-session-id")).toBe(id);
    await t.call("DELETE", "/mcp", { headers: { "mcp-session-id": id } });
    const after = await t.call("GET", "/mcp", { headers: { "mcp-session-id": id } });
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ ready: true });
    const head = await t.call("HEAD", "/mcp");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("GET asking only for an event stream gets an empty stream that ends at once, never 405", async () => {
    const id = await openSession(t);
    const r = await t.call("GET", "/mcp", { headers: { accept: "text/event-stream", "mcp-session-id": id } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(r.text).toMatch(/^: .*\nretry: 300000\n\n$/);
  });
});

describe("session ids (§7.3.3)", () => {
  it("an id is never reassigned while pending or active, and only after the cooling period once ended", async () => {
    const ids =
      (...list: string[]) =>
      () =>
        list.shift() ?? "mcp_fallback_" + Math.random();
    const input = { protocolVersion: "2025-06-18", agentId: null, clientName: null, clientVersion: null };
    const x = "mcp_forced_reuse_candidate";
    expect((await createSession(t.deps, { ...input, newId: ids(x) })).id).toBe(x);
    expect((await createSession(t.deps, { ...input, newId: ids(x, "mcp_other_1") })).id).toBe("mcp_other_1"); // pending
    expect((await rpc(t, INITIALIZED, { session: x })).status).toBe(202);
    expect((await createSession(t.deps, { ...input, newId: ids(x, "mcp_other_2") })).id).toBe("mcp_other_2"); // active
    expect(await terminateSession(t.deps, x)).toBe(true);
    t.clock.advance(9 * SECOND);
    expect((await createSession(t.deps, { ...input, newId: ids(x, "mcp_other_3") })).id).toBe("mcp_other_3"); // cooling
    t.clock.advance(1 * SECOND);
    expect((await createSession(t.deps, { ...input, newId: ids(x) })).id).toBe(x); // reissued after 10 s
    expect(await row(x)).toMatchObject({ state: "pending", terminatedAt: null });
  });
});

describe("transport errors (§7.2.1, §7.4)", () => {
  it("a wrong Accept is 406 with the §7.2.1 fields", async () => {
    expectTransportError(await rpc(t, INITIALIZE(), { headers: { accept: "text/html" } }), 406, -32600, PUBLIC_URL);
  });

  it("a wrong content type is 415 with the §7.2.1 fields (not the generic REST body)", async () => {
    const r = await rpc(t, "jsonrpc=2.0&method=initialize", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectTransportError(r, 415, -32600, PUBLIC_URL);
    expectTransportError(
      await rpc(t, JSON.stringify(INITIALIZE()), { headers: { "content-type": "text/plain" } }),
      415,
      -32600,
      PUBLIC_URL,
    );
  });

  it("malformed JSON, a batch, a non-JSON-RPC envelope: 400 with the §7.2.1 fields", async () => {
    expectTransportError(await rpc(t, "{not json"), 400, -32700, PUBLIC_URL);
    expectTransportError(await rpc(t, [INITIALIZE()]), 400, -32600, PUBLIC_URL);
    expectTransportError(await rpc(t, { id: 1, method: "initialize" }), 400, -32600, PUBLIC_URL);
    expectTransportError(
      await rpc(t, { jsonrpc: "2.0", id: 1, method: "tools/list", params: [1] }),
      400,
      -32600,
      PUBLIC_URL,
    );
  });

  it("a POST without initialize first gets errorShape.missingInitialize with recipeUrl", async () => {
    const expected = {
      code: -32600,
      message: "Invalid Request: send JSON-RPC initialize before any other MCP method.",
      data: { recipeUrl: RECIPE },
    };
    const empty = await rpc(t, "");
    expectTransportError(empty, 400, -32600, PUBLIC_URL);
    expect(empty.body.error).toEqual(expected);
    const noSession = await rpc(t, request("tools/list"));
    expect(noSession.status).toBe(400);
    expect(noSession.body.error).toEqual(expected);
    expect((await rpc(t, INITIALIZED)).body.error).toEqual(expected);
    // ping is allowed at any time (MCP lifecycle)
    expect((await rpc(t, { jsonrpc: "2.0", id: "p", method: "ping" })).body).toEqual({
      jsonrpc: "2.0",
      id: "p",
      result: {},
    });
  });

  it("an unsupported MCP-Protocol-Version header is 400 UnsupportedProtocolVersion; a missing one is accepted", async () => {
    const id = await openSession(t);
    const r = await rpc(t, request("tools/list"), { session: id, headers: { "mcp-protocol-version": "1999-01-01" } });
    expectTransportError(r, 400, -32022, PUBLIC_URL);
    expect(r.body.error.data).toMatchObject({
      requested: "1999-01-01",
      supported: expect.arrayContaining(["2025-11-25"]),
    });
    const bare = await t.call("POST", "/mcp", { body: request("tools/list"), headers: { "mcp-session-id": id } }); // no Accept, no version
    expect(bare.status).toBe(200);
  });

  it("an oversized body is 413 with the §7.2.1 fields", async () => {
    const big = JSON.stringify({
      ...request("tools/call", { name: "list_missions", arguments: {} }),
      pad: "x".repeat(t.deps.config.bodyLimitBytes),
    });
    expectTransportError(await rpc(t, big), 413, -32600, PUBLIC_URL);
  });

  it("PUT on /mcp is 405 with Allow and the §7.2.1 fields", async () => {
    const r = await t.call("PUT", "/mcp", { body: {} });
    expectTransportError(r, 405, -32600, PUBLIC_URL);
    expect(r.headers.get("allow")).toContain("DELETE");
  });

  it("paths listed in transport_paths.not_served get the §7.2 TransportNotSupported body", async () => {
    const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
    expect(manifest.mcp.transport_paths.not_served.length).toBeGreaterThan(0);
    for (const path of manifest.mcp.transport_paths.not_served) {
      for (const [method, opts] of [
        ["GET", {}],
        ["POST", { body: INITIALIZE() }],
        ["POST", { body: "x", headers: { "content-type": "text/plain" } }],
      ] as const) {
        const r = await t.call(method, path, opts);
        expect([404, 405], `${method} ${path}`).toContain(r.status);
        expect(r.headers.get("content-type")).toMatch(/^application\/json/);
        expect(r.body).toEqual({
          error: "TransportNotSupported",
          message: expect.stringContaining(path),
          canonical_mcp_endpoint: `${PUBLIC_URL}/mcp`,
          transport: "streamable_http",
          documentation: expect.stringContaining("#72-"),
        });
      }
    }
  });

  it("CORS lets browser clients send and read the session header", async () => {
    const pre = await t.call("OPTIONS", "/mcp", {
      headers: {
        origin: "https://a.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, mcp-session-id",
      },
    });
    expect(pre.status).toBe(204);
    const r = await rpc(t, INITIALIZE(), { headers: { origin: "https://a.example" } });
    expect(r.headers.get("access-control-expose-headers")).toContain("Mcp-Session-Id");
  });
});
