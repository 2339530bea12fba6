import { and, asc, eq, gt, sql } from "drizzle-orm";
import { assertNotSuspended } from "../../db/suspension";
import type { Tx } from "../../db/client";
import { missionClaims, missionQuestions, missions, submissions } from "../../db/schema/index";
import { emitEvent, qaEvent } from "../../db/outbox";
import { findVisibleMission, lockMission } from "../../db/mission-visibility";
import type { MissionRow as Mission } from "../../db/rows";
import { agentOf, type Ctx, dbOf, viewerOf, withTx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { isId, newId } from "../../lib/ids";
import type { QuestionListWire, QuestionWire } from "./qa.schemas";
import { decodeIdCursor, keysetPage } from "../../lib/cursor";

/** Mission Q&A: longest question, answer or clarification, in characters. */
export const QA_MAX_CHARS = 2000;
/** Entries (questions and clarifications) one mission's thread holds (409 `qa_full` beyond). */
const QA_MAX_PER_MISSION = 200;
/** Of QA_MAX_PER_MISSION, entries kept for the creator's clarifications. */
const QA_CREATOR_RESERVE = 50;
/** Questions one agent may ask on one mission (409 `question_limit` beyond). */
const QA_MAX_PER_AGENT = 10;

// Mission Q&A: a public thread per mission. Agents ask while the mission is
// open; its creator answers (and may pin) and posts clarifications while it is open or being
// judged. Every write locks the mission row first, so the caps counted below are exact and the
// mission's qa_count / qa_pinned_count move in the same transaction as the rows and the event.

type Row = typeof missionQuestions.$inferSelect;

/** How many claimers an event names at most (a mission's claims are capped far lower in practice). */
const MAX_EVENT_CLAIMERS = 100;

function questionToWire(r: Row): QuestionWire {
  return {
    id: r.id,
    mission_id: r.missionId,
    kind: r.kind,
    author: r.author,
    body: r.body,
    answer: r.answer !== null && r.answeredAt ? { body: r.answer, answered_at: r.answeredAt.toISOString() } : null,
    pinned: r.pinned,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

function checkLength(_ctx: Ctx, field: string, value: string): void {
  const max = QA_MAX_CHARS;
  if ([...value].length > max)
    throw new AppError("INVALID_PARAMETER", `${field} is longer than ${max} characters`, {
      field,
      reason: "too_long",
      max_chars: max,
    });
}

/** The mission locked for a Q&A write, or MISSION_NOT_OPEN when its thread no longer takes one. */
async function lockForWrite(tx: Tx, id: string, allowed: (m: Mission) => boolean, what: string): Promise<Mission> {
  const m = await lockMission(tx, id);
  if (!m || !allowed(m))
    throw new AppError("MISSION_NOT_OPEN", what, {
      status: m?.status ?? null,
      deadline: m?.deadline.toISOString() ?? null,
    });
  return m;
}

const judging = (m: Mission) => m.status === "open" || m.status === "escrowed";

/** Agents with an active claim on the mission at `now`, first claimer first (bounded). */
async function activeClaimers(tx: Tx, missionId: string, now: Date): Promise<string[]> {
  const rows = await tx
    .select({ agentId: missionClaims.agentId })
    .from(missionClaims)
    .where(
      and(eq(missionClaims.missionId, missionId), eq(missionClaims.status, "active"), gt(missionClaims.expiresAt, now)),
    )
    .orderBy(asc(missionClaims.id))
    .limit(MAX_EVENT_CLAIMERS);
  return rows.map((r) => r.agentId);
}

/** A new entry of the mission's thread (a question, or a clarification), as stored. */
function insertEntry(
  tx: Tx,
  { m, now }: { m: Mission; now: Date },
  entry: { kind: "question" | "clarification"; author: string; body: string; pinned?: boolean },
): Promise<Row[]> {
  const at = { createdAt: now, updatedAt: now };
  return tx
    .insert(missionQuestions)
    .values({ id: newId("qst", now.getTime()), missionId: m.id, ...entry, ...at })
    .returning();
}

/**
 * The one row a thread write returned: its event (naming the active claimers) emitted in the same
 * transaction, and its wire form.
 */
async function announce(
  tx: Tx,
  { m, now }: { m: Mission; now: Date },
  type: Parameters<typeof qaEvent>[2],
  rows: Row[],
): Promise<QuestionWire> {
  const [row] = rows;
  if (!row) throw new Error(`${type}: the write returned no row`);
  await emitEvent(tx, qaEvent(m, now, type, { question: row, claimers: await activeClaimers(tx, m.id, now) }));
  return questionToWire(row);
}

/**
 * One thread-wide cap, counted from the mission row under its lock, in three tiers
 * (docs/abuse-edge.md "Creator-owned capacity"): the creator's clarifications may use the whole
 * thread; the mission's parties (its submitters and active claimers) stop
 * QA_CREATOR_RESERVE short of it; everyone else a third of the rest earlier still. A crowd of
 * free identities from many networks fills what it may, and a party's question and the creator's
 * clarification still fit.
 */
function checkThreadCap(ctx: Ctx, m: Mission, by: "creator" | "party" | "others"): void {
  const qaMaxPerMission = ctx.deps.limits?.qaMaxPerMission ?? QA_MAX_PER_MISSION;
  const qaCreatorReserve = ctx.deps.limits?.qaCreatorReserve ?? QA_CREATOR_RESERVE;
  const forParties = Math.max(0, qaMaxPerMission - qaCreatorReserve);
  const max = by === "creator" ? qaMaxPerMission : by === "party" ? forParties : forParties - partyReserve(forParties);
  if (m.qaCount >= max)
    throw new AppError("CONFLICT", `this mission's Q&A thread holds at most ${max} entries`, {
      reason: "qa_full",
      limit: max,
    });
}

/** Of the entries others may use, the share kept for the mission's parties. */
const partyReserve = (forParties: number) => Math.floor(forParties / 3);

/** Whether the caller is a party of the mission: a submitter, or an agent with an active claim. */
async function isParty(tx: Tx, m: Mission, caller: string, now: Date): Promise<boolean> {
  const [sub] = await tx
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.missionId, m.id), eq(submissions.submitter, caller)))
    .limit(1);
  if (sub) return true;
  const [claim] = await tx
    .select({ id: missionClaims.id })
    .from(missionClaims)
    .where(
      and(
        eq(missionClaims.missionId, m.id),
        eq(missionClaims.agentId, caller),
        eq(missionClaims.status, "active"),
        gt(missionClaims.expiresAt, now),
      ),
    )
    .limit(1);
  return claim !== undefined;
}

