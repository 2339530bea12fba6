import { and, asc, eq, getTableColumns, gt, sql } from "drizzle-orm";
import { missions, submissions, webhookEvents } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import { isId, newId } from "../../lib/ids";
import { onceTx } from "../../lib/idempotency";
import { pipelined } from "../../db/pipelined";
import { recordActivity, DECAY_WINDOW, withDecayWritten } from "../reputation";
import { agentOf, type Ctx, type TxCtx, viewerOf } from "../../lib/context";
import { assertVisible, findVisibleMission } from "../../db/mission-visibility";
import { findMissionForActor } from "../missions";
import { judgeFirstValidMatch, revealDeadline, commitmentMismatch, revealedCommitment } from "../verification";
import { fromRaised, gateOf, jsonRow, rowFromJson } from "../../db/write-functions";
import { rowsOf, MISSION_COLUMNS, type MissionRow } from "../../db/rows";
import type { DbOrTx } from "../../db/client";
import type { SubmissionReason } from "../../lib/reasons";
import type { CreateSubmissionInput, SubmissionWire } from "./submissions.schemas";
import { emittedIn, eventRow, submissionCreated, submissionDecided, wakeEventHubs } from "../../db/outbox";
import { checkHostOf } from "../../jobs/check-queue";
import type { VerificationType } from "../../db/vocabulary";
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
 * deadline. The rows are one statement, the write function `oabp_submit`
 * (drizzle/0042_writes_sql_functions.sql; docs/decisions/storage.md "A write is one statement"):
 * a conditional UPDATE of the mission row (status = open AND deadline > now) bumps
 * submission_count and holds the row lock, which serialises submissions to one mission (and a
 * concurrent void) for the per-agent limit and duplicate checks; then the row, its events and the
 * submitter's activity. Alone it is its own transaction; with an Idempotency-Key, or when a local
 * first_valid_match check found a match (judged at once, under the same lock), inside one.
 */
export async function createSubmission(
  ctx: Ctx,
  { missionId, submission: input }: { missionId: string; submission: CreateSubmissionInput },
): Promise<SubmissionWire> {
  const submitter = agentOf(ctx);
  // Hidden from everyone while pending_escrow, its creator included (nothing to submit to yet).
  const mission = assertVisible(await findMissionForActor(ctx, { id: missionId, actor: submitter }), missionId, null);
  const p = await prepareSubmission(ctx, { mission, input, submitter });
  // The reveal window is immutable: checked here, the state under the lock.
  if (p.reveal && ctx.now >= revealDeadline(mission)) assertAccepting({ mission, reveal: true });
  // Without a salt nothing can match: refused at the commitment gate, after the others.
  const reveal = { submitter, contentHash: p.contentHash, salt: input.salt };
  const commitment = p.reveal && input.salt ? revealedCommitment(reveal) : null;
  const row = submissionRow(ctx, { mission, input, p });
  const rejected = row.status === "rejected" ? (row.reason as SubmissionReason) : undefined;
  const arg = JSON.stringify({
    mission_id: mission.id,
    submitter,
    now: ctx.now.toISOString(),
    reveal: p.reveal,
    commitment,
    max_per_agent: ctx.deps.config.maxSubmissionsPerAgent,
    submission: jsonRow(submissions, row),
    // Webhooks: created (and rejected at once when the inline check failed); before judging, so
    // a resolution it triggers is reported after it.
    events: [
      submissionCreated(mission, ctx.now, { id: row.id, submitter, status: row.status, reason: row.reason }),
      ...(rejected ? [submissionDecided(mission, ctx.now, { id: row.id, submitter, reason: rejected }, false)] : []),
    ].map((e) => jsonRow(webhookEvents, eventRow(e))),
    // Judged: the activity after judging (a resolution locks every participant's agent row first).
    activity: !p.judged,
    ...DECAY_WINDOW,
  });
  const run = async (db: DbOrTx) => {
    const [r] = rowsOf<{ out: { seq: number; metadata: SubmissionRow["metadata"]; mission: unknown } }>(
      await db.execute(sql`select oabp_submit(${arg}::jsonb) as out`),
    );
    const after = rowFromJson(missions, r?.out.mission);
    if (!r || !after) throw new Error("oabp_submit answered no row");
    // The answer shows the row as stored (jsonb orders the metadata's keys its own way).
    return { stored: { ...row, seq: r.out.seq, metadata: r.out.metadata }, after };
  };
  const once = async (): Promise<SubmissionWire> => {
    if (!p.judged && !ctx.tx && !ctx.idempotency) {
      const { stored, after } = await run(ctx.deps.database.db);
      wakeEventHubs(ctx.deps.database, "emitted");
      return submissionToWire(stored, { mission: after, viewer: submitter, publicUrl: ctx.deps.config.publicUrl });
    }
    return onceTx(ctx, async (tx, txCtx) => {
      emittedIn(tx);
      const { stored, after } = await run(tx);
      if (p.judged) return judgeAndAnswer(txCtx, { missionId: mission.id, id: row.id, submitter });
      return submissionToWire(stored, { mission: after, viewer: submitter, publicUrl: ctx.deps.config.publicUrl });
    });
  };
  const refused = (e: unknown) => gateRefusal(ctx.deps, e, { mission, p, reveal }) ?? fromRaised(e);
  return withDecayWritten(ctx, { agentId: submitter, run: once, refused });
}

/** What the answer shows of the mission, as judging left it (`oabp_submit` returns the same fields). */
const AFTER = {
  creator: missions.creator,
  status: missions.status,
  verificationType: missions.verificationType,
  verificationParams: missions.verificationParams,
  payouts: missions.payouts,
};

/** The API's error for a gate `oabp_submit` refused under the lock (OB003), or undefined. */
function gateRefusal(
  deps: Deps,
  e: unknown,
  { mission, p, reveal }: { mission: Mission; p: Prepared; reveal: Parameters<typeof revealedCommitment>[0] },
): AppError | undefined {
  const gate = gateOf(e);
  if (!gate) return undefined;
  try {
    if (gate.gate === "closed") assertAccepting({ mission, reveal: p.reveal });
    if (gate.gate === "limits") assertUnderLimits(deps, { n: Number(gate.n), dup: Number(gate.dup) });
    if (gate.gate === "commitment") return commitmentMismatch(revealedCommitment(reveal));
  } catch (refusal) {
    if (refusal instanceof AppError) return refusal;
  }
  return undefined;
}

/** The refusal of a submission the mission does not take now: commit-reveal before its reveal, or closed. */
function assertAccepting({ mission, reveal }: { mission: Mission; reveal: boolean }): never {
  if (reveal && mission.status === "open") {
    throw new AppError(
      "CONFLICT",
      "this mission uses commit-reveal: POST a commitment before the deadline, reveal after it",
      {
        reason: "commit_required",
        next_action: `POST /missions/${mission.id}/commitments`,
      },
    );
  }
  const closedBy = mission.status === "open" ? "its deadline has passed" : `it is ${mission.status}`;
  throw new AppError("MISSION_NOT_OPEN", `mission is not accepting submissions: ${closedBy}`, {
    status: mission.status,
    deadline: mission.deadline.toISOString(),
  });
}

/** The new submission's row but its `seq`: its arrival order, assigned under the mission row lock. */
function submissionRow(
  { now }: Pick<Ctx, "now">,
  { mission, input, p }: { mission: Mission; input: CreateSubmissionInput; p: Prepared },
): Omit<SubmissionRow, "seq"> {
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
