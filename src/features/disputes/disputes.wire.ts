import { disputes } from "../../db/schema/index";
import type { DisputeType } from "../manifest";
import type { DisputeWire } from "./disputes.schemas";

/** A dispute row as its wire object (AIP-4 §2). */
export type Row = typeof disputes.$inferSelect;

export function disputeToWire(d: Row): DisputeWire {
  return {
    dispute_id: d.id,
    dispute_type: d.disputeType as DisputeType,
    mission_id: d.missionId,
    submission_id: d.submissionId,
    filed_by: d.filedBy,
    status: d.status as DisputeWire["status"],
    filed_at: d.filedAt.toISOString(),
    resolution_deadline: d.resolutionDeadline.toISOString(),
    evidence: d.evidence,
    outcome: d.outcome as DisputeWire["outcome"],
    rationale: d.rationale,
    resolved_at: d.resolvedAt?.toISOString() ?? null,
    resolution_actor: d.resolutionActor as DisputeWire["resolution_actor"],
    corrective_action: d.correctiveAction ?? null,
  };
}