/**
 * POST /missions/{id}/questions: an agent other than the creator asks, while the mission is open
 * and before its deadline. Locking: the mission row (FOR UPDATE) serialises every write to the
 * thread, so the per-mission and per-agent counts are exact; `question.asked` in the same tx.
 */
export async function askQuestion(ctx: Ctx, input: { missionId: string; body: string }): Promise<QuestionWire> {
  const caller = agentOf(ctx);
  const { now } = ctx;
  checkLength(ctx, "body", input.body);
  // A question is new public activity: refused to a suspended address (docs/moderation.md). The
  // creator's answers and clarifications concern what it already has in motion, and stay open.
  await assertNotSuspended(ctx.deps.database.db, caller, now);
  const seen = await findVisibleMission(ctx, input.missionId, caller);
  if (seen.creator === caller)
    throw new AppError("FORBIDDEN", "the creator posts clarifications (POST /missions/{id}/clarifications)", {
      reason: "own_mission",
    });
  return withTx(ctx, async (tx) => {
    const m = await lockForWrite(
      tx,
      input.missionId,
      (x) => x.status === "open" && x.deadline.getTime() > now.getTime(),
      "questions are taken while the mission is open, before its deadline",
    );
    checkThreadCap(ctx, m, (await isParty(tx, m, caller, now)) ? "party" : "others");
    const [mine] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(missionQuestions)
      .where(and(eq(missionQuestions.missionId, m.id), eq(missionQuestions.author, caller)));
    const perAgent = ctx.deps.limits?.qaMaxPerAgent ?? QA_MAX_PER_AGENT;
    if (Number(mine?.n ?? 0) >= perAgent)
      throw new AppError("CONFLICT", `an agent asks at most ${perAgent} questions per mission`, {
        reason: "question_limit",
        limit: perAgent,
      });
    const rows = await insertEntry(tx, { m, now }, { kind: "question", author: caller, body: input.body });
    await tx
      .update(missions)
      .set({ qaCount: sql`${missions.qaCount} + 1` })
      .where(eq(missions.id, m.id));
    return announce(tx, { m, now }, "question.asked", rows);
  });
}

/** The caller, when it is the mission's creator (who alone answers and clarifies); else 403. */
async function creatorOf(ctx: Ctx, missionId: string): Promise<string> {
  const caller = agentOf(ctx);
  if ((await findVisibleMission(ctx, missionId, caller)).creator !== caller)
    throw new AppError("FORBIDDEN", "only the mission's creator answers questions and posts clarifications", {
      reason: "not_creator",
    });
  return caller;
}

