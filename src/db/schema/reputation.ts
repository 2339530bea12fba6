import { bigserial, boolean, customType, index, integer, pgTable, primaryKey, real, text } from "drizzle-orm/pg-core";
import { ts } from "./types";

// AIP-1 §5 history: every rating change, so Σ delta = rating − 1400 for every agent.
export const ratingHistory = pgTable(
  "rating_history",
  {
    id: text("id").primaryKey(), // rtg_<ulid>: time-ordered, the pagination key
    agentId: text("agent_id").notNull(),
    missionId: text("mission_id"), // null for decay
    kind: text("kind").notNull(), // win | partial | loss | decay | dispute_rejected (AIP-4 §6.3) | dispute_upheld (§7.4)
    outcome: real("outcome"), // 1 | 0.5 | 0 (null for decay)
    expected: real("expected"),
    k: integer("k"),
    opponentRating: real("opponent_rating"),
    before: integer("before").notNull(),
    after: integer("after").notNull(),
    delta: integer("delta").notNull(),
    at: ts("at").notNull(),
  },
  (t) => [index("rating_history_agent_idx").on(t.agentId, t.id), index("rating_history_mission_idx").on(t.missionId)],
);

/** A transaction id as Postgres reports it (`pg_current_xact_id()`), carried as a decimal string. */
const xid8 = customType<{ data: string }>({ dataType: () => "xid8" });

// Snapshot cursors of /leaderboard and /agents: the state of an agent's
// ranking columns BEFORE each change, with the id of the transaction that changed them, written by
// the agents_rating_versions trigger (so every writer is covered). A page asked for with a cursor
// reads, for agents changed by a transaction its snapshot does not see, the state that snapshot
// saw. Rows are purged once no live cursor can need them (2 × the cursor lifetime).
export const agentRatingVersions = pgTable(
  "agent_rating_versions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(), // per agent, the order of its changes (row lock)
    agentId: text("agent_id").notNull(),
    xid: xid8("xid").notNull(),
    changedAt: ts("changed_at").notNull(),
    existed: boolean("existed").notNull(), // false: this change created the row
    rating: integer("rating"),
    lastActiveAt: ts("last_active_at"),
    decayWeeksApplied: integer("decay_weeks_applied"),
    missionsAttempted: integer("missions_attempted"),
    missionsCompleted: integer("missions_completed"),
    decayDueAt: ts("decay_due_at"),
  },
  (t) => [
    index("agent_rating_versions_xid_idx").on(t.xid),
    index("agent_rating_versions_agent_idx").on(t.agentId, t.xid),
    index("agent_rating_versions_changed_idx").on(t.changedAt),
  ],
);

// AIP-3 App. B / AIP-2: per-mission-type reputation (`mission_type_affinity` on the agent record,
// `types_active` in attestations). One row per (agent, AIP-2 type) the agent was rated in; written
// by applyResolution in the resolution's transaction, beside the global rating, under the same
// agent row lock (docs/aip-3-4.md "Per-type reputation").
export const agentTypeAffinity = pgTable(
  "agent_type_affinity",
  {
    agentId: text("agent_id").notNull(),
    missionType: text("mission_type").notNull(),
    elo: integer("elo").notNull().default(1400),
    completions: integer("completions").notNull().default(0), // missions of this type paid to the agent
    attempts: integer("attempts").notNull().default(0), // rated missions of this type
    lastActive: ts("last_active").notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.missionType] })],
);
