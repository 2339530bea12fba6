import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./types";

// AIP-1 §3 submission record.
export const submissions = pgTable("submissions", {
  id: text("id").primaryKey(), // sub_<ulid>
  missionId: text("mission_id").notNull(),
  submitter: text("submitter").notNull(),
  contentUri: text("content_uri").notNull(),
  contentHash: text("content_hash").notNull(), // always sha256:<hex>
  metadata: jsonb("metadata").$type<Record<string, unknown>>(),
  status: text("status").notNull(), // pending | accepted | rejected
  reason: text("reason").notNull(),
  submittedAt: ts("submitted_at").notNull(),
  updatedAt: ts("updated_at").notNull(),
}, (t) => [
  index("submissions_mission_id_idx").on(t.missionId, t.id),
  index("submissions_submitter_idx").on(t.submitter, t.id),
]);
