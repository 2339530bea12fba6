// Stable reason constants (docs/style.md rule 8): every submission answer carries one of these in
// `reason`, every resolved/voided mission one of RESOLUTION in `resolution_reason`.
export const SUBMISSION_REASON = {
  // pending
  awaiting_verification: "awaiting_verification",
  awaiting_judgement: "awaiting_judgement",
  awaiting_votes: "awaiting_votes",
  awaiting_oracle: "awaiting_oracle",
  awarded_pending_appeal: "awarded_pending_appeal",
  awaiting_appeal: "awaiting_appeal",
  // first_valid_match with predicate_uri: the creator's predicate rejected it; held for the default
  // outcome at the deadline unless another submission wins (docs/decisions.md "Predicates")
  held_for_default: "held_for_default",
  // AIP-4 §4: an upheld bad_spec dispute voided the rule's rejection; held for the default outcome
  // (on a mission already decided, the same reason records it on the rejected submission)
  rule_invalidated: "rule_invalidated",
  // accepted
  first_valid_match: "first_valid_match",
  selected_by_creator: "selected_by_creator",
  default_award: "default_award",
  oracle_attested: "oracle_attested",
  vote_winner: "vote_winner",
  appeal_winner: "appeal_winner",
  // AIP-4 §3.2: a dispute ruled `split` paid this submission its share
  dispute_split: "dispute_split",
  // rejected
  another_submission_won: "another_submission_won",
  not_selected: "not_selected",
  award_overturned: "award_overturned",
  mission_voided: "mission_voided",
  content_hash_mismatch: "content_hash_mismatch",
  content_unavailable: "content_unavailable",
  target_hash_mismatch: "target_hash_mismatch",
  expected_not_matched: "expected_not_matched",
  // the regex check ran out of its time budget every attempt (never "no match")
  match_timeout: "match_timeout",
  predicate_rejected: "predicate_rejected",
  predicate_unavailable: "predicate_unavailable",
  oracle_rejected: "oracle_rejected",
  // AIP-3 §3.1: the mission's creator submitted; stored and answered, never judged or credited.
  self_submission: "self_submission",
} as const;
export type SubmissionReason = keyof typeof SUBMISSION_REASON;

export const RESOLUTION_REASON = {
  first_valid_match: "first_valid_match",
  creator_award: "creator_award",
  creator_award_upheld: "creator_award_upheld",
  creator_award_overturned: "creator_award_overturned",
  default_award_judging_expired: "default_award_judging_expired",
  oracle_attested: "oracle_attested",
  default_award_oracle_timeout: "default_award_oracle_timeout",
  peer_vote: "peer_vote",
  default_award_no_quorum: "default_award_no_quorum",
  // first_valid_match with predicate_uri: the predicate never answered (docs/abuse.md)
  default_award_predicate_silent: "default_award_predicate_silent",
  // first_valid_match with predicate_uri: the predicate rejected every checked submission
  default_award_predicate_rejected: "default_award_predicate_rejected",
  // AIP-4 §4: an upheld bad_spec dispute voided the rule's rejections (docs/decisions.md)
  default_award_rule_invalidated: "default_award_rule_invalidated",
  creator_void: "creator_void",
  // the operator hid an open mission with refund: true (docs/moderation.md)
  operator_hide: "operator_hide",
  // base rail: the operator turned a release that could not be paid into a refund (docs/base-rail.md "Operator routes")
  payout_converted_to_refund: "payout_converted_to_refund",
  expired_without_submissions: "expired_without_submissions",
  no_valid_submission: "no_valid_submission",
  expired_unfunded: "expired_unfunded",
  // AIP-4 §3.2: a dispute ruled `split`, paid as the ruling's shares through the award path
  dispute_split: "dispute_split",
  dispute_bad_spec: "dispute_bad_spec", // AIP-4 §4: an upheld bad_spec dispute invalidated the rule // base rail: the deadline passed before a deposit was confirmed
} as const;
export type ResolutionReason = keyof typeof RESOLUTION_REASON;
