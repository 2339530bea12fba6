CREATE TABLE "commitments" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" text NOT NULL,
	"committer" text NOT NULL,
	"commitment" text NOT NULL,
	"seq" integer NOT NULL,
	"submission_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"revealed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "commitments_mission_seq_uq" ON "commitments" USING btree ("mission_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "commitments_mission_commitment_uq" ON "commitments" USING btree ("mission_id","commitment");