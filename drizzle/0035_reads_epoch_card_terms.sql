CREATE TABLE "read_epochs" (
	"name" text PRIMARY KEY NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Exact list caches across instances (docs/decisions/storage.md "Exact list caches across instances"):
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
--> statement-breakpoint
CREATE TABLE "adp_card_terms" (
	"term" text NOT NULL,
	"agent_id" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "adp_card_terms_term_agent_id_pk" PRIMARY KEY("term","agent_id")
);
--> statement-breakpoint
CREATE INDEX "adp_card_terms_order_idx" ON "adp_card_terms" USING btree ("term","updated_at" DESC NULLS LAST,"agent_id");--> statement-breakpoint
CREATE INDEX "adp_card_terms_agent_idx" ON "adp_card_terms" USING btree ("agent_id");--> statement-breakpoint
-- One row per (term, card) of every card not revoked: `p:<skill path>`, `w:<word>`, with the
-- card's updated_at (discovery's candidate order). Kept here, whoever writes adp_cards.
CREATE OR REPLACE FUNCTION oabp_adp_card_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM adp_card_terms WHERE agent_id = OLD.agent_id;
  END IF;
  IF TG_OP <> 'DELETE' AND NOT NEW.revoked THEN
    INSERT INTO adp_card_terms (term, agent_id, updated_at)
    SELECT t, NEW.agent_id, NEW.updated_at
    FROM (SELECT 'p:' || x AS t FROM unnest(NEW.skill_paths) x
          UNION SELECT 'w:' || x FROM unnest(NEW.words) x) s;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER adp_cards_terms AFTER INSERT OR UPDATE OR DELETE ON adp_cards
FOR EACH ROW EXECUTE FUNCTION oabp_adp_card_terms();
--> statement-breakpoint
INSERT INTO adp_card_terms (term, agent_id, updated_at)
SELECT DISTINCT t, agent_id, updated_at
FROM (SELECT 'p:' || x AS t, c.agent_id, c.updated_at FROM adp_cards c, unnest(c.skill_paths) x WHERE NOT c.revoked
      UNION SELECT 'w:' || x, c.agent_id, c.updated_at FROM adp_cards c, unnest(c.words) x WHERE NOT c.revoked) s;
