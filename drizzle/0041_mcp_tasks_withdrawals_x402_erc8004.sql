CREATE TABLE "mcp_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"tool" text NOT NULL,
	"mission_id" text NOT NULL,
	"submission_id" text,
	"status" text NOT NULL,
	"status_message" text,
	"result" text,
	"created_at" timestamp with time zone NOT NULL,
	"last_updated_at" timestamp with time zone NOT NULL,
	"ttl_ms" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"asset" text NOT NULL,
	"chain_id" integer NOT NULL,
	"token" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"nonce" integer,
	"tx_hash" text,
	"raw_tx" text,
	"block_number" bigint,
	"receipt" jsonb,
	"approved_at" timestamp with time zone,
	"broadcast_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"retries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "withdrawals_state_ck" CHECK ("withdrawals"."state" in ('awaiting_approval', 'queued', 'broadcast', 'confirmed', 'failed', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "x402_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"token" text NOT NULL,
	"payer" text NOT NULL,
	"nonce" text NOT NULL,
	"payment_id" text,
	"pay_to" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"valid_after" bigint NOT NULL,
	"valid_before" bigint NOT NULL,
	"signature" text NOT NULL,
	"agent_id" text NOT NULL,
	"purpose" text NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"transfer_id" text,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "x402_payments_status_ck" CHECK ("x402_payments"."status" in ('verified', 'credited', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "erc8004_feedback" (
	"mission_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"erc8004_agent_id" numeric(78, 0) NOT NULL,
	"chain_id" integer NOT NULL,
	"registry" text NOT NULL,
	"release_tx" text NOT NULL,
	"feedback_uri" text NOT NULL,
	"feedback_hash" text NOT NULL,
	"feedback_index" integer,
	"state" text NOT NULL,
	"reason" text,
	"nonce" integer,
	"tx_hash" text,
	"raw_tx" text,
	"block_number" bigint,
	"next_check_at" timestamp with time zone,
	"retries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "erc8004_feedback_mission_id_agent_id_pk" PRIMARY KEY("mission_id","agent_id"),
	CONSTRAINT "erc8004_feedback_state_ck" CHECK ("erc8004_feedback"."state" in ('queued', 'broadcast', 'confirmed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "erc8004_identities" (
	"chain_id" integer NOT NULL,
	"registry" text NOT NULL,
	"reporter" text NOT NULL,
	"agent_uri" text NOT NULL,
	"agent_id" numeric(78, 0),
	"state" text NOT NULL,
	"reason" text,
	"nonce" integer,
	"tx_hash" text,
	"raw_tx" text,
	"block_number" bigint,
	"next_check_at" timestamp with time zone,
	"retries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "erc8004_identities_chain_id_registry_pk" PRIMARY KEY("chain_id","registry"),
	CONSTRAINT "erc8004_identities_state_ck" CHECK ("erc8004_identities"."state" in ('queued', 'broadcast', 'confirmed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "erc8004_agent_id" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "erc8004_opted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "a2a_task_id" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "a2a_token" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "a2a_auth" jsonb;--> statement-breakpoint
CREATE INDEX "mcp_tasks_agent_idx" ON "mcp_tasks" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "mcp_tasks_expires_idx" ON "mcp_tasks" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "withdrawals_agent_idx" ON "withdrawals" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_due_idx" ON "withdrawals" USING btree ("next_check_at") WHERE "withdrawals"."next_check_at" is not null;--> statement-breakpoint
CREATE INDEX "withdrawals_period_idx" ON "withdrawals" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "x402_payments_authorization_uq" ON "x402_payments" USING btree ("chain_id","token","payer","nonce");--> statement-breakpoint
CREATE UNIQUE INDEX "x402_payments_payment_id_uq" ON "x402_payments" USING btree ("payer","payment_id");--> statement-breakpoint
CREATE INDEX "x402_payments_verified_idx" ON "x402_payments" USING btree ("updated_at") WHERE "x402_payments"."status" = 'verified';--> statement-breakpoint
CREATE INDEX "erc8004_feedback_agent_idx" ON "erc8004_feedback" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "erc8004_feedback_due_idx" ON "erc8004_feedback" USING btree ("next_check_at") WHERE "erc8004_feedback"."next_check_at" is not null;--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_a2a_task_idx" ON "webhook_subscriptions" USING btree ("a2a_task_id") WHERE "webhook_subscriptions"."a2a_task_id" is not null;