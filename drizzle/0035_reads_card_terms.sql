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
