ALTER TABLE "webhook_subscriptions" ADD COLUMN "a2a_task_id" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "a2a_token" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "a2a_auth" jsonb;--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_a2a_task_idx" ON "webhook_subscriptions" USING btree ("a2a_task_id") WHERE "webhook_subscriptions"."a2a_task_id" is not null;