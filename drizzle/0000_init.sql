CREATE TABLE "agents" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text,
	"kind" text,
	"mcp_endpoint" text,
	"capabilities" text[] DEFAULT '{}' NOT NULL,
	"metadata_uri" text,
	"rating" integer DEFAULT 1400 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auth_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" text NOT NULL,
	"response" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registry_bindings" (
	"api_key_hash" text PRIMARY KEY NOT NULL,
	"registry_domain" text NOT NULL,
	"agent_id" text NOT NULL,
	"profile" text,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"account" text NOT NULL,
	"asset" text NOT NULL,
	"balance" numeric(78, 0) DEFAULT '0' NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"head_hash" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_accounts_account_asset_pk" PRIMARY KEY("account","asset"),
	CONSTRAINT "ledger_accounts_non_negative" CHECK ("ledger_accounts"."balance" >= 0 OR "ledger_accounts"."account" = 'external')
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"account" text NOT NULL,
	"asset" text NOT NULL,
	"seq" bigint NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"balance_after" numeric(78, 0) NOT NULL,
	"kind" text NOT NULL,
	"ref" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "missions" (
	"id" text PRIMARY KEY NOT NULL,
	"creator" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"reward_asset" text NOT NULL,
	"reward_amount" numeric(78, 0) NOT NULL,
	"reward_chain" text NOT NULL,
	"spam_fee" numeric(78, 0) NOT NULL,
	"verification_type" text NOT NULL,
	"verification_params" jsonb NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"phase" text NOT NULL,
	"payout_status" text DEFAULT 'not_applicable' NOT NULL,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"warnings" text[] DEFAULT '{}' NOT NULL,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"winner_submission_id" text,
	"winner_agent_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce(title, '') || ' ' || coalesce(description, ''))) STORED
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" text NOT NULL,
	"submitter" text NOT NULL,
	"content_uri" text NOT NULL,
	"content_hash" text NOT NULL,
	"metadata" jsonb,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "auth_nonces_expires_idx" ON "auth_nonces" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "auth_sessions_agent_idx" ON "auth_sessions" USING btree ("agent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_scope_key_uq" ON "idempotency_keys" USING btree ("scope","key");--> statement-breakpoint
CREATE INDEX "registry_bindings_agent_idx" ON "registry_bindings" USING btree ("agent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_account_seq_uq" ON "ledger_entries" USING btree ("account","asset","seq");--> statement-breakpoint
CREATE INDEX "ledger_entries_transfer_idx" ON "ledger_entries" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "missions_status_id_idx" ON "missions" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "missions_creator_id_idx" ON "missions" USING btree ("creator","id");--> statement-breakpoint
CREATE INDEX "missions_type_status_id_idx" ON "missions" USING btree ("verification_type","status","id");--> statement-breakpoint
CREATE INDEX "missions_asset_amount_idx" ON "missions" USING btree ("reward_asset","reward_amount");--> statement-breakpoint
CREATE INDEX "missions_deadline_idx" ON "missions" USING btree ("deadline");--> statement-breakpoint
CREATE INDEX "missions_tags_gin" ON "missions" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "missions_search_gin" ON "missions" USING gin ("search");--> statement-breakpoint
CREATE INDEX "submissions_mission_id_idx" ON "submissions" USING btree ("mission_id","id");--> statement-breakpoint
CREATE INDEX "submissions_submitter_idx" ON "submissions" USING btree ("submitter","id");