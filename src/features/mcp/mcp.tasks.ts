import { randomUUID } from "node:crypto";
import { z } from "@hono/zod-openapi";
import { and, count, desc, eq, gt, lte, sql } from "drizzle-orm";
import type { Deps } from "../../deps";
import { mcpTasks } from "../../db/schema/index";
import type { Ctx } from "../../lib/context";
import { getMissionOp } from "../missions";
import { getSubmission } from "../submissions";
import { RPC, type RpcError, type RpcId, resultText } from "./mcp.jsonrpc";
import type { ToolCall } from "./mcp.call";

// MCP Tasks (2025-11-25 basic/utilities/tasks) for the long waits: a task-augmented tools/call of a
// tool below answers a CreateTaskResult at once; the task completes when its mission is settled or
// voided (or its submission rejected): an oracle verification, a peer vote, an appeal window, the
// base rail's release. The rows live in the database and the status is derived from the mission's
// rows on every read, so any process on this database answers tasks/get (docs/mcp.md "Tasks").

/** Tools that may run as a task (`execution.taskSupport: "optional"`); each waits on its mission. */
export const TASK_TOOLS = new Set(["submit_solution", "get_mission", "award_mission"]);
/** The server's `tasks` capability (2025-11-25 §Capabilities). */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** Unexpired tasks one agent may hold (working or finished): tasks/list answers them in one page. */
const MAX_TASKS_PER_AGENT = 100;
const DEFAULT_TTL_MS = 7 * 86_400_000;
const MIN_TTL_MS = 60_000;
/** The longest wait this server serves: a mission's deadline, voting and appeal windows fit in it. */
const MAX_TTL_MS = 30 * 86_400_000;
const POLL_INTERVAL_MS = 5_000;
/** tasks/result waits this long (real time) for a working task, then says to poll (docs/mcp.md "Tasks"). */
const RESULT_WAIT_MS = 20_000;
const RESULT_STEP_MS = 500;
const PURGE_BATCH = 500;
const RELATED_TASK = "io.modelcontextprotocol/related-task";

type TaskRow = typeof mcpTasks.$inferSelect;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

const notFound = (taskId: unknown): RpcError => ({
  code: RPC.INVALID_PARAMS,
  message: `Task not found: ${String(taskId).slice(0, 80)}`,
});

function taskJson(row: TaskRow) {
  return {
    taskId: row.id,
    status: row.status,
    ...(row.statusMessage ? { statusMessage: row.statusMessage } : {}),
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: row.lastUpdatedAt.toISOString(),
    ttl: row.ttlMs,
    pollInterval: POLL_INTERVAL_MS,
  };
}

/** Refused before the tool runs: the agent already holds its share of tasks. */
export async function taskQuotaError(deps: Deps, agentId: string): Promise<RpcError | undefined> {
  const [row] = await deps.database.db
    .select({ n: count() })
    .from(mcpTasks)
    .where(and(eq(mcpTasks.agentId, agentId), gt(mcpTasks.expiresAt, deps.clock.now())));
  if ((row?.n ?? 0) < MAX_TASKS_PER_AGENT) return undefined;
  return {
    code: RPC.INVALID_PARAMS,
    message: `Too many tasks: an agent holds at most ${MAX_TASKS_PER_AGENT} unexpired tasks; cancel one or let them expire`,
    data: { reason: "task_limit", limit: MAX_TASKS_PER_AGENT },
  };
}

const TaskParams = z.looseObject({ ttl: z.number().finite().optional() });
const ttlOf = (task: unknown) => {
  const asked = TaskParams.safeParse(task);
  const ms = asked.success && asked.data.ttl !== undefined ? Math.trunc(asked.data.ttl) : DEFAULT_TTL_MS;
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, ms));
};

/** The tools that run as tasks all name their mission; submit_solution answers the submission's id. */
const MissionArgs = z.looseObject({ mission_id: z.string() });
const Created = z.looseObject({ id: z.string() });

/** The CreateTaskResult of a task-augmented call that ran: working, or failed when the call failed. */
export async function createTask(
  deps: Deps,
  { agentId, call, task }: { agentId: string; call: ToolCall; task: unknown },
): Promise<string> {
  const now = deps.clock.now();
  const ttlMs = ttlOf(task);
  const failed = call.outcome.isError;
  const submissionId =
    call.name === "submit_solution" && !failed
      ? (Created.safeParse(JSON.parse(call.outcome.json)).data?.id ?? null)
      : null;
  const [row] = await deps.database.db
    .insert(mcpTasks)
    .values({
      id: randomUUID(),
      agentId,
      tool: call.name,
      missionId: MissionArgs.safeParse(call.args).data?.mission_id ?? "",
      submissionId,
      status: failed ? "failed" : "working",
      statusMessage: failed
        ? "The tool call failed: tasks/result has its error."
        : "Waiting for the mission to settle.",
      result: failed ? toolResultJson(call.outcome) : null,
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      expiresAt: new Date(now.getTime() + ttlMs),
    })
    .returning();
  if (!row) throw new Error("mcp_tasks insert returned no row");
  return JSON.stringify({
    task: taskJson(row),
    _meta: { "io.modelcontextprotocol/model-immediate-response": "Accepted; poll tasks/get until completed." },
  });
}

function toolResultJson(outcome: ToolCall["outcome"]): string {
  const content = [{ type: "text", text: outcome.json }];
  if (outcome.isError) return JSON.stringify({ content, isError: true });
  return `{"content":${JSON.stringify(content)},"structuredContent":${outcome.json},"isError":false}`;
}

