import { describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { MCP_HEADERS } from "../helpers/mcp";
import { httpSignIn as signIn } from "../helpers/process";
import { httpCredit, startPair, useCleanups } from "../helpers/process-suite";
import { TOOLS } from "../../src/features/mcp";

// MCP sessions live in Postgres, so any instance serves any session. Two real server
// processes on one database: initialize on the first, complete the handshake and call tools on
// the second; a DELETE on the first ends the session on the second too (its session cache hears
// the NOTIFY), and a pending session is refused tools on either.
describe.runIf(onRealPostgres)("MCP across two server processes on one Postgres", () => {
  const cleanups = useCleanups();

  async function http(
    base: string,
    method: string,
    p: string,
    o: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.body !== undefined) headers["content-type"] ??= "application/json";
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const res = await fetch(base + p, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  }
  const mcp = (base: string, message: unknown, session?: string, token?: string) =>
    http(base, "POST", "/mcp", {
      body: message,
      token,
      headers: { ...MCP_HEADERS, ...(session ? { "mcp-session-id": session } : {}) },
    });
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "two-process-test", version: "1" } },
  };
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
  const call = (id: number, name: string, args: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  });

  it("initialize on one instance, tools on the other; DELETE on the first ends it on both", async () => {
    const { a, b } = await startPair(cleanups, "oabp_mcp_two");

    const creator = await signIn(a.base);
    await httpCredit(a.base, creator.address, "1000000000");
    const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const mission = (
      await http(a.base, "POST", "/missions", {
        token: creator.token,
        body: {
          title: "Two instances",
          description: "One session, two servers.",
          reward: { asset: "USDC", amount: "1000000" },
          verification: { type: "creator_judges" },
          deadline,
          tags: ["two"],
        },
      })
    ).body;
    expect(mission.id).toMatch(/^mis_/);

    // initialize on A; everything else on B
    const solver = await signIn(a.base);
    const init = await mcp(a.base, initialize, undefined, solver.token);
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id")!;
    const done = await mcp(b.base, initialized, session, solver.token);
    expect(done.status).toBe(202);
    expect(done.headers.get("mcp-session-id")).toBe(session);
    const list = await mcp(b.base, { jsonrpc: "2.0", id: 2, method: "tools/list" }, session, solver.token);
    expect(list.status).toBe(200);
    // The second instance lists every tool the server defines (the same list as the first).
    expect(list.body.result.tools.map((t: { name: string }) => t.name)).toEqual(TOOLS.map((t) => t.name));
    const missions = await mcp(b.base, call(3, "list_missions", { tag: "two" }), session, solver.token);
    expect(missions.body.result.structuredContent.missions.map((m: { id: string }) => m.id)).toEqual([mission.id]);
    const sub = await mcp(
      b.base,
      call(4, "submit_solution", { mission_id: mission.id, content: "answer from B" }),
      session,
      solver.token,
    );
    expect(sub.body.result.isError, sub.text).toBe(false);
    expect(sub.body.result.structuredContent).toMatchObject({ submitter: solver.address, status: "pending" });
    // the write through B is visible through A's REST list
    expect((await http(a.base, "GET", `/missions/${mission.id}`)).body.submission_count).toBe(1);

    // DELETE on A: B (which has the session cached) refuses it once the NOTIFY arrives — promptly
    const bye = await http(a.base, "DELETE", "/mcp", { token: solver.token, headers: { "mcp-session-id": session } });
    expect(bye.status).toBe(200);
    expect(bye.text).toBe("");
    const deadlineMs = Date.now() + 2000;
    let after = await mcp(b.base, { jsonrpc: "2.0", id: 5, method: "tools/list" }, session, solver.token);
    while (after.status === 200 && Date.now() < deadlineMs) {
      await new Promise((r) => setTimeout(r, 20));
      after = await mcp(b.base, { jsonrpc: "2.0", id: 5, method: "tools/list" }, session, solver.token);
    }
    expect(after.status).toBe(404);
    expect(after.body.error).toMatchObject({ code: -32001, message: "session expired" });

    // a session initialized on B and never completed is refused tools on A
    const pending = (await mcp(b.base, initialize)).headers.get("mcp-session-id")!;
    const refused = await mcp(a.base, { jsonrpc: "2.0", id: 6, method: "tools/list" }, pending);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe(-32600);
  });
});
