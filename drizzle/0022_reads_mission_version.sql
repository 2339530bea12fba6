ALTER TABLE "missions" ADD COLUMN "row_version" bigserial NOT NULL;--> statement-breakpoint
--: every update of a mission row takes a new version from the column's sequence, whatever
-- the statement sets — so a document cached under (id, row_version) can never outlive the content it
-- was built from, on any instance. nextval is never rolled back: versions are unique for all time.
CREATE OR REPLACE FUNCTION oabp_missions_row_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.row_version := nextval('missions_row_version_seq');
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER missions_row_version
BEFORE UPDATE ON missions
FOR EACH ROW EXECUTE FUNCTION oabp_missions_row_version();
