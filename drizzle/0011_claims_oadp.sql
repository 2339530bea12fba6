CREATE TABLE "mission_claims" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"status" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"renewed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"exclusive_until" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "mission_claims_status_ck" CHECK ("mission_claims"."status" in ('active', 'released', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "oadp_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'unverified' NOT NULL,
	"hub_name" text,
	"verified_at" timestamp with time zone,
	"last_scan_at" timestamp with time zone,
	"last_error" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"next_scan_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "oadp_domains_status_ck" CHECK ("oadp_domains"."status" in ('unverified', 'verified', 'stale'))
);
--> statement-breakpoint
CREATE TABLE "oadp_hubs" (
	"url" text PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"signal_layer" text NOT NULL,
	"report_count" integer DEFAULT 1 NOT NULL,
	"first_reported_at" timestamp with time zone NOT NULL,
	"last_reported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "claim_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "max_claims" integer;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "exclusive_claim_ttl" integer;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "exclusive_holder" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "exclusive_until" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "mission_claims_mission_agent_uq" ON "mission_claims" USING btree ("mission_id","agent_id");--> statement-breakpoint
CREATE INDEX "mission_claims_mission_id_idx" ON "mission_claims" USING btree ("mission_id","id") WHERE "mission_claims"."status" = 'active';--> statement-breakpoint
CREATE INDEX "mission_claims_agent_idx" ON "mission_claims" USING btree ("agent_id") WHERE "mission_claims"."status" = 'active';--> statement-breakpoint
CREATE INDEX "mission_claims_expiry_idx" ON "mission_claims" USING btree ("expires_at") WHERE "mission_claims"."status" = 'active';--> statement-breakpoint
CREATE INDEX "oadp_domains_next_scan_idx" ON "oadp_domains" USING btree ("next_scan_at") WHERE "oadp_domains"."next_scan_at" is not null;--> statement-breakpoint
CREATE INDEX "oadp_hubs_domain_idx" ON "oadp_hubs" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "oadp_hubs_first_reported_idx" ON "oadp_hubs" USING btree ("first_reported_at","url");