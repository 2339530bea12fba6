import type {
  CLAIM_STATUSES,
  MISSION_PHASES,
  MISSION_STATUSES,
  PAYOUT_STATUSES,
  SUBMISSION_STATUSES,
  VERIFICATION_TYPES,
} from "../../db/vocabulary";

// The board's one vocabulary (docs/web.md "Words"): every wire value a page shows — mission
// status and phase, payout state, verification method, submission status, claim status and the
// stable reasons — mapped to the words a person reads. Pages show the label; agent-facing spots
// put the wire value beside it (`WireWord`, a title and a small code span). A value this table
// does not know yet is still shown in words (`humanize`), never as snake_case.

type Words<T extends readonly string[]> = Record<T[number], string>;

const MISSION_STATUS_WORDS: Words<typeof MISSION_STATUSES> = {
  pending_escrow: "Waiting for funding",
  open: "Open",
  escrowed: "Being judged",
  resolved: "Awarded",
  voided: "Cancelled",
};

const PHASE_WORDS: Words<typeof MISSION_PHASES> = {
  awaiting_escrow: "waiting for the deposit",
  accepting_submissions: "taking submissions",
  judging: "the creator is judging",
  revealing: "answers are being revealed",
  verifying: "submissions are being checked",
  voting: "put to a vote",
  awaiting_oracle: "waiting for the oracle",
  appeal: "open to disputes",
  settling: "paying out",
  settled: "paid",
  closed: "closed",
};

const PAYOUT_WORDS: Words<typeof PAYOUT_STATUSES> = {
  not_applicable: "Nothing to pay",
  queued: "Payment scheduled",
  pending_gas: "Payment waiting for gas",
  broadcast: "Payment sent, confirming",
  confirmed: "Paid",
  failed: "Payment failed, will be retried by the operator",
};

const VERIFICATION_WORDS: Words<typeof VERIFICATION_TYPES> = {
  creator_judges: "The creator picks the winner",
  first_valid_match: "First correct answer wins",
  peer_vote: "Voters decide",
  oracle: "An oracle decides",
};

const SUBMISSION_STATUS_WORDS: Words<typeof SUBMISSION_STATUSES> = {
  pending: "Waiting",
  accepted: "Won",
  rejected: "Not chosen",
};

const CLAIM_STATUS_WORDS: Words<typeof CLAIM_STATUSES> = {
  active: "working on it",
  released: "gave up",
  expired: "ran out of time",
};

/** Resolution and submission reasons (stable constants of the API). */
const REASON_WORDS: Record<string, string> = {
  creator_award: "the creator picked the winner",
  creator_award_overturned: "a dispute vote overturned the creator's pick",
  creator_void: "the creator cancelled it",
  expired_without_submissions: "nobody submitted before the deadline",
  expired_unfunded: "it was never funded",
  no_valid_submission: "no submission was valid",
  first_valid_match: "the first correct answer won",
  peer_vote: "the voters decided",
  oracle_attested: "the oracle decided",
  mission_voided: "the mission was cancelled",
  awarded_pending_appeal: "picked; paid when the dispute window closes",
  awaiting_appeal: "not picked; may still win a dispute",
  expected_not_matched: "did not match the expected answer",
  target_hash_mismatch: "did not match the expected file",
  predicate_rejected: "the checker rejected it",
  predicate_unavailable: "the checker could not be reached",
  content_hash_mismatch: "the file does not match its hash",
  content_unavailable: "the file could not be fetched",
  invalid_data_uri: "the inline answer could not be read",
  match_timeout: "checking took too long",
  remote_content: "hosted elsewhere, not checked here",
  duplicate_submission: "a copy of an earlier submission",
  payout_converted_to_refund: "the payment was returned to the creator",
  release_cancelled: "the payment was cancelled",
  tx_failed: "the transaction failed",
  operator_hide: "hidden by the operator",
  none: "",
};

/** A wire value this table does not know, in words: "some_new_reason" → "some new reason". */
export const humanize = (wire: string) => wire.replace(/[_-]+/g, " ").trim();

const look = (table: Record<string, string>, wire: string | null | undefined): string =>
  wire == null ? "" : (table[wire] ?? humanize(wire));

export const words = {
  status: (s: string) => look(MISSION_STATUS_WORDS, s),
  phase: (s: string | null | undefined) => look(PHASE_WORDS, s),
  payout: (s: string) => look(PAYOUT_WORDS, s),
  method: (s: string) => look(VERIFICATION_WORDS, s),
  submission: (s: string) => look(SUBMISSION_STATUS_WORDS, s),
  claim: (s: string) => look(CLAIM_STATUS_WORDS, s),
  reason: (s: string | null | undefined) => look(REASON_WORDS, s),
};

/**
 * "1 submission", "3 submissions": the count and its noun, or the noun's two forms when the plural
 * is irregular (`{ one: "set", many: "set" }`).
 */
export const plural = (n: number, noun: string | { one: string; many: string }) => {
  const { one, many } = typeof noun === "string" ? { one: noun, many: `${noun}s` } : noun;
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
};
