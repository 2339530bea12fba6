import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { lockMission } from "../../db/mission-visibility";
import { chainPayouts, missions, submissions } from "../../db/schema/index";
import type { TxCtx } from "../../lib/context";
import { resolveAndPay, voidAndRefund } from "../settlement";
import { maxWinnersOnRail } from "../rail";
import { AppError } from "../../lib/errors";
import { defaultAward } from "../verification";

// AIP-4 §4 corrective actions, run in the transaction that upholds the dispute (so the action and
// the outcome commit together — "within 24 hours" is met at once). Each returns what it did, as
// data stored on the dispute.

/** Phases a bad_spec may interrupt: no vote or appeal stake is held yet. */
const VOIDABLE_PHASES: ReadonlySet<string> = new Set([
  "accepting_submissions",
  "judging",
  "awaiting_oracle",
  "verifying",
]);
/** first_valid_match rejections made by the rule itself, after the deliverable was fetched and hash-checked. */
const RULE_REJECTIONS = ["target_hash_mismatch", "expected_not_matched", "predicate_rejected"];

/**
 * non_payment: retry settlement. A base-rail release waiting (queued / pending_gas) is due again
 * now; a failed one needs the operator (the payouts admin). The mission is resolved, so it takes
 * no new submissions already (the "lock mission" half is moot).
 */
export async function retrySettlement(
  { tx, now }: Pick<TxCtx, "tx" | "now">,
  { missionId }: { missionId: string },
): Promise<Record<string, unknown>> {
  const [p] = await tx
    .select()
    .from(chainPayouts)
    .where(and(eq(chainPayouts.missionId, missionId), eq(chainPayouts.kind, "release")))
    .for("update");
  if (!p) return { action: "retry_settlement", retried: false, detail: "no on-chain release for this mission" };
  if (p.state === "queued" || p.state === "pending_gas") {
    await tx.update(chainPayouts).set({ nextCheckAt: now }).where(eq(chainPayouts.id, p.id));
    return {
      action: "retry_settlement",
      retried: true,
      payout_state: p.state,
      mission_locked: "already closed to submissions",
    };
  }
  return {
    action: "retry_settlement",
    retried: false,
    payout_state: p.state,
    detail:
      p.state === "failed"
        ? "failed for good: needs the operator (payouts admin)"
        : "the release is already on its way",
  };
}

/**
 * bad_spec: invalidate the rule and void its non-paying decisions (AIP-4 §4) — never a refund to the
 * creator for work it has read, whoever filed or conceded (docs/decisions.md "bad_spec"):
 * - a live mission with no submission (none read): voided, reward refunded;
 * - a live first_valid_match with submissions: the rule's rejections are voided — those submissions
 *   are held (pending, rule_invalidated) for the default policy (default-award.ts). With no check
 *   still due the mission resolves at once under it; otherwise it keeps running: a valid match
 *   still wins in full, and at the deadline the held ones share the default award;
 * - a live creator_judges, peer_vote or oracle mission with submissions: nothing was rejected by a
 *   rule yet; the creator re-judges within its judging window (silence → the default award), the
 *   vote or the oracle decides as before;
 * - a mission resolved or voided (the bounded window after resolution), or in a vote or appeal: the
 *   outcome and any payment stand (no clawback); the rule's rejections are relabelled and the
 *   upheld dispute stays on the public record as the flag against the mission.
 * Locking: the mission row FOR UPDATE, then defaultAward's / voidAndRefund's ledger rows or payout queue.
 */
export async function invalidateRule(
  ctx: TxCtx,
  { missionId }: { missionId: string },
): Promise<Record<string, unknown>> {
  const { tx } = ctx;
  const m = await lockMission(tx, missionId);
  if (!m) return { action: "invalidate_rule", applied: false, detail: "mission not found" };
  const live = (m.status === "open" || m.status === "escrowed") && VOIDABLE_PHASES.has(m.phase);
  if (!live) return relabelRejections(ctx, m);
  const [read] = await tx
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.missionId, missionId), ne(submissions.reason, "self_submission")))
    .limit(1);
  if (!read) return voidForBadSpec(ctx, m, "no submission: nobody's work was read");
  if (m.verificationType !== "first_valid_match")
    return {
      action: "invalidate_rule",
      applied: true,
      mission_voided: false,
      rejudge:
        m.verificationType === "creator_judges"
          ? "the creator judges under the corrected rule before judging_deadline; silence → the default award"
          : `the ${m.verificationType} decision stands as the judge; no rule rejection to void`,
    };
  return holdRuleRejections(ctx, m);
}

type Locked = NonNullable<Awaited<ReturnType<typeof lockMission>>>;

/** bad_spec where no work was read: the mission is voided and the reward refunded. */
async function voidForBadSpec(ctx: TxCtx, m: Locked, detail: string): Promise<Record<string, unknown>> {
  await voidAndRefund(ctx, { mission: m, reason: "dispute_bad_spec" });
  return { action: "invalidate_rule", applied: true, mission_voided: true, refunded_to: m.creator, detail };
}

/** The mission's submissions the rule itself rejected. */
const ruleRejected = (missionId: string) =>
  and(
    eq(submissions.missionId, missionId),
    eq(submissions.status, "rejected"),
    inArray(submissions.reason, RULE_REJECTIONS),
  );

