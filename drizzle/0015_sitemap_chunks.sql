CREATE TABLE "sitemap_chunks" (
	"k" integer PRIMARY KEY NOT NULL,
	"start_id" text NOT NULL
);
