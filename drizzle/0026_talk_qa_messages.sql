CREATE TABLE "mission_questions" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" text NOT NULL,
	"kind" text NOT NULL,
	"author" text NOT NULL,
	"body" text NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"pinned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mission_questions_kind_ck" CHECK ("mission_questions"."kind" in ('question', 'clarification')),
	CONSTRAINT "mission_questions_body_len_ck" CHECK (char_length("mission_questions"."body") between 1 and 10000),
	CONSTRAINT "mission_questions_answer_len_ck" CHECK (char_length("mission_questions"."answer") between 1 and 10000),
	CONSTRAINT "mission_questions_answered_ck" CHECK (("mission_questions"."answer" is null) = ("mission_questions"."answered_at" is null))
);
--> statement-breakpoint
CREATE TABLE "submission_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" text NOT NULL,
	"submission_id" text NOT NULL,
	"sender" text NOT NULL,
	"recipient" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "submission_messages_not_self_ck" CHECK ("submission_messages"."sender" <> "submission_messages"."recipient"),
	CONSTRAINT "submission_messages_body_len_ck" CHECK (octet_length("submission_messages"."body") between 1 and 1048576)
);
--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "qa_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "qa_pinned_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "mission_questions_mission_id_idx" ON "mission_questions" USING btree ("mission_id","id");--> statement-breakpoint
CREATE INDEX "mission_questions_mission_author_idx" ON "mission_questions" USING btree ("mission_id","author");--> statement-breakpoint
CREATE INDEX "mission_questions_pinned_idx" ON "mission_questions" USING btree ("mission_id","id") WHERE "mission_questions"."pinned";--> statement-breakpoint
CREATE INDEX "submission_messages_recipient_idx" ON "submission_messages" USING btree ("recipient","id");--> statement-breakpoint
CREATE INDEX "submission_messages_sender_idx" ON "submission_messages" USING btree ("sender","id");--> statement-breakpoint
CREATE INDEX "submission_messages_submission_idx" ON "submission_messages" USING btree ("submission_id","id");--> statement-breakpoint
CREATE INDEX "submission_messages_unread_idx" ON "submission_messages" USING btree ("recipient","id") WHERE "submission_messages"."read_at" is null;