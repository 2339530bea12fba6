-- Commits without NOTIFY, and the missions epoch in slots (docs/decisions/storage.md "Commits without
-- NOTIFY"). A transaction that has queued a NOTIFY takes one database-wide lock at commit and
-- holds it until its commit record is flushed, so every notifying commit waited for the one
-- before it: the write path's commits were serial, fsync included. Likewise the one 'missions'
-- epoch row was locked by every mission-changing commit until it had been flushed.
DROP TRIGGER IF EXISTS missions_changed_notify ON missions;
--> statement-breakpoint
DROP FUNCTION IF EXISTS oabp_missions_changed();
--> statement-breakpoint
-- The outbox wakes the event hubs from the server after the commit (src/db/outbox.ts), in a
-- statement of its own that writes nothing, so that its commit waits for no flush.
DROP TRIGGER IF EXISTS webhook_events_inserted_notify ON webhook_events;
--> statement-breakpoint
DROP FUNCTION IF EXISTS oabp_events_inserted();
--> statement-breakpoint
-- A lost dispute changes its creator's record: the agent_records epoch trigger covers it.
CREATE OR REPLACE FUNCTION "oabp_dispute_record"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE c text;
BEGIN
  IF OLD.status = 'open' AND NEW.status <> 'open' AND NEW.dispute_type IN ('non_payment', 'bad_spec')
     AND (NEW.outcome = 'upheld' OR (NEW.outcome = 'expired' AND NEW.dispute_type = 'non_payment'))
     AND NEW.resolution_actor IS DISTINCT FROM 'peer_vote' THEN
    SELECT creator INTO c FROM missions WHERE id = NEW.mission_id;
    IF c IS NOT NULL THEN
      PERFORM oabp_record_add(c, 0, 0, 0, 0, 0, 1, NULL, 0, 0);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The missions epoch is the SUM of 64 slot rows 'missions/0' … 'missions/63' (and the old
-- 'missions' row): a transaction bumps one slot, chosen by its backend, so concurrent commits
-- rarely wait for each other. Each committed bump adds exactly one to the sum, so a reader's sum
-- is the number of such commits its snapshot sees: unchanged means none happened in between.
INSERT INTO read_epochs (name, epoch)
SELECT 'missions/' || i, 0 FROM generate_series(0, 63) i
ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION oabp_missions_epoch_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Once per transaction, however many rows it changed.
  IF current_setting('oabp.missions_epoch_xact', true) IS DISTINCT FROM pg_current_xact_id()::text THEN
    PERFORM set_config('oabp.missions_epoch_xact', pg_current_xact_id()::text, true);
    UPDATE read_epochs SET epoch = epoch + 1 WHERE name = 'missions/' || (pg_backend_pid() % 64);
  END IF;
  RETURN NULL;
END;
$$;
