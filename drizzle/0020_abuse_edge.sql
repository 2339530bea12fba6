CREATE TABLE "rate_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "in_flight_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "host" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "verify_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "next_verify_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mcp_sessions" ADD COLUMN "client_ip" text;--> statement-breakpoint
CREATE INDEX "rate_buckets_updated_idx" ON "rate_buckets" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_sub_due_idx" ON "webhook_deliveries" USING btree ("subscription_id","next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_in_flight_idx" ON "webhook_deliveries" USING btree ("in_flight_until") WHERE "webhook_deliveries"."in_flight_until" is not null;--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_verify_idx" ON "webhook_subscriptions" USING btree ("next_verify_at") WHERE "webhook_subscriptions"."status" = 'pending_verification';--> statement-breakpoint
CREATE INDEX "mcp_sessions_pending_ip_idx" ON "mcp_sessions" USING btree ("client_ip","expires_at") WHERE state = 'pending';--> statement-breakpoint
-- Subscriptions made before endpoint verification existed keep working (they were created by
-- their owners under the old rules); their host is read from the stored URL.
UPDATE "webhook_subscriptions" SET "host" = lower(substring("url" from '^[a-z]+://(\[[^]]+\]|[^/:?#]+)')), "verified_at" = "created_at";
