import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { money, ts } from "./types";

// AIP-1 §4.3 peer votes: a stake of the mission's vote_token on one submission, held in the
// ledger account votes:<mission_id> until the tally.
export const votes = pgTable(
  "votes",
  {
    id: text("id").primaryKey(), // vote_<ulid>
    missionId: text("mission_id").notNull(),
    submissionId: text("submission_id").notNull(),
    voter: text("voter").notNull(),
    asset: text("asset").notNull(),
    amount: money("amount").notNull(),
    // After the tally: won | lost | refunded, and what went back to the voter (stake ± slash/reward).
    outcome: text("outcome"),
    payout: money("payout"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("votes_mission_voter_uq").on(t.missionId, t.voter), // one vote per voter per mission
    index("votes_submission_idx").on(t.submissionId),
  ],
);
