import type { DisputeType } from "../manifest";

// AIP-4 tables, as data (style rule 8). Pure.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** §3.1 resolution deadlines (maximums). */
export const RESOLUTION_WINDOW_MS: Record<DisputeType, number> = {
  non_payment: 72 * HOUR,
  bad_spec: 14 * DAY,
  dup_claim: 24 * HOUR,
  oracle_disagreement: 14 * DAY,
};

/**
 * §6.1 filing limits per filer bucket (an address, or `anon:<ip>` for anonymous filers).
 * `scope: "mission"` counts per filer per mission with no window (dup_claim: 3 per mission, ever;
 * the mission's own bound is in disputes.service.ts); `"oracle"`
 * counts per oracle (oracle_disagreement: 3 per oracle per 30 days).
 */
export const FILING_LIMITS: Record<
  DisputeType,
  { limit: number; windowMs: number | null; scope: "filer" | "mission" | "oracle" }
> = {
  non_payment: { limit: 10, windowMs: 30 * DAY, scope: "filer" },
  bad_spec: { limit: 5, windowMs: 30 * DAY, scope: "filer" },
  dup_claim: { limit: 3, windowMs: null, scope: "mission" },
  oracle_disagreement: { limit: 3, windowMs: 30 * DAY, scope: "oracle" },
};

/** §3.2: an expired dispute counts as upheld for these types. */
export const EXPIRED_UPHOLDS: ReadonlySet<DisputeType> = new Set(["non_payment", "dup_claim"]);

/** Reasons a filing is refused (422 UNPROCESSABLE, details.reason). */
export type NotQualifying =
  | "submission_required"
  | "submission_not_found"
  | "submission_not_accepted"
  | "not_your_submission"
  | "already_paid"
  | "sla_not_elapsed"
  | "mission_settled"
  | "not_first_valid_match"
  | "not_oracle_mission"
  | "not_same_second"
  | "not_both_valid"
  | "anonymous_not_allowed"
  | "evidence_required"
  | "mission_dispute_limit";

/** §1.1: a payout status that means "not paid yet" (the dispute may stand). */
export const UNPAID_STATUSES: ReadonlySet<string> = new Set(["queued", "pending_gas", "failed"]);

/** §1.3: two arrival times "within the same server-clock second". */
export const sameSecond = (a: Date, b: Date): boolean =>
  Math.floor(a.getTime() / 1000) === Math.floor(b.getTime() / 1000);
