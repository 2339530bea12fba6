import type { submissions } from "../../db/schema/index";
import { wireSha256 } from "../../lib/hash";
import { receiptPath } from "../../lib/receipt-path";
import type { SubmissionWire } from "./submissions.schemas";
import type { MissionRow } from "../../db/rows";
import { verificationIf } from "../../db/verification";
import type { VerificationType } from "../../db/vocabulary";

// A submission row as a caller sees it (docs/architecture.md "A feature's files": the only place a
// submission row becomes JSON).

export type SubmissionRow = typeof submissions.$inferSelect;

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

/** A submission row as `viewer` sees it, on its mission (as locked or read by the caller). */
export function submissionToWire(
  s: SubmissionRow,
  {
    mission,
    viewer,
    publicUrl,
  }: {
    mission: Pick<MissionRow, "creator" | "status" | "verificationType" | "verificationParams" | "payouts">;
    viewer: string | undefined;
    publicUrl: string;
  },
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
