CREATE TABLE "reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" text NOT NULL,
	"reviewer" text NOT NULL,
	"reviewee" text NOT NULL,
	"reviewer_role" text NOT NULL,
	"stars" integer NOT NULL,
	"text" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reviews_stars_ck" CHECK ("reviews"."stars" between 1 and 5),
	CONSTRAINT "reviews_not_self_ck" CHECK ("reviews"."reviewer" <> "reviews"."reviewee"),
	CONSTRAINT "reviews_text_len_ck" CHECK (char_length("reviews"."text") <= 2000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_mission_reviewer_reviewee_uq" ON "reviews" USING btree ("mission_id","reviewer","reviewee");--> statement-breakpoint
CREATE INDEX "reviews_reviewee_id_idx" ON "reviews" USING btree ("reviewee","id");