/** The mission (or the submission) as the agent sees it now, and whether the wait is over. */
async function observe(deps: Deps, row: TaskRow): Promise<{ final: boolean; json: string }> {
  const ctx: Ctx = { deps, now: deps.clock.now(), caller: { kind: "agent", address: row.agentId, via: "session" } };
  const mission = await getMissionOp.verb(ctx, { id: row.missionId });
  const settled = (mission.status === "resolved" && mission.phase === "settled") || mission.status === "voided";
  if (row.submissionId === null) return { final: settled, json: JSON.stringify(mission) };
  const submission = await getSubmission(ctx, { missionId: row.missionId, submissionId: row.submissionId });
  return { final: settled || submission.status === "rejected", json: JSON.stringify(submission) };
}

/** The task now: a working task whose mission has settled becomes completed (first writer wins). */
async function refresh(deps: Deps, row: TaskRow): Promise<TaskRow> {
  if (row.status !== "working") return row;
  const seen = await observe(deps, row);
  if (!seen.final) return row;
  const [done] = await deps.database.db
    .update(mcpTasks)
    .set({
      status: "completed",
      statusMessage: "The mission reached its outcome.",
      result: toolResultJson({ isError: false, json: seen.json }),
      lastUpdatedAt: deps.clock.now(),
    })
    .where(and(eq(mcpTasks.id, row.id), eq(mcpTasks.status, "working")))
    .returning();
  return done ?? (await findTask(deps, row.agentId, row.id)) ?? row;
}

async function findTask(deps: Deps, agentId: string, taskId: unknown): Promise<TaskRow | undefined> {
  if (typeof taskId !== "string" || taskId.length > 64) return undefined;
  const [row] = await deps.database.db
    .select()
    .from(mcpTasks)
    .where(and(eq(mcpTasks.id, taskId), eq(mcpTasks.agentId, agentId), gt(mcpTasks.expiresAt, deps.clock.now())));
  return row;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** tasks/result: the stored CallToolResult with the related-task `_meta`, after a bounded wait. */
async function taskResult(deps: Deps, row: TaskRow): Promise<string | RpcError> {
  let now = row;
  for (let waited = 0; !TERMINAL.has(now.status) && waited < RESULT_WAIT_MS; waited += RESULT_STEP_MS) {
    await sleep(RESULT_STEP_MS);
    now = await refresh(deps, now);
  }
  if (now.status === "cancelled" || now.result === null) {
    return {
      code: RPC.INVALID_PARAMS,
      message: now.status === "cancelled" ? "The task was cancelled" : "The task is still working: poll tasks/get",
      data: { task: taskJson(now) },
    };
  }
  const meta = `,"_meta":{"${RELATED_TASK}":{"taskId":${JSON.stringify(now.id)}}}}`;
  return now.result.slice(0, -1) + meta;
}

async function cancelTask(deps: Deps, row: TaskRow): Promise<string | RpcError> {
  const [done] = await deps.database.db
    .update(mcpTasks)
    .set({ status: "cancelled", statusMessage: "The task was cancelled by request.", lastUpdatedAt: deps.clock.now() })
    .where(and(eq(mcpTasks.id, row.id), eq(mcpTasks.status, "working")))
    .returning();
  if (!done) return { code: RPC.INVALID_PARAMS, message: `Task ${row.id} is already ${row.status}: not cancelled` };
  return JSON.stringify(taskJson(done));
}

async function listTasks(deps: Deps, agentId: string): Promise<string> {
  const rows = await deps.database.db
    .select()
    .from(mcpTasks)
    .where(and(eq(mcpTasks.agentId, agentId), gt(mcpTasks.expiresAt, deps.clock.now())))
    .orderBy(desc(mcpTasks.createdAt), desc(mcpTasks.id))
    .limit(MAX_TASKS_PER_AGENT);
  const fresh = await Promise.all(rows.map((r) => refresh(deps, r)));
  return JSON.stringify({ tasks: fresh.map(taskJson) });
}

export const isTaskMethod = (method: string) =>
  method === "tasks/get" || method === "tasks/result" || method === "tasks/list" || method === "tasks/cancel";

/** tasks/get, tasks/result, tasks/list, tasks/cancel for the agent that owns the tasks. */
export async function taskMethod(
  deps: Deps,
  m: { agentId: string; id: RpcId; method: string; params: Record<string, unknown> | undefined },
): Promise<string | RpcError> {
  const { agentId } = m;
  if (m.method === "tasks/list") return resultText(m.id, await listTasks(deps, agentId));
  const found = await findTask(deps, agentId, m.params?.taskId);
  if (!found) return notFound(m.params?.taskId);
  const row = await refresh(deps, found);
  const out =
    m.method === "tasks/get"
      ? JSON.stringify(taskJson(row))
      : m.method === "tasks/cancel"
        ? await cancelTask(deps, row)
        : await taskResult(deps, row);
  return typeof out === "string" ? resultText(m.id, out) : out;
}

/** Expired tasks are deleted in batches by the purge job. */
export async function purgeExpiredTasks(deps: Deps): Promise<number> {
  const r = await deps.database.db
    .delete(mcpTasks)
    .where(
      sql`${mcpTasks.id} in (select ${mcpTasks.id} from ${mcpTasks} where ${lte(mcpTasks.expiresAt, deps.clock.now())} limit ${PURGE_BATCH})`,
    )
    .returning({ id: mcpTasks.id });
  return r.length;
}
