-- Every committed change to missions notifies listeners (NOTIFY is delivered only on commit),
-- so each server instance can drop its cached mission lists. Statement-level: one notification
-- per statement, and Postgres folds identical notifications within one transaction.
CREATE OR REPLACE FUNCTION oabp_missions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('oabp_missions_changed', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER missions_changed_notify
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON missions
FOR EACH STATEMENT EXECUTE FUNCTION oabp_missions_changed();
