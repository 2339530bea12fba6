import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { money, ts, equals, isSet } from "./types";

// Amendments to a posted mission: every change — a deadline
// extension, a reward top-up, an edit of title / description / tags — is one row, public, in
// order (seq per mission, assigned under the mission row lock). A base-rail top-up is `pending`
// until its own escrow slot (key keccak256(bytes(amendment id))) is confirmed on chain, then
// `applied` (the reward grows) or `rejected` (the slot is refunded).

/** The escrow slot of a base-rail top-up: the key to fund and the terms its deposit must meet. */
export interface AmendmentEscrow {
  chain_id: number;
  contract: string;
  token: string;
  mission_key: string; // keccak256(bytes(amendment id))
  refund_after: number; // unix seconds the deposit's refund-after must reach
  deposit_id: string | null;
  tx_hash: string | null;
}

export const missionAmendments = pgTable(
  "mission_amendments",
  {
    id: text("id").primaryKey(), // amd_<ulid>
    missionId: text("mission_id").notNull(),
    seq: integer("seq").notNull(), // 1, 2, … per mission
    kind: text("kind", { enum: ["extend_deadline", "top_up", "edit"] }).notNull(),
    actor: text("actor").notNull(), // lowercase address
    status: text("status", { enum: ["applied", "pending", "rejected"] }).notNull(),
    rail: text("rail", { enum: ["ledger", "base"] }).notNull(),
    // What changed: { field: { from, to } } (deadline, reward, title, description, tags).
    changes: jsonb("changes").notNull().$type<Record<string, { from: unknown; to: unknown }>>(),
    amount: money("amount"), // top_up only
    escrowKey: text("escrow_key"), // base top_up only
    escrow: jsonb("escrow").$type<AmendmentEscrow>(),
    reason: text("reason"), // why a top-up was rejected
    createdAt: ts("created_at").notNull(),
    appliedAt: ts("applied_at"),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("mission_amendments_seq_uq").on(t.missionId, t.seq),
    uniqueIndex("mission_amendments_escrow_key_uq").on(t.escrowKey).where(isSet(t.escrowKey)),
    index("mission_amendments_mission_status_idx").on(t.missionId, t.status),
    // The expiry job's queue: pending base-rail top-ups, oldest first (docs/amendments.md "Slots").
    index("mission_amendments_pending_idx").on(t.createdAt).where(equals(t.status, "pending")),
    check("mission_amendments_kind_ck", sql`${t.kind} in ('extend_deadline', 'top_up', 'edit')`),
    check("mission_amendments_status_ck", sql`${t.status} in ('applied', 'pending', 'rejected')`),
    check("mission_amendments_rail_ck", sql`${t.rail} in ('ledger', 'base')`),
    check(
      "mission_amendments_amount_ck",
      sql`(${t.kind} = 'top_up') = (${t.amount} is not null) and (${t.amount} is null or ${t.amount} > 0)`,
    ),
  ],
);
