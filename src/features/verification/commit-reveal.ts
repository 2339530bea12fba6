import { and, asc, eq, max } from "drizzle-orm";
import { commitments, missions, submissions } from "../../db/schema/index";
import { checkEligibility, findMissionForActor } from "../missions";
import { AppError } from "../../lib/errors";
import { normalizeSha256, sha256Hex } from "../../lib/hash";
import { newId } from "../../lib/ids";
import { payOneWinner, voidAndRefund } from "../settlement";
import { defaultAward, heldDefaultReason } from "./default-award";
import { recordActivity } from "../reputation";
import { type MissionRow } from "../../db/rows";
import { verificationIf } from "../../db/verification";
import { agentOf, type Ctx, dbOf, type TxCtx, withTx } from "../../lib/context";
import { assertVisible, findVisibleMission, lockMission, visibleTo } from "../../db/mission-visibility";
import { assertNotSuspended } from "../../db/suspension";

// Commit-reveal first_valid_match (AIP-1 Security Considerations: "Front-running ... Mitigation:
// commit-reveal scheme"). Until the deadline agents publish only a commitment; after it, during
// reveal_window_seconds, they reveal the deliverable. The earliest valid COMMITMENT wins, so
// watching other agents' reveals gains nothing.

/** sha256("<content sha256 hex>:<committer lowercase>:<salt>"): binds the committer, so a commitment cannot be copied. */
export function commitmentOf({
  contentHash,
  committer,
  salt,
}: {
  contentHash: string;
  committer: string;
  salt: string;
}): string {
  const hex = (normalizeSha256(contentHash) ?? contentHash).replace(/^sha256:/, "");
  return `sha256:${sha256Hex(`${hex}:${committer.toLowerCase()}:${salt}`)}`;
}

export const isCommitReveal = (m: Pick<MissionRow, "verificationType" | "verificationParams">) =>
  verificationIf(m, "first_valid_match")?.params.commit_reveal === true;

export function revealDeadline(m: Pick<MissionRow, "deadline" | "verificationType" | "verificationParams">): Date {
  return new Date(
    m.deadline.getTime() + (verificationIf(m, "first_valid_match")?.params.reveal_window_seconds ?? 86_400) * 1000,
  );
}

function commitmentToWire(c: typeof commitments.$inferSelect) {
  return {
    id: c.id,
    mission_id: c.missionId,
    committer: c.committer,
    commitment: c.commitment,
    seq: c.seq,
    created_at: c.createdAt.toISOString(),
    revealed_submission_id: c.submissionId,
    revealed_at: c.revealedAt?.toISOString() ?? null,
  };
}

/**
 * POST /missions/{id}/commitments while the mission is open. Locking: the mission row FOR UPDATE
 * orders commitments (seq = arrival order); the unique index refuses a duplicate commitment.
 */
export async function commit(ctx: Ctx, { missionId, commitment: raw }: { missionId: string; commitment: string }) {
  const { deps, now } = ctx;
  const committer = agentOf(ctx);
  await assertNotSuspended(dbOf(ctx), committer, now); // docs/moderation.md "Suspension"
  const commitment = normalizeSha256(raw);
  if (!commitment)
    throw new AppError("INVALID_PARAMETER", "commitment must be a sha256 hex digest", { field: "commitment" });
  const gate = await findMissionForActor(ctx, { id: missionId, actor: committer });
  if (gate && visibleTo(gate, null)) await checkEligibility(ctx, { mission: gate, actor: committer }); // AIP-2 §4.1, as at submit
  return withTx(ctx, async (tx) => {
    // Hidden from everyone while pending_escrow, its creator included (nothing to commit to yet).
    const m = assertVisible(await lockMission(tx, missionId), missionId, null);
    if (!isCommitReveal(m))
      throw new AppError("CONFLICT", "this mission does not use commit-reveal", { reason: "not_commit_reveal" });
    if (m.creator === committer)
      throw new AppError("FORBIDDEN", "a creator cannot submit to their own mission", { reason: "own_mission" });
    if (m.status !== "open" || now >= m.deadline)
      throw new AppError("MISSION_NOT_OPEN", "commitments close at the deadline", {
        status: m.status,
        deadline: m.deadline.toISOString(),
      });
    const mine = await tx
      .select({ id: commitments.id })
      .from(commitments)
      .where(and(eq(commitments.missionId, missionId), eq(commitments.committer, committer)));
    if (mine.length >= deps.config.maxSubmissionsPerAgent)
      throw new AppError(
        "CONFLICT",
        `at most ${deps.config.maxSubmissionsPerAgent} commitments per agent per mission`,
        { reason: "submission_limit" },
      );
    const [{ last } = { last: null }] = await tx
      .select({ last: max(commitments.seq) })
      .from(commitments)
      .where(eq(commitments.missionId, missionId));
    const row = {
      id: newId("cmt", now.getTime()),
      missionId,
      committer,
      commitment,
      seq: (last ?? 0) + 1,
      submissionId: null,
      createdAt: now,
      revealedAt: null,
    };
    const inserted = await tx.insert(commitments).values(row).onConflictDoNothing().returning({ id: commitments.id });
    if (inserted.length === 0)
      throw new AppError("CONFLICT", "this commitment was already made", { reason: "duplicate_commitment" });
    await tx
      .update(missions)
      .set({ submissionCount: m.submissionCount + 1, updatedAt: now })
      .where(eq(missions.id, missionId));
    await recordActivity({ tx, now }, { agentId: committer });
    return commitmentToWire(row);
  });
}

