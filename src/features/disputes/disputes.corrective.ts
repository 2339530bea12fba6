import { and, eq, inArray } from "drizzle-orm";
import { lockMission } from "../../db/mission-visibility";
import type { Tx } from "../../db/client";
import { chainPayouts, submissions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { voidAndRefund } from "../settlement";

// AIP-4 §4 corrective actions, run in the transaction that upholds the dispute (so the action and
// the outcome commit together — "within 24 hours" is met at once). Each returns what it did, as
// data stored on the dispute.

/** Phases a bad_spec void may interrupt: no vote or appeal stake is held yet. */
const VOIDABLE_PHASES: ReadonlySet<string> = new Set([
  "accepting_submissions",
  "judging",
  "awaiting_oracle",
  "verifying",
]);
/** Rejections made by the rule itself (not by the content being unavailable or a lost race). */
const RULE_REJECTIONS = ["target_hash_mismatch", "expected_not_matched", "predicate_rejected", "oracle_rejected"];

/**
 * non_payment: retry settlement. A base-rail release waiting (queued / pending_gas) is due again
 * now; a failed one needs the operator (the payouts admin). The mission is resolved, so it takes
 * no new submissions already (the "lock mission" half is moot).
 */
export async function retrySettlement(tx: Tx, missionId: string, now: Date): Promise<Record<string, unknown>> {
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
 * bad_spec: invalidate the rule. A mission still deciding (and holding no stakes) is voided and
 * its reward refunded; the submissions the rule rejected lose that decision (rule_invalidated).
 * A mission already resolved, voided or in a vote keeps its outcome (recorded as such).
 * Locking: the mission row FOR UPDATE, then voidAndRefund's ledger or refund queue.
 */
export async function invalidateRule(
  tx: Tx,
  _deps: Deps,
  missionId: string,
  now: Date,
): Promise<Record<string, unknown>> {
  const m = await lockMission(tx, missionId);
  if (!m) return { action: "invalidate_rule", applied: false, detail: "mission not found" };
  const live = (m.status === "open" || m.status === "escrowed") && VOIDABLE_PHASES.has(m.phase);
  if (!live)
    return {
      action: "invalidate_rule",
      applied: false,
      detail: `mission is ${m.status} (${m.phase}); its outcome stands`,
    };
  await voidAndRefund(tx, m, { now, reason: "dispute_bad_spec" });
  const voided = await tx
    .update(submissions)
    .set({ reason: "rule_invalidated", updatedAt: now })
    .where(
      and(
        eq(submissions.missionId, missionId),
        eq(submissions.status, "rejected"),
        inArray(submissions.reason, RULE_REJECTIONS),
      ),
    )
    .returning({ id: submissions.id });
  return {
    action: "invalidate_rule",
    applied: true,
    mission_voided: true,
    refunded_to: m.creator,
    decisions_voided: voided.map((v) => v.id),
  };
}
