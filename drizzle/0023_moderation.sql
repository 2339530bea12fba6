CREATE TABLE "mission_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" text NOT NULL,
	"reporter" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution_note" text,
	CONSTRAINT "mission_reports_reason_ck" CHECK ("mission_reports"."reason" in ('spam', 'scam', 'illegal', 'abusive', 'misleading', 'other')),
	CONSTRAINT "mission_reports_status_ck" CHECK ("mission_reports"."status" in ('open', 'resolved', 'dismissed'))
);
--> statement-breakpoint
CREATE TABLE "operator_audit" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_audit_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "operator_audit_action_ck" CHECK ("operator_audit"."action" in ('mission.hide', 'mission.unhide', 'agent.suspend', 'agent.unsuspend', 'report.resolve', 'report.dismiss', 'posting_allowlist.add', 'posting_allowlist.remove', 'ledger.credit', 'payout.retry', 'payout.fail', 'payout.convert'))
);
--> statement-breakpoint
CREATE TABLE "posting_allowlist" (
	"address" text PRIMARY KEY NOT NULL,
	"note" text,
	"added_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "suspensions" (
	"address" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"suspended_at" timestamp with time zone NOT NULL,
	"until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "mission_reports_open_uq" ON "mission_reports" USING btree ("mission_id","reporter") WHERE "mission_reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "mission_reports_status_id_idx" ON "mission_reports" USING btree ("status","id");--> statement-breakpoint
-- The operator audit log is append-only (docs/moderation.md "Audit log"): rows are added, never
-- changed or removed, whoever connects.
CREATE FUNCTION operator_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_audit is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER operator_audit_no_update_delete BEFORE UPDATE OR DELETE ON "operator_audit"
  FOR EACH ROW EXECUTE FUNCTION operator_audit_append_only();--> statement-breakpoint
CREATE TRIGGER operator_audit_no_truncate BEFORE TRUNCATE ON "operator_audit"
  FOR EACH STATEMENT EXECUTE FUNCTION operator_audit_append_only();
