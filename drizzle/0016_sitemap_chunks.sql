CREATE TABLE "sitemap_chunks" (
	"k" integer PRIMARY KEY NOT NULL,
	"start_id" text NOT NULL,
	"lastmod" timestamp with time zone
);
--> statement-breakpoint
-- A change to a mission in a CLOSED sitemap chunk raises that chunk's lastmod (the open chunk,
-- lastmod null, is read live). Only changes to old missions reach a closed chunk's row.
CREATE FUNCTION "oabp_sitemap_lastmod"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sitemap_chunks c SET lastmod = NEW.updated_at
  WHERE c.lastmod IS NOT NULL AND c.lastmod < NEW.updated_at
    AND c.k = (SELECT max(k) FROM sitemap_chunks WHERE start_id <= NEW.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "missions_sitemap_lastmod" AFTER UPDATE ON "missions" FOR EACH ROW
  WHEN (OLD.updated_at IS DISTINCT FROM NEW.updated_at) EXECUTE FUNCTION "oabp_sitemap_lastmod"();
