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
CREATE INDEX "erc8004_feedback_agent_idx" ON "erc8004_feedback" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "erc8004_feedback_due_idx" ON "erc8004_feedback" USING btree ("next_check_at") WHERE "erc8004_feedback"."next_check_at" is not null;