import { index, integer, jsonb, pgTable, primaryKey, real, text } from "drizzle-orm/pg-core";
import { ts, equals } from "./types";
import { DISPUTE_OUTCOMES, DISPUTE_STATUSES, DISPUTE_TYPES } from "../vocabulary";

// AIP-3 §4: reputation imported from other OABP servers, one row per (subject, issuer); a newer
// attestation from the same issuer replaces the older. Kept apart from the local rating (which it
// never changes): profiles and discovery show it beside the local ELO.
export const reputationImports = pgTable(
  "reputation_imports",
  {
    subject: text("subject").notNull(), // lowercase 0x address
    issuer: text("issuer").notNull(), // issuer.oabp_server, normalised (no trailing slash)
    serverAddress: text("server_address").notNull(), // the issuer key that signed
    attestedElo: integer("attested_elo").notNull(),
    trustFactor: real("trust_factor").notNull(),
    freshnessFactor: real("freshness_factor").notNull(),
    initialElo: integer("initial_elo").notNull(), // §3 formula for this attestation alone
    issuedAt: ts("issued_at").notNull(),
    validUntil: ts("valid_until").notNull(), // the attestation's expires_at
    // §4 step 4: local missions completed at import; the import lapses 3 completions later.
    missionsBaseline: integer("missions_baseline").notNull(),
    attestation: jsonb("attestation").$type<Record<string, unknown>>().notNull(),
    importedAt: ts("imported_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.subject, t.issuer] })],
);

// AIP-4 §2: disputes. Public records; the filer bucket (address, or anon:<ip>) keys the §6.1 limits.
export const disputes = pgTable(
  "disputes",
  {
    id: text("id").primaryKey(), // UUIDv7 (AIP-4 §2.3); rows filed before: the UUID of their dsp_<ulid>
    disputeType: text("dispute_type", { enum: DISPUTE_TYPES }).notNull(),
    missionId: text("mission_id").notNull(),
    submissionId: text("submission_id"),
    otherSubmissionId: text("other_submission_id"), // dup_claim: the competing submission
    filedBy: text("filed_by").notNull(), // lowercase address or "anonymous"
    filerBucket: text("filer_bucket").notNull(),
    oracleUrl: text("oracle_url"), // oracle_disagreement: the §6.1 "per oracle URL" key
    evidence: jsonb("evidence").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: DISPUTE_STATUSES }).notNull(),
    outcome: text("outcome", { enum: DISPUTE_OUTCOMES }),
    rationale: text("rationale"),
    resolutionActor: text("resolution_actor"), // server | oracle | peer_vote | creator
    correctiveAction: jsonb("corrective_action").$type<Record<string, unknown>>(),
    filedAt: ts("filed_at").notNull(),
    resolutionDeadline: ts("resolution_deadline").notNull(),
    resolvedAt: ts("resolved_at"),
  },
  (t) => [
    index("disputes_mission_idx").on(t.missionId, t.id),
    index("disputes_status_idx").on(t.status, t.id),
    index("disputes_filer_idx").on(t.filerBucket, t.disputeType, t.filedAt),
    index("disputes_open_deadline_idx").on(t.resolutionDeadline).where(equals(t.status, "open")),
  ],
);
