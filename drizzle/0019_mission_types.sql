ALTER TABLE "missions" ADD COLUMN "mission_type" text DEFAULT 'freeform' NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "type_params" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "min_submitter_elo" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "missions_mission_type_id_idx" ON "missions" USING btree ("mission_type","id");