/** GET /missions/{id}/commitments: hidden with the mission while it is pending_escrow, from everyone. */
export async function listCommitments(ctx: Ctx, { missionId }: { missionId: string }) {
  await findVisibleMission(ctx, missionId, null);
  const rows = await dbOf(ctx)
    .select()
    .from(commitments)
    .where(eq(commitments.missionId, missionId))
    .orderBy(asc(commitments.seq))
    .limit(1000);
  return { commitments: rows.map(commitmentToWire) };
}

/** The commitment a reveal of this content must match (its salt is required). */
export function revealedCommitment({
  submitter,
  contentHash,
  salt,
}: {
  submitter: string;
  contentHash: string;
  salt: string | undefined;
}): string {
  if (!salt)
    throw new AppError("INVALID_PARAMETER", "a commit-reveal submission needs the salt of its commitment", {
      field: "salt",
    });
  return commitmentOf({ contentHash, committer: submitter, salt });
}

/** The 422 of a reveal that matched no unrevealed commitment of the revealer. */
export function commitmentMismatch(expected: string): AppError {
  return new AppError("UNPROCESSABLE", "no unrevealed commitment of yours matches this content and salt", {
    reason: "commitment_mismatch",
    expected_commitment: expected,
  });
}

/**
 * Judges in commitment order (caller's transaction holds the mission row lock): an unrevealed
 * earlier commitment blocks until the reveal window closes; a revealed one still being checked
 * blocks; the first revealed valid one wins. After the window with no winner: voided.
 */
export async function judgeCommitReveal(
  ctx: TxCtx,
  { mission: m }: { mission: MissionRow },
): Promise<"resolved" | "voided" | "waiting"> {
  const { tx, now } = ctx;
  const windowOpen = now < revealDeadline(m);
  const rows = await tx
    .select({ c: commitments, s: submissions })
    .from(commitments)
    .leftJoin(submissions, eq(submissions.id, commitments.submissionId))
    .where(eq(commitments.missionId, m.id))
    .orderBy(asc(commitments.seq));
  for (const { s } of rows) {
    if (!s) {
      if (windowOpen) return "waiting";
      continue;
    }
    if (s.status !== "pending") continue; // rejected by its check
    if (s.checkResult !== null && s.checkResult !== "valid") continue; // held for the default outcome
    if (s.checkResult === null) return "waiting";
    if (s.checkResult === "valid") return payFirstValid(ctx, { mission: m, winner: s });
  }
  if (windowOpen) return "waiting";
  return closeWithoutWinner(ctx, { mission: m, hadSubmissions: rows.length > 0 });
}

/** The first valid submission in the rule's order wins the whole reward. */
export async function payFirstValid(
  ctx: TxCtx,
  { mission, winner }: { mission: MissionRow; winner: { id: string; submitter: string } },
): Promise<"resolved"> {
  await payOneWinner(ctx, { mission, winner, reason: "first_valid_match" });
  return "resolved";
}

/**
 * The rule's time is over with no winner. Held submissions (a predicate's rejection or silence, a
 * voided bad rule): the default outcome, never a full refund for work the creator's verifier has
 * seen — a verifier the creator controls is treated like a creator who never judged
 * (docs/decisions.md "Predicates"). Otherwise the mission is voided and refunded.
 */
export async function closeWithoutWinner(
  ctx: TxCtx,
  { mission: m, hadSubmissions }: { mission: MissionRow; hadSubmissions: boolean },
): Promise<"resolved" | "voided"> {
  const held = await heldDefaultReason(ctx.tx, m.id);
  if (held) {
    await defaultAward(ctx, { mission: m, reason: held });
    return "resolved";
  }
  await voidAndRefund(ctx, {
    mission: m,
    reason: hadSubmissions ? "no_valid_submission" : "expired_without_submissions",
  });
  return "voided";
}
