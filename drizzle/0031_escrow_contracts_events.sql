CREATE TABLE "chain_events" (
	"chain_id" integer NOT NULL,
	"contract" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"name" text NOT NULL,
	"args" jsonb NOT NULL,
	"block_time" bigint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_events_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD COLUMN "escrow_address" text;--> statement-breakpoint
ALTER TABLE "escrow_deposits" ADD COLUMN "escrow_address" text;--> statement-breakpoint
ALTER TABLE "escrow_deposits" ADD COLUMN "exited_by" text;--> statement-breakpoint
ALTER TABLE "escrow_deposits" ADD COLUMN "exited_block" bigint;--> statement-breakpoint
CREATE INDEX "chain_events_contract_idx" ON "chain_events" USING btree ("chain_id","contract","block_number");--> statement-breakpoint
CREATE INDEX "chain_events_name_idx" ON "chain_events" USING btree ("name");--> statement-breakpoint
-- Backfill (docs/base-rail.md "Migrating to a new escrow"): a deposit's contract is its mission's escrow record's; a payout's, its deposit's.
UPDATE "escrow_deposits" d SET "escrow_address" = lower(m."escrow"->>'contract') FROM "missions" m WHERE m."id" = d."mission_id" AND d."escrow_address" IS NULL AND m."escrow"->>'contract' IS NOT NULL;--> statement-breakpoint
UPDATE "chain_payouts" p SET "escrow_address" = d."escrow_address" FROM "escrow_deposits" d WHERE d."id" = p."deposit_id" AND p."escrow_address" IS NULL;
