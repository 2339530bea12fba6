CREATE TABLE "disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"dispute_type" text NOT NULL,
	"mission_id" text NOT NULL,
	"submission_id" text,
	"other_submission_id" text,
	"filed_by" text NOT NULL,
	"filer_bucket" text NOT NULL,
	"oracle_url" text,
	"evidence" jsonb NOT NULL,
	"status" text NOT NULL,
	"outcome" text,
	"rationale" text,
	"resolution_actor" text,
	"corrective_action" jsonb,
	"filed_at" timestamp with time zone NOT NULL,
	"resolution_deadline" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reputation_imports" (
	"subject" text NOT NULL,
	"issuer" text NOT NULL,
	"server_address" text NOT NULL,
	"attested_elo" integer NOT NULL,
	"trust_factor" real NOT NULL,
	"freshness_factor" real NOT NULL,
	"initial_elo" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"missions_baseline" integer NOT NULL,
	"attestation" jsonb NOT NULL,
	"imported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reputation_imports_subject_issuer_pk" PRIMARY KEY("subject","issuer")
);
--> statement-breakpoint
CREATE INDEX "disputes_mission_idx" ON "disputes" USING btree ("mission_id","id");--> statement-breakpoint
CREATE INDEX "disputes_status_idx" ON "disputes" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "disputes_filer_idx" ON "disputes" USING btree ("filer_bucket","dispute_type","filed_at");--> statement-breakpoint
CREATE INDEX "disputes_open_deadline_idx" ON "disputes" USING btree ("resolution_deadline") WHERE "disputes"."status" = 'open';