import { and, count, eq, isNotNull } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { webhookDeliveries, webhookSubscriptions } from "../../db/schema/index";
import { touchAgent } from "../../db/touch-agent";
import type { Deps } from "../../deps";
import { agentOf, ctxForJob, dbOf, withTx, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { registrableDomain } from "../../lib/host-key";
import { isId, newId } from "../../lib/ids";
import { newWebhookSecret } from "../../lib/webhook-signature";
import type { EventType } from "../../lib/webhook-events";
import { A2A_ERRORS, A2A_PROTOCOL_VERSION } from "../../lib/a2a-contract";
import { getSubmissionById } from "../submissions";
import { checkWebhookUrl, type ClaimedDelivery } from "../webhooks";
import { A2aError } from "./a2a.messages";
import { ownSubmission, taskOf } from "./a2a.tasks";

// A2A push notifications (A2A §3.1.7–§3.1.10, §4.3; docs/a2a.md "Push notifications"). A config
// is a webhook subscription row tied to one task (a2a_task_id), so it rides the transactional
// outbox: fan-out, the endpoint challenge before any delivery, fair host-capped claims, retries
// and auto-disable (src/features/webhooks). Only its body and headers differ: the Task as a
// StreamResponse, the config's token and authentication.

/** Configs per task and per agent (all tasks): anyone can fill them, so both are bounded. */
export const MAX_PUSH_CONFIGS_PER_TASK = 3;
const MAX_PUSH_CONFIGS_PER_AGENT = 20;

/** The outbox events that change a task's state (docs/a2a.md "Tasks and states"). */
const PUSH_EVENTS: EventType[] = [
  "submission.accepted",
  "submission.rejected",
  "payout.confirmed",
  "mission.resolved",
  "mission.voided",
  "mission.awarded",
];

const visible = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\x21-\x7e]*$/, "visible ASCII");

export const CreatePushParams = z.object({
  tenant: z.string().max(128).optional(),
  // The server assigns the id (docs/a2a.md "Push notifications"); a client's is ignored.
  id: z.string().max(128).optional(),
  taskId: z.string().min(1).max(128),
  url: z.string().min(1).max(2048),
  token: visible(512).optional(),
  authentication: z
    .object({
      scheme: z.string().regex(/^[A-Za-z][A-Za-z0-9._-]{0,31}$/, "an HTTP auth scheme"),
      credentials: z
        .string()
        .max(2048)
        .regex(/^[\x20-\x7e]*$/, "printable ASCII")
        .optional(),
    })
    .optional(),
});
export const PushRefParams = z.object({
  tenant: z.string().max(128).optional(),
  taskId: z.string().min(1).max(128),
  id: z.string().min(1).max(128),
});
export const ListPushParams = z.object({
  tenant: z.string().max(128).optional(),
  taskId: z.string().min(1).max(128),
  pageSize: z.number().int().optional(),
  pageToken: z.literal("").optional(),
});

type Row = typeof webhookSubscriptions.$inferSelect;
const s = webhookSubscriptions;

/** A2A §4.3.1 as answered: the credentials are a secret, never shown back. */
function toWire(r: Row) {
  return {
    id: r.id,
    taskId: r.a2aTaskId,
    url: r.url,
    ...(r.a2aToken !== null && { token: r.a2aToken }),
    ...(r.a2aAuth && { authentication: { scheme: r.a2aAuth.scheme } }),
  };
}

function requirePush(deps: Deps): void {
  if (!deps.config.webhooksEnabled)
    throw new A2aError(
      A2A_ERRORS.PUSH_NOT_SUPPORTED,
      "push notifications are off on this server (capabilities.pushNotifications: false)",
      "push_not_supported",
    );
}

const configNotFound = (id: string) =>
  new A2aError(A2A_ERRORS.TASK_NOT_FOUND, `push notification config ${id} not found`, "push_config_not_found");

