import { and, asc, desc, eq, gt, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { submissionMessages, submissions } from "../../db/schema/index";
import { findVisibleMission } from "../../db/mission-visibility";
import { agentOf, type Ctx, dbOf, withTx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { pgCode } from "../../lib/idempotency";
import { isId, newId } from "../../lib/ids";
import type { MessageListWire, MessageWire } from "./messages.schemas";
import { decodeIdCursor, keysetPage } from "../../lib/cursor";

/** Private messages: largest body in UTF-8 bytes (opaque, may be ciphertext). */
export const MESSAGE_MAX_BYTES = 16_384;
/** Messages one submission's thread holds, both directions (409 `thread_full` beyond). */
const MESSAGE_MAX_PER_SUBMISSION = 500;

// Private messages between a mission's creator and one submitter about that submission
// (ClawFinder's mailbox semantics: inbox, sent, read marks). Only the two parties ever see
// a message: everyone else gets 403 on the thread (who submitted is public) and 404 on a message
// id (a message's existence is private). Bodies are opaque, never logged and never in an event.

type Row = typeof submissionMessages.$inferSelect;

/** Unread counts stop here: the inbox never counts an unbounded set. */
const UNREAD_COUNT_CAP = 10_000;

function messageToWire(r: Row): MessageWire {
  return {
    id: r.id,
    mission_id: r.missionId,
    submission_id: r.submissionId,
    from: r.sender,
    to: r.recipient,
    body: r.body,
    created_at: r.createdAt.toISOString(),
    read_at: r.readAt?.toISOString() ?? null,
  };
}

/**
 * A failed query's error carries the body twice over: drizzle's message ("Failed query: … params:
 * …") and Postgres' detail ("Failing row contains …"). Keep only the SQLSTATE (asAppError maps
 * e.g. a NUL character to 400), so an unexpected failure logs no message body.
 */
function withoutParams(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const code = pgCode(err);
  return Object.assign(new Error(`storing a message failed (SQLSTATE ${code ?? "unknown"}; parameters withheld)`), {
    ...(code && { code }),
  });
}

/** The two parties of a submission, or 404 / 403 as the caller may know. */
async function partiesOf(ctx: Ctx, missionId: string, submissionId: string, caller: string) {
  const m = await findVisibleMission(ctx, missionId, caller);
  const [s] = isId("sub", submissionId)
    ? await dbOf(ctx)
        .select({ id: submissions.id, submitter: submissions.submitter })
        .from(submissions)
        .where(and(eq(submissions.id, submissionId), eq(submissions.missionId, m.id)))
    : [];
  if (!s) throw new AppError("NOT_FOUND", `submission ${submissionId} not found`);
  if (caller !== m.creator && caller !== s.submitter)
    throw new AppError("FORBIDDEN", "only the mission's creator and the submitter see this thread", {
      reason: "not_a_party",
    });
  if (m.creator === s.submitter)
    throw new AppError("FORBIDDEN", "the creator submitted this one: there is nobody to write to", {
      reason: "own_submission",
    });
  return { missionId: m.id, submissionId: s.id, other: caller === m.creator ? s.submitter : m.creator };
}

/**
 * POST /missions/{id}/submissions/{sid}/messages: the creator writes to the submitter or the
 * submitter to the creator. Locking: the submission row (FOR UPDATE) serialises the senders of one
 * thread, so the MESSAGE_MAX_PER_SUBMISSION count is exact.
 */
export async function sendMessage(
  ctx: Ctx,
  input: { missionId: string; submissionId: string; body: string },
): Promise<MessageWire> {
  const caller = agentOf(ctx);
  const { now, deps } = ctx;
  const bytes = Buffer.byteLength(input.body, "utf8");
  if (bytes > MESSAGE_MAX_BYTES)
    throw new AppError("PAYLOAD_TOO_LARGE", `a message body is at most ${MESSAGE_MAX_BYTES} bytes`, {
      reason: "message_too_large",
      max_bytes: MESSAGE_MAX_BYTES,
      bytes,
    });
  const p = await partiesOf(ctx, input.missionId, input.submissionId, caller);
  return withTx(ctx, async (tx) => {
    await tx.select({ id: submissions.id }).from(submissions).where(eq(submissions.id, p.submissionId)).for("update");
    const [c] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(submissionMessages)
      .where(eq(submissionMessages.submissionId, p.submissionId));
    const max = deps.limits?.messageMaxPerSubmission ?? MESSAGE_MAX_PER_SUBMISSION;
    if (Number(c?.n ?? 0) >= max)
      throw new AppError("CONFLICT", `a submission's private thread holds at most ${max} messages`, {
        reason: "thread_full",
        limit: max,
      });
    const [row] = await tx
      .insert(submissionMessages)
      .values({
        id: newId("msg", now.getTime()),
        missionId: p.missionId,
        submissionId: p.submissionId,
        sender: caller,
        recipient: p.other,
        body: input.body,
        createdAt: now,
      })
      .returning()
      .catch((err: unknown) => {
        throw withoutParams(err);
      });
    return messageToWire(row!);
  });
}

function pageOf(rows: Row[], limit: number): Pick<MessageListWire, "messages" | "next_cursor"> {
  const { page, next_cursor } = keysetPage(rows, limit);
  return { messages: page.map(messageToWire), next_cursor };
}

export interface MailboxQuery {
  limit: number;
  cursor?: string | undefined;
  unread?: boolean | undefined;
  mission_id?: string | undefined;
  submission_id?: string | undefined;
}

/** GET /messages/inbox and /messages/sent: the caller's messages, newest first (keyset on the id). */
export async function listMailbox(ctx: Ctx, q: MailboxQuery & { box: "inbox" | "sent" }): Promise<MessageListWire> {
  const { box } = q;
  const caller = agentOf(ctx);
  const before = decodeIdCursor(q.cursor, "msg");
  const db = dbOf(ctx);
  const owner = box === "inbox" ? eq(submissionMessages.recipient, caller) : eq(submissionMessages.sender, caller);
  const where: (SQL | undefined)[] = [
    owner,
    before ? lt(submissionMessages.id, before) : undefined,
    q.unread === undefined
      ? undefined
      : q.unread
        ? isNull(submissionMessages.readAt)
        : isNotNull(submissionMessages.readAt),
    q.mission_id ? eq(submissionMessages.missionId, q.mission_id) : undefined,
    q.submission_id ? eq(submissionMessages.submissionId, q.submission_id) : undefined,
  ];
  const rows = await db
    .select()
    .from(submissionMessages)
    .where(and(...where))
    .orderBy(desc(submissionMessages.id))
    .limit(q.limit + 1);
  if (box === "sent") return pageOf(rows, q.limit);
  const unread = db
    .select({ one: sql`1`.as("one") })
    .from(submissionMessages)
    .where(and(eq(submissionMessages.recipient, caller), isNull(submissionMessages.readAt)))
    .limit(UNREAD_COUNT_CAP)
    .as("unread");
  const [u] = await db.select({ n: sql<number>`count(*)::int` }).from(unread);
  return { ...pageOf(rows, q.limit), unread_count: Number(u?.n ?? 0) };
}

/** GET /missions/{id}/submissions/{sid}/messages: the thread, oldest first, parties only. */
export async function listThread(
  ctx: Ctx,
  q: { missionId: string; submissionId: string; limit: number; cursor?: string | undefined },
): Promise<MessageListWire> {
  const caller = agentOf(ctx);
  const p = await partiesOf(ctx, q.missionId, q.submissionId, caller);
  const after = decodeIdCursor(q.cursor, "msg");
  const rows = await dbOf(ctx)
    .select()
    .from(submissionMessages)
    .where(
      and(eq(submissionMessages.submissionId, p.submissionId), after ? gt(submissionMessages.id, after) : undefined),
    )
    .orderBy(asc(submissionMessages.id))
    .limit(q.limit + 1);
  return pageOf(rows, q.limit);
}

/** A message the caller sent or received; anything else is 404 (no existence oracle). */
async function findOwn(ctx: Ctx, messageId: string, caller: string): Promise<Row> {
  const [row] = isId("msg", messageId)
    ? await dbOf(ctx)
        .select()
        .from(submissionMessages)
        .where(
          and(
            eq(submissionMessages.id, messageId),
            or(eq(submissionMessages.sender, caller), eq(submissionMessages.recipient, caller)),
          ),
        )
    : [];
  if (!row) throw new AppError("NOT_FOUND", `message ${messageId} not found`);
  return row;
}

/** GET /messages/{mid}: one message of the caller's (reading it does not mark it read). */
export async function getMessage(ctx: Ctx, { messageId }: { messageId: string }): Promise<MessageWire> {
  return messageToWire(await findOwn(ctx, messageId, agentOf(ctx)));
}

/**
 * POST /messages/{mid}/read: the recipient marks a message read; again is a no-op (the first
 * read_at stays). The sender gets 403 `not_recipient`. Locking: the conditional UPDATE alone.
 */
export async function markRead(ctx: Ctx, { messageId }: { messageId: string }): Promise<MessageWire> {
  const caller = agentOf(ctx);
  const row = await findOwn(ctx, messageId, caller);
  if (row.recipient !== caller)
    throw new AppError("FORBIDDEN", "only the recipient marks a message read", { reason: "not_recipient" });
  if (row.readAt) return messageToWire(row);
  const [updated] = await dbOf(ctx)
    .update(submissionMessages)
    .set({ readAt: ctx.now })
    .where(and(eq(submissionMessages.id, row.id), isNull(submissionMessages.readAt)))
    .returning();
  return messageToWire(updated ?? (await findOwn(ctx, messageId, caller)));
}
