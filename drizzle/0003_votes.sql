CREATE TABLE "votes" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" text NOT NULL,
	"submission_id" text NOT NULL,
	"voter" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"outcome" text,
	"payout" numeric(78, 0),
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "votes_mission_voter_uq" ON "votes" USING btree ("mission_id","voter");--> statement-breakpoint
CREATE INDEX "votes_submission_idx" ON "votes" USING btree ("submission_id");