/** CreateTaskPushNotificationConfig: on the caller's own task, bounded per task and per agent. */
export async function createPushConfig(ctx: Ctx, p: z.infer<typeof CreatePushParams>) {
  requirePush(ctx.deps);
  const caller = agentOf(ctx);
  const sub = await ownSubmission(ctx, p.taskId);
  const verdict = checkWebhookUrl(p.url, ctx.deps.fetcher);
  if (!verdict.ok)
    throw new AppError("UNPROCESSABLE", `url refused: ${verdict.reason}`, { field: "url", reason: verdict.reason });
  const { now } = ctx;
  return withTx(ctx, async (tx) => {
    // The agent row's lock (held to commit) serialises one agent's creations: the caps hold.
    await touchAgent(tx, caller, now);
    const counted = async (where: ReturnType<typeof and>) =>
      Number((await tx.select({ n: count() }).from(s).where(where))[0]?.n ?? 0);
    if ((await counted(and(eq(s.owner, caller), eq(s.a2aTaskId, sub.id)))) >= MAX_PUSH_CONFIGS_PER_TASK)
      throw new AppError("CONFLICT", `at most ${MAX_PUSH_CONFIGS_PER_TASK} push configs per task`, {
        reason: "push_config_limit",
      });
    if ((await counted(and(eq(s.owner, caller), isNotNull(s.a2aTaskId)))) >= MAX_PUSH_CONFIGS_PER_AGENT)
      throw new AppError("CONFLICT", `at most ${MAX_PUSH_CONFIGS_PER_AGENT} push configs per agent`, {
        reason: "push_config_limit",
      });
    const [row] = await tx
      .insert(s)
      .values({
        id: newId("whk", now.getTime()),
        owner: caller,
        url: verdict.url,
        events: PUSH_EVENTS,
        filterMissionIds: [sub.mission_id],
        secret: newWebhookSecret(),
        // The endpoint echoes a challenge before any notification (webhooks.verify.ts).
        status: "pending_verification",
        host: registrableDomain(new URL(verdict.url).hostname),
        nextVerifyAt: now,
        a2aTaskId: sub.id,
        a2aToken: p.token || null,
        a2aAuth: p.authentication
          ? { scheme: p.authentication.scheme, credentials: p.authentication.credentials ?? "" }
          : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new AppError("INTERNAL_ERROR", "push config not stored");
    return toWire(row);
  });
}

/** The caller's push config `id` of its task `taskId`. */
async function ownConfig(ctx: Ctx, { taskId, id }: z.infer<typeof PushRefParams>): Promise<Row> {
  requirePush(ctx.deps);
  const caller = agentOf(ctx);
  await ownSubmission(ctx, taskId);
  const [row] = isId("whk", id)
    ? await dbOf(ctx)
        .select()
        .from(s)
        .where(and(eq(s.id, id), eq(s.owner, caller), eq(s.a2aTaskId, taskId)))
    : [];
  if (!row) throw configNotFound(id);
  return row;
}

export async function getPushConfig(ctx: Ctx, p: z.infer<typeof PushRefParams>) {
  return toWire(await ownConfig(ctx, p));
}

/** ListTaskPushNotificationConfigs: at most MAX_PUSH_CONFIGS_PER_TASK, so one page. */
export async function listPushConfigs(ctx: Ctx, p: z.infer<typeof ListPushParams>) {
  requirePush(ctx.deps);
  const caller = agentOf(ctx);
  await ownSubmission(ctx, p.taskId);
  const rows = await dbOf(ctx)
    .select()
    .from(s)
    .where(and(eq(s.owner, caller), eq(s.a2aTaskId, p.taskId)))
    .orderBy(s.id)
    .limit(MAX_PUSH_CONFIGS_PER_TASK);
  return { configs: rows.map(toWire), nextPageToken: "" };
}

/** DeleteTaskPushNotificationConfig: the config and its queued deliveries, in one transaction. */
export async function deletePushConfig(ctx: Ctx, p: z.infer<typeof PushRefParams>) {
  const row = await ownConfig(ctx, p);
  await withTx(ctx, async (tx) => {
    await tx.delete(s).where(and(eq(s.id, row.id), eq(s.owner, row.owner)));
    await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, row.id));
  });
  return {};
}

/**
 * The request of one push delivery (A2A §4.3.3): the task as it is now, as a StreamResponse
 * `{task}`, with the config's token (X-A2A-Notification-Token) and `Authorization` header.
 */
export async function pushRequest(
  deps: Deps,
  c: Pick<ClaimedDelivery, "a2aTaskId" | "a2aToken" | "a2aAuth">,
): Promise<{ body: string; headers: Record<string, string> } | undefined> {
  if (c.a2aTaskId === null) return undefined;
  const ctx = ctxForJob(deps);
  const task = await taskOf(ctx, { submission: await getSubmissionById(ctx, { submissionId: c.a2aTaskId }) });
  const headers: Record<string, string> = {
    "content-type": "application/a2a+json",
    "a2a-version": A2A_PROTOCOL_VERSION,
  };
  if (c.a2aToken !== null) headers["x-a2a-notification-token"] = c.a2aToken;
  if (c.a2aAuth)
    headers.authorization = `${c.a2aAuth.scheme}${c.a2aAuth.credentials ? ` ${c.a2aAuth.credentials}` : ""}`;
  return { body: JSON.stringify({ task }), headers };
}
