ALTER TABLE "submissions" ADD COLUMN "check_host" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "check_claimed_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "submissions_check_claimed_idx" ON "submissions" USING btree ("check_claimed_until") WHERE "submissions"."check_claimed_until" is not null;--> statement-breakpoint
-- Submissions already waiting for a check get their bucket (jobs/check-queue.ts checkHostOf: the last two labels of the host).
UPDATE "submissions" SET "check_host" = coalesce(substring(h.host from '([^.]+\.[^.]+)$'), h.host)
FROM (SELECT "id", lower(substring("content_uri" from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^/:?#]*)')) AS host FROM "submissions" WHERE "next_check_at" IS NOT NULL AND "content_uri" NOT LIKE 'data:%') h
WHERE "submissions"."id" = h."id";