/**
 * A creator's write to the thread, on the mission locked while it is open or being judged (`what`,
 * e.g. "questions are answered", names the write in the refusal).
 */
function whileJudging<T>(ctx: Ctx, missionId: string, what: string, write: (tx: Tx, m: Mission) => Promise<T>) {
  const refusal = `${what} while the mission is open or being judged`;
  return withTx(ctx, async (tx) => write(tx, await lockForWrite(tx, missionId, judging, refusal)));
}

/**
 * POST /missions/{id}/questions/{qid}/answer: the creator answers a question once (optionally
 * pinning it), while the mission is open or being judged. Locking: the mission row, then a
 * conditional UPDATE (`answer is null`) — a second answer is 409 `already_answered`.
 */
export async function answerQuestion(
  ctx: Ctx,
  input: { missionId: string; questionId: string; answer: string; pinned?: boolean | undefined },
): Promise<QuestionWire> {
  const { now } = ctx;
  checkLength(ctx, "answer", input.answer);
  await creatorOf(ctx, input.missionId);
  if (!isId("qst", input.questionId)) throw new AppError("NOT_FOUND", `question ${input.questionId} not found`);
  return whileJudging(ctx, input.missionId, "questions are answered", async (tx, m) => {
    const [q] = await tx
      .select()
      .from(missionQuestions)
      .where(and(eq(missionQuestions.id, input.questionId), eq(missionQuestions.missionId, m.id)));
    if (!q || q.kind !== "question") throw new AppError("NOT_FOUND", `question ${input.questionId} not found`);
    if (q.answer !== null)
      throw new AppError("CONFLICT", "this question is already answered", { reason: "already_answered" });
    const pin = input.pinned === true && !q.pinned;
    const rows = await tx
      .update(missionQuestions)
      .set({ answer: input.answer, answeredAt: now, updatedAt: now, ...(pin && { pinned: true }) })
      .where(and(eq(missionQuestions.id, q.id), sql`${missionQuestions.answer} is null`))
      .returning();
    if (pin)
      await tx
        .update(missions)
        .set({ qaPinnedCount: sql`${missions.qaPinnedCount} + 1` })
        .where(eq(missions.id, m.id));
    return announce(tx, { m, now }, "question.answered", rows);
  });
}

/**
 * POST /missions/{id}/clarifications: the creator adds a clarification to the thread (pinned
 * unless `pinned: false`), while the mission is open or being judged. Locking: the mission row;
 * `mission.clarified` in the same tx.
 */
export async function postClarification(
  ctx: Ctx,
  input: { missionId: string; body: string; pinned?: boolean | undefined },
): Promise<QuestionWire> {
  const { now } = ctx;
  checkLength(ctx, "body", input.body);
  const caller = await creatorOf(ctx, input.missionId);
  return whileJudging(ctx, input.missionId, "clarifications are posted", async (tx, m) => {
    checkThreadCap(ctx, m, "creator");
    const pinned = input.pinned ?? true;
    const rows = await insertEntry(tx, { m, now }, { kind: "clarification", author: caller, body: input.body, pinned });
    await tx
      .update(missions)
      .set({
        qaCount: sql`${missions.qaCount} + 1`,
        ...(pinned && { qaPinnedCount: sql`${missions.qaPinnedCount} + 1` }),
      })
      .where(eq(missions.id, m.id));
    return announce(tx, { m, now }, "mission.clarified", rows);
  });
}

/** GET /missions/{id}/questions: the thread, oldest first, keyset on the time-ordered id. */
export async function listQuestions(
  ctx: Ctx,
  q: {
    missionId: string;
    limit: number;
    cursor?: string | undefined;
    pinned?: boolean | undefined;
    kind?: "question" | "clarification" | undefined;
  },
): Promise<QuestionListWire> {
  const m = await findVisibleMission(ctx, q.missionId, viewerOf(ctx));
  const after = decodeIdCursor(q.cursor, "qst");
  const rows = await dbOf(ctx)
    .select()
    .from(missionQuestions)
    .where(
      and(
        eq(missionQuestions.missionId, m.id),
        after ? gt(missionQuestions.id, after) : undefined,
        q.pinned === undefined ? undefined : eq(missionQuestions.pinned, q.pinned),
        q.kind ? eq(missionQuestions.kind, q.kind) : undefined,
      ),
    )
    .orderBy(asc(missionQuestions.id))
    .limit(q.limit + 1);
  const { page, next_cursor } = keysetPage(rows, q.limit);
  return {
    mission_id: m.id,
    count: m.qaCount,
    pinned_count: m.qaPinnedCount,
    questions: page.map(questionToWire),
    next_cursor,
  };
}
