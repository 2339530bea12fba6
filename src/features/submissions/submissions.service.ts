import { and, asc, count, eq, getTableColumns, gt, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { commitments, missions, submissions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import { isId, newId } from "../../lib/ids";
import { onceTx } from "../../lib/idempotency";
import { pipelined } from "../../db/pipelined";
import { recordActivity } from "../reputation";
import { agentOf, type Ctx, type TxCtx, viewerOf } from "../../lib/context";
import { findVisibleMission } from "../../db/mission-visibility";
import { judgeFirstValidMatch, claimCommitment, revealDeadline } from "../verification";
import type { SubmissionReason } from "../../lib/reasons";
import type { CreateSubmissionInput, SubmissionWire } from "./submissions.schemas";
import { emitEvents, submissionCreated, submissionDecided } from "../../db/outbox";
import { checkHostOf } from "../../jobs/check-queue";
import { MISSION_COLUMNS, type MissionRow } from "../../db/rows";
import type { VerificationType } from "../../db/vocabulary";
import { assertNotSuspended } from "../../db/suspension";
import { decodeIdCursor, encodeIdCursor } from "../../lib/cursor";
import { assertUnderLimits, prepareSubmission, type Mission, type Prepared } from "./submissions.prepare";
import { submissionToWire, type SubmissionRow } from "./submissions.wire";

/** Byte cap of one submissions page; a page stops early and carries next_cursor. */
const LIST_MAX_BYTES = 1024 * 1024;

// Keyed by method: a new verification type fails `tsc` until it has its first status and next action.
const PENDING_REASON: Record<VerificationType, SubmissionReason> = {
  creator_judges: "awaiting_judgement",
  first_valid_match: "awaiting_verification",
  peer_vote: "awaiting_votes",
  oracle: "awaiting_oracle",
};

/**
 * POST /missions/{id}/submissions (AIP-1 §3). Only while the mission is open and before its
 * deadline. Locking: a conditional UPDATE of the mission row (status = open AND deadline > now)
 * bumps submission_count and holds the row lock, which serialises submissions to one mission
 * (and a concurrent void) for the per-agent limit and duplicate checks.
 */
export async function createSubmission(
  ctx: Ctx,
  { missionId, submission: input }: { missionId: string; submission: CreateSubmissionInput },
): Promise<SubmissionWire> {
  const submitter = agentOf(ctx);
  // The suspension check runs first thing in the transaction below.
  // Hidden from everyone while pending_escrow, its creator included (nothing to submit to yet).
  const mission = await findVisibleMission(ctx, missionId, null);
  const prep = await prepareSubmission(ctx, { mission, input, submitter });
  return onceTx(ctx, (_tx, txCtx) => storeSubmission(txCtx, { mission, input, p: prep }));
}

/** What the answer shows of the mission, as the row lock leaves it (judging may change it). */
const AFTER = {
  creator: missions.creator,
  status: missions.status,
  verificationType: missions.verificationType,
  verificationParams: missions.verificationParams,
  payouts: missions.payouts,
};

/**
 * The transaction: two round trips when nothing is judged here (docs/decisions/storage.md "Writes in few
 * round trips") — the gate and the row lock with the per-agent count, then the row and its events.
 */
async function storeSubmission(
  ctx: TxCtx,
  { mission, input, p }: { mission: Mission; input: CreateSubmissionInput; p: Prepared },
): Promise<SubmissionWire> {
  const { tx, deps, now } = ctx;
  const { submitter } = p;
  const [, [locked], [mine]] = await pipelined(
    () => assertNotSuspended(tx, submitter, now), // docs/moderation.md "Suspension"
    () => lockForSubmission(tx, mission, now, p.reveal),
    // The per-agent count is read after the lock is taken (it goes out behind the update).
    () =>
      tx
        .select({ n: count(), dup: sql<number>`count(*) filter (where ${submissions.contentHash} = ${p.contentHash})` })
        .from(submissions)
        .where(and(eq(submissions.missionId, mission.id), eq(submissions.submitter, submitter))),
  );
  const open = assertAccepting(deps, { mission, reveal: p.reveal, locked, mine });
  const commitment = p.reveal
    ? await claimCommitment(tx, { missionId: mission.id, submitter, contentHash: p.contentHash, salt: input.salt })
    : undefined;
  const row = submissionRow(ctx, { mission, input, p, seq: commitment?.seq ?? open.seq });
  const rejected = row.status === "rejected" ? (row.reason as SubmissionReason) : undefined;
  const [[inserted]] = await pipelined(
    () => tx.insert(submissions).values(row).returning(),
    // Webhooks, in this transaction: created (and rejected at once when the inline check failed);
    // before judging, so a resolution it triggers is reported after it.
    () =>
      emitEvents(tx, [
        submissionCreated(mission, now, { id: row.id, submitter, status: row.status, reason: row.reason }),
        ...(rejected ? [submissionDecided(mission, now, { id: row.id, submitter, reason: rejected }, false)] : []),
      ]),
    () =>
      commitment
        ? tx.update(commitments).set({ submissionId: row.id, revealedAt: now }).where(eq(commitments.id, commitment.id))
        : undefined,
    // Nothing judged: the agent row now (seen, active); else after judging, below.
    () => (p.judged ? undefined : recordActivity({ tx, now }, { agentId: submitter, seen: true })),
  );
  if (!p.judged)
    return submissionToWire(inserted!, { mission: open, viewer: submitter, publicUrl: deps.config.publicUrl });
  return judgeAndAnswer(ctx, { missionId: mission.id, id: row.id, submitter });
}

/**
 * The gate, and the mission row lock that orders submissions: open and before the deadline — or,
 * for commit-reveal, in the reveal window (the seq then comes from the commitment). The deadline
 * and the reveal window are immutable, so the window is checked here; the update gates the state.
 */
function lockForSubmission(tx: Tx, mission: Mission, now: Date, reveal: boolean) {
  const returning = { id: missions.id, seq: missions.submissionCount, ...AFTER };
  if (!reveal)
    return tx
      .update(missions)
      .set({ submissionCount: sql`${missions.submissionCount} + 1`, updatedAt: now })
      .where(and(eq(missions.id, mission.id), eq(missions.status, "open"), gt(missions.deadline, now)))
      .returning(returning);
  if (now >= revealDeadline(mission)) return [];
  return tx
    .update(missions)
    .set({ updatedAt: now })
    .where(and(eq(missions.id, mission.id), eq(missions.status, "escrowed"), eq(missions.phase, "revealing")))
    .returning(returning);
}

/** Refuses a submission the locked mission does not take: closed, a duplicate, or over the per-agent limit. */
function assertAccepting<L>(
  deps: Deps,
  {
    mission,
    reveal,
    locked,
    mine,
  }: { mission: Mission; reveal: boolean; locked: L | undefined; mine: { n: number; dup: number } | undefined },
): L {
  if (!locked && reveal && mission.status === "open") {
    throw new AppError(
      "CONFLICT",
      "this mission uses commit-reveal: POST a commitment before the deadline, reveal after it",
      {
        reason: "commit_required",
        next_action: `POST /missions/${mission.id}/commitments`,
      },
    );
  }
  if (!locked) {
    const closedBy = mission.status === "open" ? "its deadline has passed" : `it is ${mission.status}`;
    throw new AppError("MISSION_NOT_OPEN", `mission is not accepting submissions: ${closedBy}`, {
      status: mission.status,
      deadline: mission.deadline.toISOString(),
    });
  }
  assertUnderLimits(deps, mine);
  return locked;
}

/** The new submission's row; `seq` is its arrival order, assigned under the mission row lock. */
function submissionRow(
  { now }: Pick<Ctx, "now">,
  { mission, input, p, seq }: { mission: Mission; input: CreateSubmissionInput; p: Prepared; seq: number },
): SubmissionRow {
  const { fvm, contentUri } = p;
  const { rejected, checkResult, nextCheckAt } = firstCheck(p, now);
  return {
    id: newId("sub", now.getTime()),
    missionId: mission.id,
    submitter: p.submitter,
    contentUri,
    contentHash: p.contentHash,
    metadata: input.metadata ?? null,
    status: rejected ? "rejected" : "pending",
    reason: rejected ?? PENDING_REASON[mission.verificationType],
    seq,
    checkResult,
    checkReason: rejected ?? null,
    checkAttempts: 0,
    nextCheckAt,
    checkHost: checkHostOf(contentUri, fvm?.predicate_uri),
    checkClaimedUntil: null,
    payoutAmount: null,
    outcome: null,
    decidedAt: rejected ? now : null,
    submittedAt: now,
    updatedAt: now,
  };
}

/**
 * Where the new submission's check starts: rejected at once (a self-submission, or the local check
 * found no match), already checked (local check, or inline data: content without a match rule,
 * hash-checked already: nothing to fetch), or due now.
 */
function firstCheck({ self, precheck, fvm, contentUri }: Prepared, now: Date) {
  const rejected = self ? ("self_submission" as const) : precheck?.result === "invalid" ? precheck.reason : undefined;
  const localData = !fvm && contentUri.startsWith("data:");
  return {
    rejected,
    // Every remote deliverable is fetched and must hash to content_hash (docs/design.md), whatever
    // the method; inline/data: content was hash-checked above.
    checkResult: rejected ? ("invalid" as const) : precheck || localData ? ("valid" as const) : null,
    nextCheckAt: !self && !precheck && !localData ? now : null,
  };
}

/** Still under the row lock taken by the count bump: judge in arrival order, resolve at once. */
async function judgeAndAnswer(
  ctx: TxCtx,
  { missionId, id, submitter }: { missionId: string; id: string; submitter: string },
) {
  const { tx, deps, now } = ctx;
  const [m] = await tx.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, missionId));
  await judgeFirstValidMatch(ctx, { mission: m! });
  // After judging: a resolution locks every participant's agent row in address order first.
  await recordActivity({ tx, now }, { agentId: submitter, seen: true });
  const [[stored], [after]] = await pipelined(
    () => tx.select().from(submissions).where(eq(submissions.id, id)),
    () => tx.select(AFTER).from(missions).where(eq(missions.id, missionId)),
  );
  return submissionToWire(stored!, { mission: after!, viewer: submitter, publicUrl: deps.config.publicUrl });
}

