// The closed vocabularies of the stored records: every status, phase and kind a column may hold,
// one `as const` list each. The drizzle columns are typed from these (`text(..., { enum })`), the
// wire schemas build their zod enums from them, and docs/lifecycle.md quotes this file. A value
// the code writes that is not listed here does not compile.

/** AIP-1 §4: the verification methods this server runs. */
export const VERIFICATION_TYPES = ["creator_judges", "first_valid_match", "peer_vote", "oracle"] as const;
export type VerificationType = (typeof VERIFICATION_TYPES)[number];

/** Settlement rail: the internal ledger, or the base escrow contract (docs/base-rail.md). */
export const REWARD_CHAINS = ["ledger", "base"] as const;

/** AIP-1 §2 status. pending_escrow is ours (base rail, before the deposit confirms) and is never listed. */
export const PUBLIC_STATUSES = ["open", "escrowed", "resolved", "voided"] as const;
export const MISSION_STATUSES = ["pending_escrow", ...PUBLIC_STATUSES] as const;
export type MissionStatus = (typeof MISSION_STATUSES)[number];

/**
 * The step inside a status (docs/design.md "Missions"). Written by:
 * - missions.create (creation): awaiting_escrow (base rail), accepting_submissions;
 * - escrow.deposits: accepting_submissions (deposit confirmed), awaiting_escrow (deposit reorged);
 * - verification/lifecycle (the sweeper): judging, revealing, verifying, voting, closed;
 * - verification/oracle: awaiting_oracle; verification/appeal: appeal, voting;
 * - verification/settlement: settling (base rail release queued), settled, closed (voided);
 * - escrow.payouts: settled (release final); escrow.convert: closed.
 */
export const MISSION_PHASES = [
  "awaiting_escrow",
  "accepting_submissions",
  "judging",
  "revealing",
  "verifying",
  "voting",
  "awaiting_oracle",
  "appeal",
  "settling",
  "settled",
  "closed",
] as const;
export type MissionPhase = (typeof MISSION_PHASES)[number];

/**
 * The (status, phase) pairs a mission can be in: each phase belongs to one status. The sweeper's
 * table (verification/lifecycle.ts) has a step for each pair or lists it as terminal, and
 * test/verification/lifecycle-table.test.ts holds the code's writes to this list.
 */
export const MISSION_STATES = {
  pending_escrow: ["awaiting_escrow"],
  open: ["accepting_submissions"],
  escrowed: ["judging", "revealing", "verifying", "voting", "awaiting_oracle", "appeal"],
  resolved: ["settling", "settled"],
  voided: ["closed"],
} as const satisfies Record<MissionStatus, readonly MissionPhase[]>;
/** A mission state as `status/phase`, the key of the lifecycle table. */
export type MissionState = { [S in MissionStatus]: `${S}/${(typeof MISSION_STATES)[S][number]}` }[MissionStatus];

/** AIP-1 Appendix B payout_status (pending_gas and failed are the base rail's). */
export const PAYOUT_STATUSES = ["not_applicable", "queued", "pending_gas", "broadcast", "confirmed", "failed"] as const;

/** AIP-1 §3 submission status. */
export const SUBMISSION_STATUSES = ["pending", "accepted", "rejected"] as const;

/** A submission's check (docs/design.md "Submissions"): null until checked; unanswered when a predicate never answered. */
export const CHECK_RESULTS = ["valid", "invalid", "unanswered"] as const;

/** The reputation input of a decided submission (and of a rating event, plus decay). */
export const SUBMISSION_OUTCOMES = ["win", "partial", "loss"] as const;

/** docs/decisions.md "Claims": a claim is live only while active, unexpired and the mission open. */
/** Who may claim and submit to a mission (docs/decisions.md "Eligibility"). */
export const MISSION_AUDIENCES = ["anyone", "agents"] as const;

export const CLAIM_STATUSES = ["active", "released", "expired"] as const;

/** AIP-1 §6.1 disputes. */
export const DISPUTE_TYPES = ["non_payment", "bad_spec", "dup_claim", "oracle_disagreement"] as const;
export const DISPUTE_STATUSES = ["open", "resolved", "expired"] as const;
export const DISPUTE_OUTCOMES = ["upheld", "rejected", "split", "expired"] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** base rail deposits: pending → confirmed → final; reorged; rejected (escrow_deposits_status_ck). */
export const DEPOSIT_STATUSES = ["pending", "confirmed", "final", "reorged", "rejected"] as const;

/** base rail payouts (chain_payouts_state_ck, chain_payouts_kind_ck). */
export const CHAIN_PAYOUT_STATES = ["queued", "pending_gas", "broadcast", "confirmed", "final", "failed"] as const;
export type ChainPayoutState = (typeof CHAIN_PAYOUT_STATES)[number];
export const CHAIN_PAYOUT_KINDS = ["release", "refund"] as const;

/** Webhook subscriptions and deliveries. */
export const WEBHOOK_STATUSES = ["pending_verification", "active", "disabled"] as const;
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

/** Moderation (docs/moderation.md): why an agent reports a mission. */
export const REPORT_REASONS = ["spam", "scam", "illegal", "abusive", "misleading", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
/** A report is open until the operator resolves (acted on) or dismisses it. */
export const REPORT_STATUSES = ["open", "resolved", "dismissed"] as const;
/** The operator actions the audit log records (src/db/audit.ts). */
export const AUDIT_ACTIONS = [
  "mission.hide",
  "mission.unhide",
  "agent.suspend",
  "agent.unsuspend",
  "report.resolve",
  "report.dismiss",
  "posting_allowlist.add",
  "posting_allowlist.remove",
  "ledger.credit",
  "payout.retry",
  "payout.fail",
  "payout.convert",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
/** Mission Q&A: an agent's question, or a clarification the creator posts. */
export const QA_KINDS = ["question", "clarification"] as const;

/**
 * Withdrawals of a ledger balance to a wallet on the base rail (docs/withdrawals.md):
 * awaiting_approval (over a cap) → queued → broadcast → confirmed; failed and rejected returned the money.
 */
export const WITHDRAWAL_STATES = [
  "awaiting_approval",
  "queued",
  "broadcast",
  "confirmed",
  "failed",
  "rejected",
] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

/**
 * An ERC-8004 write of the reporter key (docs/erc-8004.md "Exactly once"): the server's identity
 * registration and each feedback entry. queued → broadcast → confirmed; failed: refused or reverted.
 */
export const ERC8004_WRITE_STATES = ["queued", "broadcast", "confirmed", "failed"] as const;
