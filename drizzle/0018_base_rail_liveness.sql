CREATE TABLE "chain_workers" (
	"chain_id" integer NOT NULL,
	"name" text NOT NULL,
	"last_run_at" timestamp with time zone NOT NULL,
	"last_ok_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "chain_workers_chain_id_name_pk" PRIMARY KEY("chain_id","name")
);
--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD COLUMN "retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD COLUMN "admin_actions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "chain_payouts_confirmed_idx" ON "chain_payouts" USING btree ("block_number") WHERE "chain_payouts"."state" = 'confirmed';--> statement-breakpoint
CREATE INDEX "escrow_deposits_live_block_idx" ON "escrow_deposits" USING btree ("status","block_number") WHERE "escrow_deposits"."status" in ('pending', 'confirmed');