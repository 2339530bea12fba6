CREATE TABLE "read_epochs" (
	"name" text PRIMARY KEY NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Exact list caches across instances (docs/decisions.md "Exact list caches across instances"):
-- every transaction that changes a mission or a creator record (both shown by mission lists and
-- feeds) bumps the 'missions' epoch once, at commit (deferred), so the row is locked only for
-- the commit itself. A reader that sees the epoch unchanged since a cached list was filled knows
-- no such commit happened in between.
INSERT INTO "read_epochs" ("name", "epoch") VALUES ('missions', 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION oabp_missions_epoch_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Once per transaction, however many rows it changed.
  IF current_setting('oabp.missions_epoch_xact', true) IS DISTINCT FROM pg_current_xact_id()::text THEN
    PERFORM set_config('oabp.missions_epoch_xact', pg_current_xact_id()::text, true);
    UPDATE read_epochs SET epoch = epoch + 1 WHERE name = 'missions';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER missions_epoch AFTER INSERT OR UPDATE OR DELETE ON missions
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION oabp_missions_epoch_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER agent_records_epoch AFTER INSERT OR UPDATE OR DELETE ON agent_records
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION oabp_missions_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER missions_epoch_truncate AFTER TRUNCATE ON missions
FOR EACH STATEMENT EXECUTE FUNCTION oabp_missions_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER agent_records_epoch_truncate AFTER TRUNCATE ON agent_records
FOR EACH STATEMENT EXECUTE FUNCTION oabp_missions_epoch_bump();
