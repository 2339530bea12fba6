ALTER TABLE "chain_payouts" ADD COLUMN "release_signature" text;--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD COLUMN "step" text;--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD COLUMN "proposal_tx_hash" text;--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD COLUMN "executable_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD CONSTRAINT "chain_payouts_step_ck" CHECK ("chain_payouts"."step" is null or "chain_payouts"."step" in ('propose', 'execute'));
-- Releases queued before contract v3 keep step null: their slots are held by the v2 contract they
-- were funded on, which pays them with its instant release (docs/base-rail.md "Migrating to a new escrow").
