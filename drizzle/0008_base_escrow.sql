CREATE TABLE "chain_accounts" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"next_nonce" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_accounts_chain_id_address_pk" PRIMARY KEY("chain_id","address")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"chain_id" integer NOT NULL,
	"name" text NOT NULL,
	"next_block" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_cursors_chain_id_name_pk" PRIMARY KEY("chain_id","name")
);
--> statement-breakpoint
CREATE TABLE "chain_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" text NOT NULL,
	"deposit_id" text NOT NULL,
	"kind" text NOT NULL,
	"chain_id" integer NOT NULL,
	"mission_key" text NOT NULL,
	"funder" text NOT NULL,
	"token" text NOT NULL,
	"asset" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"nonce" integer,
	"tx_hash" text,
	"raw_tx" text,
	"attempts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mined_tx_hash" text,
	"block_number" bigint,
	"block_hash" text,
	"broadcast_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"final_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_payouts_state_ck" CHECK ("chain_payouts"."state" in ('queued', 'pending_gas', 'broadcast', 'confirmed', 'final', 'failed')),
	CONSTRAINT "chain_payouts_kind_ck" CHECK ("chain_payouts"."kind" in ('release', 'refund'))
);
--> statement-breakpoint
CREATE TABLE "escrow_deposits" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"mission_id" text NOT NULL,
	"funder" text NOT NULL,
	"token" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"spam_fee" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"next_check_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "escrow_deposits_status_ck" CHECK ("escrow_deposits"."status" in ('pending', 'confirmed', 'final', 'reorged', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "escrow_key" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "escrow" jsonb;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "payout_tx_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_payouts_deposit_uq" ON "chain_payouts" USING btree ("deposit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chain_payouts_release_uq" ON "chain_payouts" USING btree ("mission_id") WHERE "chain_payouts"."kind" = 'release';--> statement-breakpoint
CREATE INDEX "chain_payouts_due_idx" ON "chain_payouts" USING btree ("next_check_at") WHERE "chain_payouts"."next_check_at" is not null;--> statement-breakpoint
CREATE INDEX "chain_payouts_mission_idx" ON "chain_payouts" USING btree ("mission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_deposits_log_uq" ON "escrow_deposits" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_deposits_live_mission_uq" ON "escrow_deposits" USING btree ("mission_id") WHERE "escrow_deposits"."status" in ('pending', 'confirmed', 'final');--> statement-breakpoint
CREATE INDEX "escrow_deposits_due_idx" ON "escrow_deposits" USING btree ("next_check_at") WHERE "escrow_deposits"."next_check_at" is not null;--> statement-breakpoint
CREATE INDEX "missions_escrow_key_idx" ON "missions" USING btree ("escrow_key") WHERE "missions"."escrow_key" is not null;