// Every column but the deliverable itself (listSubmissions projects content_uri apart).
const { contentUri: _deliverable, ...LIST_COLUMNS } = getTableColumns(submissions);

/**
 * GET /missions/{id}/submissions. Bounded: a `data:` deliverable is never
 * inlined — its content_uri is the per-submission content route (own cap and caching) — and the
 * page stops early at LIST_MAX_BYTES of serialized items (at least one), next_cursor going on
 * from there. The query itself never reads a data: deliverable's bytes.
 */
export async function listSubmissions(ctx: Ctx, q: { missionId: string; limit: number; cursor?: string | undefined }) {
  const { deps } = ctx;
  const { missionId } = q;
  const viewer = viewerOf(ctx);
  const mission = await findVisibleMission(ctx, missionId, viewer);
  const after = decodeIdCursor(q.cursor, "sub");
  const rows = await deps.database.db
    .select({
      ...LIST_COLUMNS,
      contentUri: sql<string>`case when ${submissions.contentUri} like 'data:%' then 'data:' else ${submissions.contentUri} end`,
    })
    .from(submissions)
    .where(and(eq(submissions.missionId, missionId), after ? gt(submissions.id, after) : undefined))
    .orderBy(asc(submissions.id))
    .limit(q.limit + 1);
  const out: SubmissionWire[] = [];
  let bytes = 0;
  for (const row of rows.slice(0, q.limit)) {
    const wire = submissionToWire(row as SubmissionRow, { mission, viewer, publicUrl: deps.config.publicUrl });
    if (wire.content_uri === "data:")
      wire.content_uri = `${deps.config.publicUrl}/missions/${missionId}/submissions/${row.id}/content`;
    const size = Buffer.byteLength(JSON.stringify(wire));
    if (out.length > 0 && bytes + size > LIST_MAX_BYTES) break;
    out.push(wire);
    bytes += size;
  }
  const last = out.at(-1);
  return { submissions: out, next_cursor: last && out.length < rows.length ? encodeIdCursor(last.id) : null };
}

