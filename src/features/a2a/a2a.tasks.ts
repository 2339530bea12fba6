import { randomUUID } from "node:crypto";
import { idempotent, checkIdempotencyKey } from "../../lib/idempotency";
import { agentOf, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { getMissionOp, listMissionsJson, type MissionWire } from "../missions";
import { getReceipt } from "../receipts";
import {
  createSubmission,
  createSubmissionOnce,
  submissionsByAgent,
  getSubmissionById,
  type SubmissionWire,
} from "../submissions";
import { A2A_ERRORS, MAX_LIST_TASKS } from "../../lib/a2a-contract";
import { A2aError, type Intent } from "./a2a.messages";

// A mission is a task (docs/a2a.md "Tasks"): the task id is the submission id, its contextId the
// mission id, and its state is read from the submission and its mission on every request — no
// state of its own, so no second copy of any rule. Every operation runs the REST verbs.

/** A2A §4.1.3 TaskState names a ListTasks filter may give (the first matches every task). */
export const TASK_STATES = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED",
] as const;
type TaskState = Extract<
  (typeof TASK_STATES)[number],
  "TASK_STATE_SUBMITTED" | "TASK_STATE_WORKING" | "TASK_STATE_COMPLETED" | "TASK_STATE_REJECTED" | "TASK_STATE_CANCELED"
>;

const TERMINAL = new Set<TaskState>(["TASK_STATE_COMPLETED", "TASK_STATE_REJECTED", "TASK_STATE_CANCELED"]);

/** The task state of a submission (docs/a2a.md "States"). */
export function taskState(
  sub: Pick<SubmissionWire, "status">,
  mission: Pick<MissionWire, "status" | "payout_status">,
): TaskState {
  if (sub.status === "accepted")
    return mission.payout_status === "confirmed" ? "TASK_STATE_COMPLETED" : "TASK_STATE_WORKING";
  if (mission.status === "voided") return "TASK_STATE_CANCELED";
  if (sub.status === "rejected") return "TASK_STATE_REJECTED";
  return mission.status === "open" ? "TASK_STATE_SUBMITTED" : "TASK_STATE_WORKING";
}

const agentMessage = (parts: unknown[], ids: { contextId: string; taskId: string } | undefined) => ({
  messageId: randomUUID(),
  role: "ROLE_AGENT",
  ...ids,
  parts,
});

/** The COMPLETED task's artifact: the payout and its signed AIP-1 §6.1 receipt. */
async function payoutArtifact(ctx: Ctx, sub: SubmissionWire) {
  const receipt = await getReceipt(ctx, { missionId: sub.mission_id, submissionId: sub.id });
  const { asset, amount } = receipt.settlement;
  return {
    artifactId: `payout-${sub.id}`,
    name: "payout",
    description: `Paid ${amount} base units of ${asset}; the signed receipt verifies offline (AIP-1 §6.1)`,
    parts: [
      { text: `Paid ${amount} base units of ${asset}.` },
      { data: { asset, amount, receipt_uri: sub.receipt_uri, receipt }, mediaType: "application/json" },
    ],
  };
}

/** A2A §4.1.1 Task of one submission, as its submitter sees it. */
export async function taskOf(
  ctx: Ctx,
  { submission: sub, withArtifacts = true }: { submission: SubmissionWire; withArtifacts?: boolean },
) {
  const mission = await getMissionOp.verb(ctx, { id: sub.mission_id });
  const state = taskState(sub, mission);
  const artifacts = state === "TASK_STATE_COMPLETED" && withArtifacts ? [await payoutArtifact(ctx, sub)] : undefined;
  return {
    id: sub.id,
    contextId: sub.mission_id,
    status: {
      state,
      message: agentMessage([{ text: `${sub.reason}: ${sub.next_action}` }], {
        contextId: sub.mission_id,
        taskId: sub.id,
      }),
      timestamp: ctx.now.toISOString(),
    },
    ...(artifacts && { artifacts }),
    metadata: { submission: sub, mission_status: mission.status, payout_status: mission.payout_status },
  };
}

