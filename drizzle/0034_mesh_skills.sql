CREATE TABLE "mesh_agents" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"endpoint" text,
	"api_key_hash" text,
	"registered_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mesh_skill_tags" (
	"tag" text NOT NULL,
	"skill_id" text NOT NULL,
	CONSTRAINT "mesh_skill_tags_tag_skill_id_pk" PRIMARY KEY("tag","skill_id")
);
--> statement-breakpoint
CREATE TABLE "mesh_skills" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"endpoint" text,
	"version" text,
	"input_schema" jsonb,
	"output_schema" jsonb,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"rate_max_calls" integer,
	"rate_period_ms" integer,
	"schema_bytes" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "skill_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "mesh_agents_api_key_uq" ON "mesh_agents" USING btree ("api_key_hash");--> statement-breakpoint
CREATE INDEX "mesh_skill_tags_skill_idx" ON "mesh_skill_tags" USING btree ("skill_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mesh_skills_agent_name_uq" ON "mesh_skills" USING btree ("agent_id","name");--> statement-breakpoint
CREATE INDEX "mesh_skills_name_id_idx" ON "mesh_skills" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "mesh_skills_agent_id_idx" ON "mesh_skills" USING btree ("agent_id","id");