/** A submission of a mission the caller may see, as the caller sees it; 404 when it is not that mission's. */
export async function findVisibleSubmission(
  ctx: Ctx,
  input: { missionId: string; submissionId: string },
): Promise<{ mission: MissionRow; row: SubmissionRow; wire: SubmissionWire }> {
  const { missionId, submissionId } = input;
  const viewer = viewerOf(ctx);
  const mission = await findVisibleMission(ctx, missionId, viewer);
  const [row] = isId("sub", submissionId)
    ? await ctx.deps.database.db
        .select()
        .from(submissions)
        .where(and(eq(submissions.id, submissionId), eq(submissions.missionId, missionId)))
    : [];
  if (!row) throw new AppError("NOT_FOUND", `submission ${submissionId} not found`);
  return { mission, row, wire: submissionToWire(row, { mission, viewer, publicUrl: ctx.deps.config.publicUrl }) };
}

export async function getSubmission(
  ctx: Ctx,
  input: { missionId: string; submissionId: string },
): Promise<SubmissionWire> {
  return (await findVisibleSubmission(ctx, input)).wire;
}

/** GET /submissions/{id} (flat, AIP-3 §10.3): the same view as under its mission. */
export async function getSubmissionById(ctx: Ctx, input: { submissionId: string }): Promise<SubmissionWire> {
  const { submissionId } = input;
  const [row] = isId("sub", submissionId)
    ? await ctx.deps.database.db
        .select({ missionId: submissions.missionId })
        .from(submissions)
        .where(eq(submissions.id, submissionId))
    : [];
  if (!row) throw new AppError("NOT_FOUND", `submission ${submissionId} not found`);
  return getSubmission(ctx, { missionId: row.missionId, submissionId });
}
