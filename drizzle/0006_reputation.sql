CREATE TABLE "rating_history" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"mission_id" text,
	"kind" text NOT NULL,
	"outcome" real,
	"expected" real,
	"k" integer,
	"opponent_rating" real,
	"before" integer NOT NULL,
	"after" integer NOT NULL,
	"delta" integer NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "rating_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "last_active_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "decay_weeks_applied" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "missions_attempted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "missions_completed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "rating_history_agent_idx" ON "rating_history" USING btree ("agent_id","id");--> statement-breakpoint
CREATE INDEX "rating_history_mission_idx" ON "rating_history" USING btree ("mission_id");--> statement-breakpoint
CREATE INDEX "agents_rating_idx" ON "agents" USING btree ("rating","id");