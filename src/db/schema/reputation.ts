import { index, integer, pgTable, real, text } from "drizzle-orm/pg-core";
import { ts } from "./types";

// AIP-1 §5 history: every rating change, so Σ delta = rating − 1400 for every agent.
export const ratingHistory = pgTable("rating_history", {
  id: text("id").primaryKey(), // rtg_<ulid>: time-ordered, the pagination key
  agentId: text("agent_id").notNull(),
  missionId: text("mission_id"), // null for decay
  kind: text("kind").notNull(), // win | partial | loss | decay
  outcome: real("outcome"), // 1 | 0.5 | 0 (null for decay)
  expected: real("expected"),
  k: integer("k"),
  opponentRating: real("opponent_rating"),
  before: integer("before").notNull(),
  after: integer("after").notNull(),
  delta: integer("delta").notNull(),
  at: ts("at").notNull(),
}, (t) => [
  index("rating_history_agent_idx").on(t.agentId, t.id),
  index("rating_history_mission_idx").on(t.missionId),
]);
