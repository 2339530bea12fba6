CREATE TABLE "mission_amendments" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" text NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"status" text NOT NULL,
	"rail" text NOT NULL,
	"changes" jsonb NOT NULL,
	"amount" numeric(78, 0),
	"escrow_key" text,
	"escrow" jsonb,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"applied_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mission_amendments_kind_ck" CHECK ("mission_amendments"."kind" in ('extend_deadline', 'top_up', 'edit')),
	CONSTRAINT "mission_amendments_status_ck" CHECK ("mission_amendments"."status" in ('applied', 'pending', 'rejected')),
	CONSTRAINT "mission_amendments_rail_ck" CHECK ("mission_amendments"."rail" in ('ledger', 'base')),
	CONSTRAINT "mission_amendments_amount_ck" CHECK (("mission_amendments"."kind" = 'top_up') = ("mission_amendments"."amount" is not null) and ("mission_amendments"."amount" is null or "mission_amendments"."amount" > 0))
);
--> statement-breakpoint
DROP INDEX "chain_payouts_release_uq";--> statement-breakpoint
DROP INDEX "escrow_deposits_live_mission_uq";--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "amendments_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "escrow_deposits" ADD COLUMN "amendment_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "mission_amendments_seq_uq" ON "mission_amendments" USING btree ("mission_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "mission_amendments_escrow_key_uq" ON "mission_amendments" USING btree ("escrow_key") WHERE "mission_amendments"."escrow_key" is not null;--> statement-breakpoint
CREATE INDEX "mission_amendments_mission_status_idx" ON "mission_amendments" USING btree ("mission_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_deposits_live_amendment_uq" ON "escrow_deposits" USING btree ("amendment_id") WHERE "escrow_deposits"."status" in ('pending', 'confirmed', 'final') and "escrow_deposits"."amendment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_payouts_release_uq" ON "chain_payouts" USING btree ("mission_id","mission_key") WHERE "chain_payouts"."kind" = 'release';--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_deposits_live_mission_uq" ON "escrow_deposits" USING btree ("mission_id") WHERE "escrow_deposits"."status" in ('pending', 'confirmed', 'final') and "escrow_deposits"."amendment_id" is null;