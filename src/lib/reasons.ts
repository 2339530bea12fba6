// Stable reason constants (docs/style.md rule 8): every submission answer carries one of these in
// `reason`, every resolved/voided mission one of RESOLUTION in `resolution_reason`.
export type SubmissionReason =
  // pending
  | "awaiting_verification"
  | "awaiting_judgement"
  | "awaiting_votes"
  | "awaiting_oracle"
  | "awarded_pending_appeal"
  | "awaiting_appeal"
  // first_valid_match with predicate_uri: the creator's predicate rejected it; held for the default
  // outcome at the deadline unless another submission wins (docs/decisions.md "Predicates")
  | "held_for_default"
  // AIP-4 §4: an upheld bad_spec dispute voided the rule's rejection; held for the default outcome
  // (on a mission already decided, the same reason records it on the rejected submission)
  | "rule_invalidated"
  // accepted
  | "first_valid_match"
  | "selected_by_creator"
  | "default_award"
  | "oracle_attested"
  | "vote_winner"
  | "appeal_winner"
  // AIP-4 §3.2: a dispute ruled `split` paid this submission its share
  | "dispute_split"
  // rejected
  | "another_submission_won"
  | "not_selected"
  | "award_overturned"
  | "mission_voided"
  | "content_hash_mismatch"
  | "content_unavailable"
  | "target_hash_mismatch"
  | "expected_not_matched"
  // the regex check ran out of its time budget every attempt (never "no match")
  | "match_timeout"
  | "predicate_rejected"
  | "predicate_unavailable"
  | "oracle_rejected"
  // AIP-3 §3.1: the mission's creator submitted; stored and answered, never judged or credited.
  | "self_submission";

export type ResolutionReason =
  | "first_valid_match"
  | "creator_award"
  | "creator_award_upheld"
  | "creator_award_overturned"
  | "default_award_judging_expired"
  | "oracle_attested"
  | "default_award_oracle_timeout"
  | "peer_vote"
  | "default_award_no_quorum"
  // first_valid_match with predicate_uri: the predicate never answered (docs/abuse.md)
  | "default_award_predicate_silent"
  // first_valid_match with predicate_uri: the predicate rejected every checked submission
  | "default_award_predicate_rejected"
  // AIP-4 §4: an upheld bad_spec dispute voided the rule's rejections (docs/decisions.md)
  | "default_award_rule_invalidated"
  | "creator_void"
  // the operator hid an open mission with refund: true (docs/moderation.md)
  | "operator_hide"
  // base rail: the operator turned a release that could not be paid into a refund (docs/base-rail.md "Operator routes")
  | "payout_converted_to_refund"
  | "expired_without_submissions"
  | "no_valid_submission"
  | "expired_unfunded"
  // AIP-4 §3.2: a dispute ruled `split`, paid as the ruling's shares through the award path
  | "dispute_split"
  | "dispute_bad_spec"; // AIP-4 §4: an upheld bad_spec dispute invalidated the rule // base rail: the deadline passed before a deposit was confirmed

/**
 * A submission check's outcome (verification/first-valid-match.ts, recorded by jobs/checks.ts).
 * `busy`: not attempted at all (the host's or address's slots were taken); costs no attempt.
 */
export type CheckOutcome =
  | { result: "valid" }
  | { result: "invalid"; reason: SubmissionReason }
  | { result: "retry"; reason: SubmissionReason; busy?: true };
