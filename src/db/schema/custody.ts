import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./types";

// Custody alerts (docs/custody.md): an on-chain movement or proposal of an escrow slot that no
// decision of this server explains — a release to someone else, a refund of an awarded slot, a
// proposal of another plan — or a payout row whose plan its signed decision does not cover. One
// row per finding (dedupe_key unique), open until resolved; GET /transparency lists the open ones
// and is not reconciled while any is open.
export const custodyAlerts = pgTable(
  "custody_alerts",
  {
    id: text("id").primaryKey(), // alrt_<ulid>
    // kind:contract:key:funder:tx-or-payout — the same finding, seen by two processes, is one row.
    dedupeKey: text("dedupe_key").notNull(),
    kind: text("kind", {
      enum: ["foreign_proposal", "foreign_release", "resolver_refund", "decision_refused"],
    }).notNull(),
    chainId: integer("chain_id").notNull(),
    contract: text("contract").notNull(),
    missionId: text("mission_id"),
    missionKey: text("mission_key").notNull(),
    funder: text("funder").notNull(),
    payoutId: text("payout_id"),
    txHash: text("tx_hash"),
    blockNumber: bigint("block_number", { mode: "number" }),
    // What happened, in wire form (recipients, amounts, fee, token, proposal hash, reason).
    detail: jsonb("detail").notNull().$type<Record<string, unknown>>(),
    createdAt: ts("created_at").notNull(),
    resolvedAt: ts("resolved_at"),
    resolution: text("resolution"),
  },
  (t) => [
    uniqueIndex("custody_alerts_dedupe_uq").on(t.dedupeKey),
    index("custody_alerts_slot_idx").on(t.missionKey, t.funder),
    index("custody_alerts_mission_idx").on(t.missionId),
  ],
);
