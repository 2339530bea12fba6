import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { money, ts, isSet } from "./types";
import { CHECK_RESULTS, SUBMISSION_OUTCOMES, SUBMISSION_STATUSES } from "../vocabulary";

// AIP-1 §3 submission record.
export const submissions = pgTable(
  "submissions",
  {
    id: text("id").primaryKey(), // sub_<ulid>
    missionId: text("mission_id").notNull(),
    submitter: text("submitter").notNull(),
    contentUri: text("content_uri").notNull(),
    contentHash: text("content_hash").notNull(), // always sha256:<hex>
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    status: text("status", { enum: SUBMISSION_STATUSES }).notNull(),
    reason: text("reason").notNull(),
    // Arrival order within the mission, assigned under the mission row lock (first_valid_match
    // judges in this order).
    seq: integer("seq").notNull(),
    // first_valid_match check: null until checked, then valid | invalid (+ reason).
    checkResult: text("check_result", { enum: CHECK_RESULTS }),
    checkReason: text("check_reason"),
    checkAttempts: integer("check_attempts").notNull().default(0),
    nextCheckAt: ts("next_check_at"),
    // Verification pipeline (jobs/check-queue.ts): the host a check connects to first (content host,
    // else the predicate's; null for local content) and the lease of a check in flight — per-host
    // and per-submitter caps count rows whose lease has not expired, across every server process.
    checkHost: text("check_host"),
    checkClaimedUntil: ts("check_claimed_until"),
    payoutAmount: money("payout_amount"),
    outcome: text("outcome", { enum: SUBMISSION_OUTCOMES }), // the reputation input
    decidedAt: ts("decided_at"),
    submittedAt: ts("submitted_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    index("submissions_mission_id_idx").on(t.missionId, t.id),
    index("submissions_submitter_idx").on(t.submitter, t.id),
    // The claims trigger's "did the claimer submit to this mission" probe (agent_records).
    index("submissions_mission_submitter_idx").on(t.missionId, t.submitter),
    uniqueIndex("submissions_mission_seq_uq").on(t.missionId, t.seq),
    index("submissions_next_check_idx").on(t.nextCheckAt).where(isSet(t.nextCheckAt)),
    // GET /transparency/payouts: paid winners, newest first, keyset on (decided_at, id).
    index("submissions_paid_idx")
      .on(t.decidedAt, t.id)
      .where(sql`${t.status} = 'accepted' and ${t.payoutAmount} is not null`),
    index("submissions_check_claimed_idx").on(t.checkClaimedUntil).where(isSet(t.checkClaimedUntil)),
  ],
);