const notFound = (taskId: string) =>
  new A2aError(A2A_ERRORS.TASK_NOT_FOUND, `task ${taskId} not found`, "task_not_found");

/** The caller's submission `taskId`; anyone else's (or none) is TaskNotFound (A2A §3.3.2). */
export async function ownSubmission(ctx: Ctx, taskId: string): Promise<SubmissionWire> {
  const sub = await getSubmissionById(ctx, { submissionId: taskId }).catch((e: unknown) => {
    throw e instanceof AppError && e.code === "NOT_FOUND" ? notFound(taskId) : e;
  });
  if (sub.submitter !== agentOf(ctx)) throw notFound(taskId);
  return sub;
}

/** SendMessage (A2A §3.1.1): a search answers a message, a deliverable a task. */
export async function sendMessage(ctx: Ctx, intent: Intent) {
  if (intent.kind === "find") {
    const page: unknown = JSON.parse(await listMissionsJson(ctx, intent.filters));
    return { message: agentMessage([{ data: page, mediaType: "application/json" }], undefined) };
  }
  if (intent.kind === "continue") {
    const task = await taskOf(ctx, { submission: await ownSubmission(ctx, intent.taskId), withArtifacts: false });
    throw new A2aError(
      A2A_ERRORS.UNSUPPORTED_OPERATION,
      TERMINAL.has(task.status.state)
        ? `task ${intent.taskId} is ${task.status.state}: it takes no more messages`
        : "a submission cannot be changed: send a new message without taskId",
      "task_takes_no_messages",
    );
  }
  const { missionId, submission, messageId } = intent;
  // A2A §3.3.1: the messageId is the Idempotency-Key of the REST submit, in the same scope.
  const stored = await idempotent(
    ctx,
    {
      key: checkIdempotencyKey(`a2a:${messageId}`),
      request: submission,
      ...createSubmissionOnce(agentOf(ctx), missionId),
    },
    (c) => createSubmission(c, { missionId, submission }),
  );
  ctx.deps.missionLists.invalidate();
  const sub: SubmissionWire = JSON.parse(stored.body);
  return { task: await taskOf(ctx, { submission: sub }) };
}

export async function getTask(ctx: Ctx, taskId: string) {
  return taskOf(ctx, { submission: await ownSubmission(ctx, taskId) });
}

/**
 * CancelTask (A2A §3.1.5): AIP-1 has no verb that withdraws a submission, so no task is
 * cancelable; an unknown or foreign task is still TaskNotFound.
 */
export async function cancelTask(ctx: Ctx, taskId: string): Promise<never> {
  const task = await taskOf(ctx, { submission: await ownSubmission(ctx, taskId), withArtifacts: false });
  throw new A2aError(
    A2A_ERRORS.TASK_NOT_CANCELABLE,
    `task ${taskId} is ${task.status.state}: a submission cannot be withdrawn (AIP-1 §3)`,
    "submission_not_withdrawable",
  );
}

/** ListTasks (A2A §3.1.4): the caller's newest submissions, one page. */
export async function listTasks(
  ctx: Ctx,
  q: {
    contextId?: string | undefined;
    status?: string | undefined;
    pageSize?: number | undefined;
    includeArtifacts?: boolean | undefined;
  },
) {
  const size = Math.max(1, Math.min(q.pageSize ?? MAX_LIST_TASKS, MAX_LIST_TASKS));
  const rows = await submissionsByAgent(ctx, { agentId: agentOf(ctx), limit: MAX_LIST_TASKS });
  const tasks = [];
  for (const r of rows) {
    if (tasks.length >= size) break;
    if (q.contextId && r.mission_id !== q.contextId) continue;
    const task = await taskOf(ctx, {
      submission: await getSubmissionById(ctx, { submissionId: r.submission_id }),
      withArtifacts: q.includeArtifacts === true,
    });
    if (!q.status || q.status === "TASK_STATE_UNSPECIFIED" || task.status.state === q.status) tasks.push(task);
  }
  return { tasks, nextPageToken: "", pageSize: size, totalSize: tasks.length };
}
