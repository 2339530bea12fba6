ALTER TABLE "missions" ADD COLUMN "next_action_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "judging_deadline" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "resolution_reason" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "fee_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "payouts" jsonb;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "payout_status_reason" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "payout_status_updated_at" timestamp with time zone;--> statement-breakpoint
UPDATE "missions" SET "next_action_at" = "deadline" WHERE "status" IN ('open', 'escrowed');--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "seq" integer;--> statement-breakpoint
-- Existing rows: arrival order = id order (ids are time-ordered); open missions get their deadline scheduled.
UPDATE "submissions" s SET "seq" = x.rn FROM (SELECT "id", row_number() OVER (PARTITION BY "mission_id" ORDER BY "id") AS rn FROM "submissions") x WHERE x."id" = s."id";--> statement-breakpoint
ALTER TABLE "submissions" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "check_result" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "check_reason" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "check_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "payout_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "missions_next_action_idx" ON "missions" USING btree ("next_action_at") WHERE "missions"."next_action_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_mission_seq_uq" ON "submissions" USING btree ("mission_id","seq");--> statement-breakpoint
CREATE INDEX "submissions_next_check_idx" ON "submissions" USING btree ("next_check_at") WHERE "submissions"."next_check_at" is not null;