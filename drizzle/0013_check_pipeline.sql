ALTER TABLE "submissions" ADD COLUMN "check_host" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "check_claimed_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "submissions_check_claimed_idx" ON "submissions" USING btree ("check_claimed_until") WHERE "submissions"."check_claimed_until" is not null;--> statement-breakpoint
-- Submissions already waiting for a check get their host (a data: deliverable with a predicate keeps null: one shared bucket).
UPDATE "submissions" SET "check_host" = lower(substring("content_uri" from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?(\[[^]]*\]|[^/:?#]*)')) WHERE "next_check_at" IS NOT NULL AND "content_uri" NOT LIKE 'data:%';
