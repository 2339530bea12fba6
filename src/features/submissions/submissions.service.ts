import { and, asc, count, eq, getTableColumns, gt, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { commitments, missions, submissions } from "../../db/schema/index";
import { checkEligibility } from "../missions";
import { assertTreasuryCanPay } from "../escrow";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import { wireSha256 } from "../../lib/hash";
import { receiptPath } from "../../lib/receipt-path";
import { isId, newId } from "../../lib/ids";
import { onceTx } from "../../lib/idempotency";
import { pipelined } from "../../db/pipelined";
import { recordActivity } from "../reputation";
import { agentOf, type Ctx, type TxCtx, viewerOf } from "../../lib/context";
import { findVisibleMission } from "../../db/mission-visibility";
import { normaliseContent } from "./submissions.content";
import {
  checkSubmission,
  judgeFirstValidMatch,
  needsNetwork,
  claimCommitment,
  isCommitReveal,
  revealDeadline,
  type FvmParams,
} from "../verification";
import type { SubmissionReason } from "../../lib/reasons";
import type { CreateSubmissionInput, SubmissionWire } from "./submissions.schemas";
import { emitEvents, submissionCreated, submissionDecided } from "../../db/outbox";
import { checkHostOf } from "../../jobs/check-queue";
import { matcherBusy } from "../../lib/safe-regex";
import { MISSION_COLUMNS, type MissionRow } from "../../db/rows";
import { verificationIf } from "../../db/verification";
import type { VerificationType } from "../../db/vocabulary";
import { assertNotSuspended } from "../../db/suspension";
import { decodeIdCursor, encodeIdCursor } from "../../lib/cursor";

/** Byte cap of one submissions page; a page stops early and carries next_cursor. */
const LIST_MAX_BYTES = 1024 * 1024;

type SubmissionRow = typeof submissions.$inferSelect;

// Keyed by method: a new verification type fails `tsc` until it has its first status and next action.
const PENDING_REASON: Record<VerificationType, SubmissionReason> = {
  creator_judges: "awaiting_judgement",
  first_valid_match: "awaiting_verification",
  peer_vote: "awaiting_votes",
  oracle: "awaiting_oracle",
};

const NEXT_ACTION: Record<VerificationType, string> = {
  creator_judges:
    "wait: the creator may award at any time, at the latest by the mission's judging_deadline (the deadline + verification.params.judging_window_seconds); poll this submission",
  first_valid_match: "wait: the submission is checked against the mission's match rule; poll this submission",
  peer_vote: "wait: peers vote after the deadline until voting_deadline; poll this submission",
  oracle: "wait: the oracle attests the winner after the deadline; poll this submission",
};

/** A creator_judges award under appeal (verification/appeal.ts), keyed by the submission's reason. */
const APPEAL_NEXT_ACTION: Record<string, string> = {
  awarded_pending_appeal:
    "wait: awarded by the creator, paid when the appeal closes (the mission's award.appeal_deadline, or award.voting_deadline if disputed); poll this submission",
  awaiting_appeal:
    "wait: not awarded by the creator; others may dispute the award until award.appeal_deadline (a quorum puts it to a peer vote); poll this submission",
};

/**
 * Whether `viewer` may read the deliverable. Deliverables stay private to the submitter and the
 * creator until the mission is decided, so others cannot copy a pending answer (front-running;
 * AIP-1 Security Considerations). peer_vote: voters must read the deliverables once submissions
 * close (the voting phase).
 */
function deliverableVisible(
  s: Pick<SubmissionRow, "reason" | "submitter">,
  mission: Pick<MissionRow, "creator" | "status" | "verificationType" | "verificationParams">,
  viewer: string | undefined,
): boolean {
  const underAppeal = s.reason === "awarded_pending_appeal" || s.reason === "awaiting_appeal"; // disputers read them too
  const decided =
    mission.status === "resolved" ||
    mission.status === "voided" ||
    (mission.verificationType === "peer_vote" && mission.status === "escrowed") ||
    underAppeal;
  if (decided || viewer === s.submitter) return true;
  // predicate_uri: the creator's own predicate decides, so the creator has no need to read pending
  // work — and must not, or a predicate that never says "valid" would be free work.
  return viewer === mission.creator && verificationIf(mission, "first_valid_match")?.params.predicate_uri === undefined;
}

function submissionToWire(
  s: SubmissionRow,
  mission: Pick<MissionRow, "creator" | "status" | "verificationType" | "verificationParams" | "payouts">,
  viewer: string | undefined,
  publicUrl: string,
): SubmissionWire {
  const visible = deliverableVisible(s, mission, viewer);
  const self = `${publicUrl}/missions/${s.missionId}/submissions/${s.id}`;
  return {
    submission_id: s.id,
    id: s.id,
    mission_id: s.missionId,
    submitter: s.submitter,
    content_uri: visible ? s.contentUri : null,
    content_hash: wireSha256(s.contentHash), // AIP-1 §3 "0x…" form (stored sha256:<hex>)
    submitted_at: s.submittedAt.toISOString(),
    metadata: s.metadata ?? null,
    status: s.status as SubmissionWire["status"],
    reason: s.reason,
    // AIP-3 §3.1: the creator's own submission, never credited.
    ...(s.reason === "self_submission" && { self_submission: true }),
    // AIP-1 §6.1: every paid submission links its signed receipt.
    receipt_uri:
      mission.status === "resolved" && mission.payouts?.some((p) => p.submission_id === s.id)
        ? `${publicUrl}${receiptPath(s.missionId, s.id)}`
        : null,
    next_action:
      s.status === "pending"
        ? `${APPEAL_NEXT_ACTION[s.reason] ?? NEXT_ACTION[mission.verificationType]} (GET ${self})`
        : "none",
  };
}

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
  const prep = await prepareSubmission(ctx, mission, input, submitter);
  return onceTx(ctx, (_tx, txCtx) => storeSubmission(txCtx, { mission, input, p: prep }));
}

