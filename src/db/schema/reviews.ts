import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./types";

// ClawFinder reviews between the two sides of a resolved mission (docs/design.md "Discovery (§7–§9) and neighbours"):
// the creator reviews each winner, each winner reviews the creator.
export const reviews = pgTable(
  "reviews",
  {
    id: text("id").primaryKey(), // rev_<ulid>: time-ordered, the pagination key
    missionId: text("mission_id").notNull(),
    reviewer: text("reviewer").notNull(), // lowercase 0x address, the author
    reviewee: text("reviewee").notNull(), // lowercase 0x address, the subject
    reviewerRole: text("reviewer_role").notNull(), // creator | winner
    stars: integer("stars").notNull(),
    text: text("text"),
    ...timestamps(),
  },
  (t) => [
    // Once per (mission, author, subject): the index decides concurrent duplicates.
    uniqueIndex("reviews_mission_reviewer_reviewee_uq").on(t.missionId, t.reviewer, t.reviewee),
    // GET /agents/{id}/reviews and the summary: newest first per subject.
    index("reviews_reviewee_id_idx").on(t.reviewee, t.id),
    check("reviews_stars_ck", sql`${t.stars} between 1 and 5`),
    check("reviews_not_self_ck", sql`${t.reviewer} <> ${t.reviewee}`),
    check("reviews_text_len_ck", sql`char_length(${t.text}) <= 2000`),
  ],
);

// Counters per reviewee, kept by the reviews_stats trigger on every insert, star change and delete
// (whoever writes), so a profile or a discovery ranking reads one row instead of aggregating
// every review an agent ever received.
export const reviewStats = pgTable("review_stats", {
  reviewee: text("reviewee").primaryKey(),
  count: integer("count").notNull(),
  starsSum: integer("stars_sum").notNull(),
});