/** bad_spec on a mission past voiding: the outcome stands; the rule's rejections are relabelled. */
async function relabelRejections({ tx, now }: TxCtx, m: Locked): Promise<Record<string, unknown>> {
  const relabelled = await tx
    .update(submissions)
    .set({ reason: "rule_invalidated", updatedAt: now })
    .where(ruleRejected(m.id))
    .returning({ id: submissions.id });
  return {
    action: "invalidate_rule",
    applied: true,
    outcome_stands: true,
    clawback: false,
    detail: `mission is ${m.status} (${m.phase}): its outcome and any payment stand; the upheld dispute is its public record`,
    decisions_voided: relabelled.map((v) => v.id),
  };
}

/**
 * bad_spec on a live first_valid_match with submissions: the rule's rejections are held for the
 * default policy; with no check still due the mission resolves at once under it.
 */
async function holdRuleRejections(ctx: TxCtx, m: Locked): Promise<Record<string, unknown>> {
  const { tx, now } = ctx;
  const held = await tx
    .update(submissions)
    .set({ status: "pending", reason: "rule_invalidated", decidedAt: null, outcome: null, updatedAt: now })
    .where(ruleRejected(m.id))
    .returning({ id: submissions.id });
  // One pending submission, an unchecked one first if any.
  const [pending] = await tx
    .select({ checkResult: submissions.checkResult })
    .from(submissions)
    .where(and(eq(submissions.missionId, m.id), eq(submissions.status, "pending")))
    .orderBy(sql`${submissions.checkResult} is not null`)
    .limit(1);
  // Every submission failed its fetch or hash check: no verified deliverable was read.
  if (!pending) return voidForBadSpec(ctx, m, "no submission delivered verified content");
  if (pending.checkResult === null)
    return {
      action: "invalidate_rule",
      applied: true,
      mission_voided: false,
      decisions_voided: held.map((v) => v.id),
      detail: "submissions are still being checked: a valid match still wins; at the deadline the default award",
    };
  await defaultAward(ctx, { mission: m, reason: "default_award_rule_invalidated" });
  const [after] = await tx
    .select({ status: missions.status, resolutionReason: missions.resolutionReason, payouts: missions.payouts })
    .from(missions)
    .where(eq(missions.id, m.id));
  return {
    action: "invalidate_rule",
    applied: true,
    mission_voided: after?.status === "voided",
    decisions_voided: held.map((v) => v.id),
    resolution_reason: after?.resolutionReason ?? null,
    payouts: after?.payouts ?? [],
  };
}

/**
 * AIP-4 §3.2 `split`: pays the named submissions their shares (bps of the reward net of the fee)
 * through the same award path as any award (resolveAndPay: ELO, ledger transfer or base-rail
 * release, events), while the mission is still deciding. A mission already resolved or voided keeps
 * its outcome and payments (no clawback, as for bad_spec): the ruling is recorded, nothing moves.
 * Locking: the mission row FOR UPDATE, then resolveAndPay's agent and ledger rows.
 */
export async function paySplit(
  ctx: TxCtx,
  { missionId, shares }: { missionId: string; shares: { submission_id: string; share_bps: number }[] },
): Promise<Record<string, unknown>> {
  const { tx } = ctx;
  const m = await lockMission(tx, missionId);
  if (!m) return { action: "split_award", applied: false, detail: "mission not found" };
  const live = (m.status === "open" || m.status === "escrowed") && VOIDABLE_PHASES.has(m.phase);
  if (!live)
    return {
      action: "split_award",
      applied: false,
      outcome_stands: true,
      clawback: false,
      detail: `mission is ${m.status} (${m.phase}): its outcome and any payment stand`,
    };
  if (shares.length > maxWinnersOnRail(m.rewardChain, shares.length))
    throw new AppError("UNPROCESSABLE", "this mission's rail pays one winner per release", {
      reason: "split_too_wide",
    });
  const rows = await tx
    .select({
      id: submissions.id,
      submitter: submissions.submitter,
      status: submissions.status,
      reason: submissions.reason,
    })
    .from(submissions)
    .where(
      and(
        eq(submissions.missionId, missionId),
        inArray(
          submissions.id,
          shares.map((x) => x.submission_id),
        ),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const x of shares) {
    const r = byId.get(x.submission_id);
    if (!r)
      throw new AppError("UNPROCESSABLE", `submission ${x.submission_id} is not on this mission`, {
        reason: "split_unknown_submission",
      });
    if (r.reason === "self_submission" || r.status === "rejected")
      throw new AppError("UNPROCESSABLE", `submission ${x.submission_id} cannot be paid (${r.reason})`, {
        reason: "split_ineligible",
      });
  }
  await resolveAndPay(ctx, {
    mission: m,
    winners: shares.map((x) => ({
      submissionId: x.submission_id,
      submitter: byId.get(x.submission_id)!.submitter,
      weight: x.share_bps,
    })),
    reason: "dispute_split",
    winnerReason: "dispute_split",
    loserReason: "not_selected",
    outcome: "partial",
  });
  const [after] = await tx.select({ payouts: missions.payouts }).from(missions).where(eq(missions.id, missionId));
  return { action: "split_award", applied: true, shares, payouts: after?.payouts ?? [] };
}
