import { sql } from "drizzle-orm";
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { money, ts, timestamps, isSet } from "./types";

// AIP-1 §1 profile metadata. A row exists once an address signs in, writes a profile or is
// credited; reads of unknown addresses answer the defaults.
export const agents = pgTable(
  "agents",
  {
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
    // The instant the next decay step is owed (null: none ever, rating ≤ 1000 or never active).
    // Kept by the agents_decay_due trigger from the three columns above, whoever writes them, so
    // stored rating = visible rating for every row with decay_due_at null or in the future.
    decayDueAt: ts("decay_due_at"),
    missionsAttempted: integer("missions_attempted").notNull().default(0),
    missionsCompleted: integer("missions_completed").notNull().default(0),
    // ERC-8004 opt-in (docs/erc-8004.md): the agent's id in the identity registry; feedback backed
    // by payment is written for missions paid from erc8004_opted_at on. Null: not opted in.
    erc8004AgentId: money("erc8004_agent_id"),
    erc8004OptedAt: ts("erc8004_opted_at"),
    ...timestamps(),
    lastSeenAt: ts("last_seen_at"),
  },
  (t) => [
    // Leaderboard / directory: walked in (rating desc, id asc) order — the list order — and, for
    // the activity floor of /leaderboard (min_missions ≥ 1), a partial twin of the same order.
    index("agents_rating_order_idx").on(t.rating.desc(), t.id.asc()),
    index("agents_rating_order_won_idx")
      .on(t.rating.desc(), t.id.asc())
      .where(sql`${t.missionsCompleted} >= 1`),
    // The decay job and the lists find the rows whose stored rating is stale by this index only.
    index("agents_decay_due_idx").on(t.decayDueAt).where(isSet(t.decayDueAt)),
  ],
);
