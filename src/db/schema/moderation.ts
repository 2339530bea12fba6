import { bigint, check, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { oneOf, ts, equals } from "./types";
import { AUDIT_ACTIONS, REPORT_REASONS, REPORT_STATUSES } from "../vocabulary";

// Moderation and operator control.

/**
 * A suspended address: no new missions, submissions, claims, commitments, votes or disputes
 * (src/db/suspension.ts assertNotSuspended); its existing money still settles. `until` null: until
 * lifted. Unsuspending deletes the row; the audit log keeps the history.
 */
export const suspensions = pgTable("suspensions", {
  address: text("address").primaryKey(),
  reason: text("reason").notNull(),
  suspendedAt: ts("suspended_at").notNull(),
  until: ts("until"),
});

/** The posting gate's allow-list (OABP_POSTING_GATE=allow_list), admin-managed. */
export const postingAllowlist = pgTable("posting_allowlist", {
  address: text("address").primaryKey(),
  note: text("note"),
  addedAt: ts("added_at").notNull(),
});

/** Reports on missions by signed-in agents: one open report per reporter per mission. */
export const missionReports = pgTable(
  "mission_reports",
  {
    id: text("id").primaryKey(), // rep_<ulid>, the admin queue's keyset cursor
    missionId: text("mission_id").notNull(),
    reporter: text("reporter").notNull(),
    reason: text("reason", { enum: REPORT_REASONS }).notNull(),
    note: text("note"),
    status: text("status", { enum: REPORT_STATUSES }).notNull(),
    createdAt: ts("created_at").notNull(),
    resolvedAt: ts("resolved_at"),
    resolutionNote: text("resolution_note"),
  },
  (t) => [
    uniqueIndex("mission_reports_open_uq").on(t.missionId, t.reporter).where(equals(t.status, "open")),
    index("mission_reports_status_id_idx").on(t.status, t.id),
    check("mission_reports_reason_ck", oneOf(t.reason, REPORT_REASONS)),
    check("mission_reports_status_ck", oneOf(t.status, REPORT_STATUSES)),
  ],
);

/**
 * The operator's append-only audit log: one row per operator action. A trigger refuses UPDATE,
 * DELETE and TRUNCATE (migration SQL), so rows are only ever added.
 */
export const operatorAudit = pgTable(
  "operator_audit",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: ts("at").notNull(),
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    target: text("target"),
    detail: jsonb("detail").notNull().default({}).$type<Record<string, unknown>>(),
  },
  (t) => [check("operator_audit_action_ck", oneOf(t.action, AUDIT_ACTIONS))],
);
