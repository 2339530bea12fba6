import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./types";

// AIP-1 §1 profile metadata. A row exists once an address signs in, writes a profile or is
// credited; reads of unknown addresses answer the defaults.
export const agents = pgTable("agents", {
  id: text("id").primaryKey(), // lowercase 0x address
  displayName: text("display_name"),
  kind: text("kind"), // human | autonomous | hybrid
  mcpEndpoint: text("mcp_endpoint"),
  capabilities: text("capabilities").array().notNull().default([]),
  metadataUri: text("metadata_uri"),
  rating: integer("rating").notNull().default(1400),
  ratingUpdatedAt: ts("rating_updated_at"),
  // Decay (AIP-1 §5): the clock starts at the last activity (submit, vote, create, commit);
  // decay_weeks_applied counts the weekly decay steps already written to the history since.
  lastActiveAt: ts("last_active_at"),
  decayWeeksApplied: integer("decay_weeks_applied").notNull().default(0),
  missionsAttempted: integer("missions_attempted").notNull().default(0),
  missionsCompleted: integer("missions_completed").notNull().default(0),
  createdAt: ts("created_at").notNull(),
  updatedAt: ts("updated_at").notNull(),
  lastSeenAt: ts("last_seen_at"),
}, (t) => [
  // Leaderboard: rating order, ties by address.
  index("agents_rating_idx").on(t.rating, t.id),
]);
