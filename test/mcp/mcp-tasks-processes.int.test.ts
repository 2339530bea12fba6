import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpTasks } from "../../src/db/schema/index";
import { purgeExpiredTasks } from "../../src/features/mcp/mcp.tasks";
import { makeTestApp, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { INITIALIZED, request, rpc } from "../helpers/mcp";

// MCP Tasks live in Postgres, not in an instance (docs/mcp.md "Tasks"): a task created through one
// app is polled and finished through another on the same database, concurrent polls settle it once;
// an agent's tasks are bounded, and an expired task is gone at once and purged after.

const V = { "mcp-protocol-version": "2025-11-25" };
let a: TestApp;
let b: TestApp;

async function session(t: TestApp, token: string) {
  const init = await rpc(
    t,
    request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } }),
    { token, headers: V },
  );
  expect(init.body.result.capabilities.tasks).toBeDefined();
  const id = init.headers.get("mcp-session-id")!;
  expect((await rpc(t, INITIALIZED, { session: id, token, headers: V })).status).toBe(202);
  return (method: string, params?: Record<string, unknown>) =>
    rpc(t, request(method, params), { session: id, token, headers: V });
}

describe.runIf(onRealPostgres)("MCP Tasks across two apps on one Postgres", () => {
  beforeAll(async () => {
    a = await makeTestApp();
    b = await makeTestApp({}, { database: a.db });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("a task made on one instance is polled, settled once and read on the other", async () => {
    const { creator, mission } = await openMission(a);
    const solver = await signIn(a);
    const onA = await session(a, solver.token);
    const created = await onA("tools/call", {
      name: "submit_solution",
      arguments: { mission_id: mission.id, content: "across instances" },
      task: { ttl: 3_600_000 },
    });
    expect(created.body.result.task).toMatchObject({ status: "working", ttl: 3_600_000, pollInterval: 5000 });
    const taskId = created.body.result.task.taskId as string;

    const onB = await session(b, solver.token);
    expect((await onB("tasks/get", { taskId })).body.result.status).toBe("working");
    const subs = (await b.call("GET", `/missions/${mission.id}/submissions`, { token: creator.token })).body;
    const ok = await a.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: subs.submissions[0].id }] },
    });
    expect(ok.status, ok.text).toBe(200);

    // Both instances poll at once: one terminal write, the same answer on both.
    const [ga, gb] = await Promise.all([onA("tasks/get", { taskId }), onB("tasks/get", { taskId })]);
    expect(ga.body.result).toMatchObject({ status: "completed" });
    expect(gb.body.result).toEqual(ga.body.result);
    const result = (await onB("tasks/result", { taskId })).body.result;
    expect(result.structuredContent).toMatchObject({ status: "accepted", submitter: solver.address });
    expect(result._meta["io.modelcontextprotocol/related-task"]).toEqual({ taskId });
  });
});

describe("MCP Tasks: bounds and expiry", () => {
  beforeAll(async () => {
    a = await makeTestApp();
  });
  afterAll(async () => {
    await a?.close();
  });

  it("bounds an agent's tasks, refuses tools without task support, and expires tasks", async () => {
    const { mission } = await openMission(a);
    const agent = await signIn(a);
    const s = await session(a, agent.token);
    const noTask = await s("tools/call", { name: "list_missions", arguments: {}, task: {} });
    expect(noTask.body.error.code).toBe(-32601);

    const first = await s("tools/call", {
      name: "get_mission",
      arguments: { mission_id: mission.id },
      task: { ttl: 60_000 },
    });
    const taskId = first.body.result.task.taskId as string;
    const now = a.clock.now();
    await a.deps.database.db.insert(mcpTasks).values(
      Array.from({ length: 99 }, (_, i) => ({
        id: `filler-${agent.address}-${i}`,
        agentId: agent.address,
        tool: "get_mission",
        missionId: mission.id,
        status: "working",
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: 86_400_000,
        expiresAt: new Date(now.getTime() + 86_400_000),
      })),
    );
    const full = await s("tools/call", { name: "get_mission", arguments: { mission_id: mission.id }, task: {} });
    expect(full.body.error).toMatchObject({ code: -32602, data: { reason: "task_limit", limit: 100 } });
    expect((await s("tasks/list")).body.result.tasks).toHaveLength(100);

    a.clock.advance(61_000);
    expect((await s("tasks/get", { taskId })).body.error.code).toBe(-32602);
    expect(await purgeExpiredTasks(a.deps)).toBeGreaterThanOrEqual(1);
    // A slot is free again; a ttl beyond the longest wait is clamped to 30 days.
    const again = await s("tools/call", {
      name: "get_mission",
      arguments: { mission_id: mission.id },
      task: { ttl: 10 ** 12 },
    });
    expect(again.body.result.task).toMatchObject({ status: "working", ttl: 30 * 86_400_000 });
  });
});
