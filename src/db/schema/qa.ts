import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text } from "drizzle-orm/pg-core";
import { oneOf, ts, timestamps } from "./types";
import { QA_KINDS } from "../vocabulary";

// The public Q&A thread of a mission: agents ask, the creator
// answers and pins; the creator also posts clarifications (pinned by default). The mission row
// keeps the counts the mission document shows (missions.qa_count, qa_pinned_count), written under
// the mission row lock together with these rows.
export const missionQuestions = pgTable(
  "mission_questions",
  {
    id: text("id").primaryKey(), // qst_<ulid>: time-ordered, the pagination key (thread order)
    missionId: text("mission_id").notNull(),
    kind: text("kind", { enum: QA_KINDS }).notNull(),
    author: text("author").notNull(), // lowercase 0x address (the creator for a clarification)
    body: text("body").notNull(),
    answer: text("answer"),
    answeredAt: ts("answered_at"),
    pinned: boolean("pinned").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    // The thread, and the per-agent cap count under the mission lock.
    index("mission_questions_mission_id_idx").on(t.missionId, t.id),
    index("mission_questions_mission_author_idx").on(t.missionId, t.author),
    index("mission_questions_pinned_idx")
      .on(t.missionId, t.id)
      .where(sql`${t.pinned}`),
    check("mission_questions_kind_ck", oneOf(t.kind, QA_KINDS)),
    // The settings cap lengths lower (QA_MAX_CHARS); this is the hard ceiling.
    check("mission_questions_body_len_ck", sql`char_length(${t.body}) between 1 and 10000`),
    check("mission_questions_answer_len_ck", sql`char_length(${t.answer}) between 1 and 10000`),
    check("mission_questions_answered_ck", sql`(${t.answer} is null) = (${t.answeredAt} is null)`),
  ],
);
