CREATE TABLE "mission_tags" (
	"tag" text NOT NULL,
	"mission_id" text NOT NULL,
	CONSTRAINT "mission_tags_tag_mission_id_pk" PRIMARY KEY("tag","mission_id")
);
--> statement-breakpoint
CREATE TABLE "review_stats" (
	"reviewee" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"stars_sum" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mission_tags_mission_idx" ON "mission_tags" USING btree ("mission_id");--> statement-breakpoint
CREATE INDEX "missions_amount_id_idx" ON "missions" USING btree ("reward_amount","id");--> statement-breakpoint
CREATE INDEX "missions_deadline_id_idx" ON "missions" USING btree ("deadline","id");--> statement-breakpoint
INSERT INTO "mission_tags" ("tag", "mission_id") SELECT DISTINCT t, m.id FROM "missions" m, unnest(m.tags) t ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "oabp_mission_tags"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM mission_tags WHERE mission_id = OLD.id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO mission_tags (tag, mission_id) SELECT DISTINCT t, NEW.id FROM unnest(NEW.tags) t ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "missions_tags_insert" AFTER INSERT OR DELETE ON "missions" FOR EACH ROW EXECUTE FUNCTION "oabp_mission_tags"();--> statement-breakpoint
CREATE TRIGGER "missions_tags_update" AFTER UPDATE OF "tags" ON "missions" FOR EACH ROW WHEN (OLD.tags IS DISTINCT FROM NEW.tags) EXECUTE FUNCTION "oabp_mission_tags"();--> statement-breakpoint
INSERT INTO "review_stats" ("reviewee", "count", "stars_sum") SELECT reviewee, count(*), sum(stars) FROM "reviews" GROUP BY reviewee;--> statement-breakpoint
CREATE FUNCTION "oabp_review_stats"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE review_stats SET count = count - 1, stars_sum = stars_sum - OLD.stars WHERE reviewee = OLD.reviewee;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO review_stats (reviewee, count, stars_sum) VALUES (NEW.reviewee, 1, NEW.stars)
    ON CONFLICT (reviewee) DO UPDATE SET count = review_stats.count + 1, stars_sum = review_stats.stars_sum + EXCLUDED.stars_sum;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "reviews_stats" AFTER INSERT OR DELETE OR UPDATE OF "stars", "reviewee" ON "reviews" FOR EACH ROW EXECUTE FUNCTION "oabp_review_stats"();
