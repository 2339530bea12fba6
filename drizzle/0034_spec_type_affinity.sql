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