type Prepared = Awaited<ReturnType<typeof prepareSubmission>>;
type Mission = Omit<MissionRow, "search">;

/**
 * Everything decided before the transaction: eligibility, the treasury, the content, and for
 * first_valid_match with local content (inline or data:) and no predicate, the check itself (the
 * match may take a few ms); remote checks run in the job runner.
 */
async function prepareSubmission(ctx: Ctx, mission: Mission, input: CreateSubmissionInput, submitter: string) {
  const { deps } = ctx;
  // AIP-3 §3.1 direct self-submission: accepted and answered (self_submission: true) so the
  // creator holds no slot hostage, but stored rejected — never judged, paid or rated.
  const self = mission.creator === submitter;
  if (!self) await checkEligibility(ctx, { mission, actor: submitter });
  // AIP-4 §8.2: no new work on a base-rail mission the resolver could not pay out now.
  await assertTreasuryCanPay(deps, { rewardChain: mission.rewardChain });
  const { contentUri, contentHash } = normaliseContent(input);
  const fvm = verificationIf(mission, "first_valid_match")?.params;
  const reveal = isCommitReveal(mission);
  const local = fvm !== undefined && !self && !needsNetwork(fvm, contentUri);
  const facts = { submitter, self, contentUri, contentHash, fvm, reveal };
  const precheck = local ? await localCheck(ctx, mission, input, { ...facts, fvm }) : undefined;
  // Judged in the transaction: first_valid_match whose local check found a match.
  return { ...facts, precheck, judged: fvm !== undefined && precheck?.result === "valid" };
}

/**
 * The local check of a first_valid_match submission. Cheap checks before it: open, duplicate and
 * per-agent limit are read without a lock (and checked again, authoritatively, under it). A match
 * over its time budget (or a matcher that filled up meanwhile) is retried by the job runner with
 * its own reason, never stored as "no match" (docs/abuse.md "Verification pipeline").
 */
async function localCheck(
  { deps, now }: Ctx,
  mission: Mission,
  input: CreateSubmissionInput,
  f: { submitter: string; contentUri: string; contentHash: string; reveal: boolean; fvm: FvmParams },
) {
  const missionId = mission.id;
  await preflight(deps, {
    missionId,
    submitter: f.submitter,
    contentHash: f.contentHash,
    open: f.reveal || (mission.status === "open" && now < mission.deadline),
    mission,
  });
  if (f.fvm.match_mode === "regex" && f.fvm.expected !== undefined && matcherBusy()) {
    throw new AppError("SERVICE_UNAVAILABLE", "the regex matcher is busy; retry shortly", {
      reason: "matcher_busy",
      retry_after_seconds: 2,
    });
  }
  const checked = await checkSubmission(
    { deps },
    {
      params: f.fvm,
      submission: {
        id: "",
        missionId,
        submitter: f.submitter,
        contentUri: f.contentUri,
        contentHash: f.contentHash,
        submittedAt: now,
        metadata: input.metadata ?? null,
      },
    },
  );
  return checked.result === "retry" ? undefined : checked;
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
  if (!p.judged) return submissionToWire(inserted!, open, submitter, deps.config.publicUrl);
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

/** The caller's earlier submissions to the mission: no duplicate content, at most the per-agent limit. */
function assertUnderLimits(deps: Deps, mine: { n: number; dup: number } | undefined): void {
  if (Number(mine?.dup ?? 0) > 0)
    throw new AppError("CONFLICT", "you already submitted this content to this mission", {
      reason: "duplicate_submission",
    });
  if (Number(mine?.n ?? 0) >= deps.config.maxSubmissionsPerAgent) {
    throw new AppError("CONFLICT", `at most ${deps.config.maxSubmissionsPerAgent} submissions per agent per mission`, {
      reason: "submission_limit",
    });
  }
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
  return submissionToWire(stored!, after!, submitter, deps.config.publicUrl);
}

/** The open, duplicate and per-agent-limit gates, read without a lock (cheap; re-checked under it). */
async function preflight(
  deps: Deps,
  p: {
    missionId: string;
    submitter: string;
    contentHash: string;
    open: boolean;
    mission: Pick<MissionRow, "status" | "deadline">;
  },
) {
  if (!p.open) {
    const closedBy = p.mission.status === "open" ? "its deadline has passed" : `it is ${p.mission.status}`;
    throw new AppError("MISSION_NOT_OPEN", `mission is not accepting submissions: ${closedBy}`, {
      status: p.mission.status,
      deadline: p.mission.deadline.toISOString(),
    });
  }
  const [mine] = await deps.database.db
    .select({ n: count(), dup: sql<number>`count(*) filter (where ${submissions.contentHash} = ${p.contentHash})` })
    .from(submissions)
    .where(and(eq(submissions.missionId, p.missionId), eq(submissions.submitter, p.submitter)));
  assertUnderLimits(deps, mine);
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
    const wire = submissionToWire(row as SubmissionRow, mission, viewer, deps.config.publicUrl);
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
  return { mission, row, wire: submissionToWire(row, mission, viewer, ctx.deps.config.publicUrl) };
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
