CREATE TABLE "agent_type_affinity" (
	"agent_id" text NOT NULL,
	"mission_type" text NOT NULL,
	"elo" integer DEFAULT 1400 NOT NULL,
	"completions" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_active" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_type_affinity_agent_id_mission_type_pk" PRIMARY KEY("agent_id","mission_type")
);
--> statement-breakpoint
-- Backfill (docs/aip-3-4.md "Per-type reputation"): each type's ELO starts from 1400 plus the
-- rating points the agent earned on missions of that type; completions are the paid ones.
INSERT INTO "agent_type_affinity" ("agent_id", "mission_type", "elo", "completions", "attempts", "last_active")
SELECT h."agent_id", m."mission_type", 1400 + sum(h."delta")::int,
  count(*) FILTER (WHERE EXISTS (
    SELECT 1 FROM "submissions" s
    WHERE s."mission_id" = m."id" AND s."submitter" = h."agent_id" AND s."payout_amount" > 0))::int,
  count(*)::int, max(h."at")
FROM "rating_history" h JOIN "missions" m ON m."id" = h."mission_id"
WHERE h."kind" IN ('win', 'partial', 'loss')
GROUP BY h."agent_id", m."mission_type"
ON CONFLICT DO NOTHING;

--> statement-breakpoint
-- AIP-4 §2.3: dispute ids are UUIDs. A dispute filed before (dsp_<ULID>) gets the UUID of the same
-- 128 bits (timestamp first, so the list order holds); the server still accepts the old dsp_ form
-- wherever it reads a dispute id (src/features/disputes/disputes.ids.ts, docs/decisions.md).
DO $$
DECLARE
  r record;
  bits bit varying;
  h text;
  i int;
BEGIN
  FOR r IN SELECT "id" FROM "disputes" WHERE "id" LIKE 'dsp\_%' LOOP
    bits := B'';
    FOR i IN 5..30 LOOP
      bits := bits || ((strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(r."id", i, 1)) - 1)::bit(5))::bit varying;
    END LOOP;
    bits := substring(bits FROM 3); -- 130 bits, the top two always zero
    h := '';
    FOR i IN 0..31 LOOP
      h := h || to_hex(substring(bits FROM i * 4 + 1 FOR 4)::bit(4)::int);
    END LOOP;
    UPDATE "disputes"
      SET "id" = substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' || substr(h, 21, 12)
      WHERE "id" = r."id";
  END LOOP;
END $$;

--> statement-breakpoint
CREATE INDEX "chain_payouts_pending_gas_idx" ON "chain_payouts" USING btree ("id") WHERE "chain_payouts"."state" = 'pending_gas';