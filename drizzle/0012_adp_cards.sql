CREATE TABLE "adp_cards" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"card_id" text NOT NULL,
	"name" text NOT NULL,
	"did" text,
	"seq" bigint,
	"signed" boolean NOT NULL,
	"card" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"skills" text[] DEFAULT '{}' NOT NULL,
	"skill_paths" text[] DEFAULT '{}' NOT NULL,
	"words" text[] DEFAULT '{}' NOT NULL,
	"max_concurrent_tasks" integer,
	"revoked" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "adp_server_card" (
	"id" text PRIMARY KEY NOT NULL,
	"content_hash" text NOT NULL,
	"seq" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "adp_cards_did_uq" ON "adp_cards" USING btree ("did") WHERE "adp_cards"."did" is not null;--> statement-breakpoint
CREATE INDEX "adp_cards_skill_paths_gin" ON "adp_cards" USING gin ("skill_paths");--> statement-breakpoint
CREATE INDEX "adp_cards_words_gin" ON "adp_cards" USING gin ("words");--> statement-breakpoint
CREATE INDEX "adp_cards_updated_idx" ON "adp_cards" USING btree ("updated_at","agent_id");