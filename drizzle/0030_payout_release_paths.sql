ALTER TABLE "chain_payouts" ADD COLUMN "release_signature" text;--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD COLUMN "step" text;--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD COLUMN "proposal_tx_hash" text;--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD COLUMN "executable_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_payouts" ADD CONSTRAINT "chain_payouts_step_ck" CHECK ("chain_payouts"."step" is null or "chain_payouts"."step" in ('propose', 'execute'));--> statement-breakpoint
-- Contract v3 has no instant release: releases queued and never signed take the delayed path.
UPDATE "chain_payouts" SET "step" = 'propose' WHERE "kind" = 'release' AND "state" IN ('queued', 'pending_gas', 'failed') AND "raw_tx" IS NULL;
