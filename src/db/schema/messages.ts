import { sql } from "drizzle-orm";
import { check, index, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./types";

// Private messages between a mission's creator and a submitter about one submission
// (features/messages; ClawFinder's mailbox: inbox, sent, read marks). The body is opaque
// (clients may encrypt it) and is never logged or put in an event.
export const submissionMessages = pgTable(
  "submission_messages",
  {
    id: text("id").primaryKey(), // msg_<ulid>: time-ordered, the pagination key
    missionId: text("mission_id").notNull(),
    submissionId: text("submission_id").notNull(),
    sender: text("sender").notNull(), // lowercase 0x address
    recipient: text("recipient").notNull(), // lowercase 0x address: the other party
    body: text("body").notNull(),
    createdAt: ts("created_at").notNull(),
    readAt: ts("read_at"), // set once by the recipient (POST /messages/{id}/read)
  },
  (t) => [
    index("submission_messages_recipient_idx").on(t.recipient, t.id), // GET /messages/inbox
    index("submission_messages_sender_idx").on(t.sender, t.id), // GET /messages/sent
    index("submission_messages_submission_idx").on(t.submissionId, t.id), // the thread; the cap
    index("submission_messages_unread_idx")
      .on(t.recipient, t.id)
      .where(sql`${t.readAt} is null`),
    check("submission_messages_not_self_ck", sql`${t.sender} <> ${t.recipient}`),
    // The setting caps bytes lower (MESSAGE_MAX_BYTES); this is the hard ceiling.
    check("submission_messages_body_len_ck", sql`octet_length(${t.body}) between 1 and 1048576`),
  ],
);
