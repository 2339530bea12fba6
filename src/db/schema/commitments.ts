import { pgTable, text, integer, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./types";

// Commit-reveal for first_valid_match (AIP-1 Security Considerations, front-running): a
// commitment hides the deliverable until the deadline; its seq is the arrival order that the
// revealed submission inherits.
export const commitments = pgTable(
  "commitments",
  {
    id: text("id").primaryKey(), // cmt_<ulid>
    missionId: text("mission_id").notNull(),
    committer: text("committer").notNull(),
    commitment: text("commitment").notNull(), // sha256:<hex> of "<content hash hex>:<committer>:<salt>"
    seq: integer("seq").notNull(),
    submissionId: text("submission_id"), // set when revealed
    createdAt: ts("created_at").notNull(),
    revealedAt: ts("revealed_at"),
  },
  (t) => [
    uniqueIndex("commitments_mission_seq_uq").on(t.missionId, t.seq),
    uniqueIndex("commitments_mission_commitment_uq").on(t.missionId, t.commitment),
  ],
);
