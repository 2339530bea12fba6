import type { missions } from "../../db/schema/index";
import type { MissionWire } from "./missions.schemas";
import { escrowToWire } from "../escrow/escrow.wire";
import { missionViewPath } from "../web/web.paths";

export type MissionRow = typeof missions.$inferSelect;

/** Row → AIP-1 §2 wire shape (explicit mapping, style.md rule 6). */
export function missionToWire(m: Omit<MissionRow, "search">, publicUrl: string): MissionWire {
  const resolved = m.winnerSubmissionId !== null;
  return {
    id: m.id,
    creator: m.creator,
    title: m.title,
    description: m.description,
    reward: { asset: m.rewardAsset, amount: m.rewardAmount, chain: m.rewardChain },
    verification: { type: m.verificationType as MissionWire["verification"]["type"], params: m.verificationParams },
    deadline: m.deadline.toISOString(),
    status: m.status as MissionWire["status"],
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
    phase: m.phase,
    payout_status: m.payoutStatus as MissionWire["payout_status"],
    spam_fee: m.spamFee,
    tags: m.tags,
    warnings: m.warnings,
    submission_count: m.submissionCount,
    // Claims only mean something while the mission is open (design.md "Claims").
    claim_count: m.status === "open" ? m.claimCount : 0,
    max_claims: m.maxClaims,
    exclusive_claim_ttl: m.exclusiveClaimTtl,
    judging_deadline: m.judgingDeadline?.toISOString() ?? null,
    resolution_reason: m.resolutionReason,
    award: m.award ?? null,
    resolution: resolved
      ? {
          winner_submission_id: m.winnerSubmissionId,
          winner_agent_id: m.winnerAgentId,
          // AIP-1 §6.1: the winner's signed receipt (one per paid submission; see resolution.winners).
          receipt_uri: m.status === "resolved" && m.winnerSubmissionId ? `${publicUrl}/missions/${m.id}/receipts/${m.winnerSubmissionId}` : null,
          winners: m.payouts ?? [],
          fee_amount: m.feeAmount,
          resolved_at: m.resolvedAt?.toISOString() ?? null,
        }
      : null,
    escrow: escrowToWire(m),
    // The HTML mission page (issue 17); the JSON stays at /missions/{id}.
    view_url: `${publicUrl}${missionViewPath(m.id)}`,
  };
}
