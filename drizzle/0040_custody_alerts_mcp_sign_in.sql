CREATE TABLE "custody_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"dedupe_key" text NOT NULL,
	"kind" text NOT NULL,
	"chain_id" integer NOT NULL,
	"contract" text NOT NULL,
	"mission_id" text,
	"mission_key" text NOT NULL,
	"funder" text NOT NULL,
	"payout_id" text,
	"tx_hash" text,
	"block_number" bigint,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text
);
--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD COLUMN "decision" jsonb;--> statement-breakpoint
ALTER TABLE "mcp_sessions" ADD COLUMN "auth_token_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "custody_alerts_dedupe_uq" ON "custody_alerts" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "custody_alerts_slot_idx" ON "custody_alerts" USING btree ("mission_key","funder");--> statement-breakpoint
CREATE INDEX "custody_alerts_mission_idx" ON "custody_alerts" USING btree ("mission_id");--> statement-breakpoint
CREATE INDEX "chain_payouts_slot_idx" ON "chain_payouts" USING btree ("mission_key","funder");