CREATE TABLE "event_parties" (
	"agent" text NOT NULL,
	"seq" bigint NOT NULL,
	"event_id" text NOT NULL,
	CONSTRAINT "event_parties_agent_seq_pk" PRIMARY KEY("agent","seq")
);
--> statement-breakpoint
ALTER TABLE "event_parties" ADD CONSTRAINT "event_parties_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_parties_event_idx" ON "event_parties" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_events_mission_seq_idx" ON "webhook_events" USING btree ("mission_id","seq") WHERE "webhook_events"."seq" is not null;--> statement-breakpoint
INSERT INTO "event_parties" ("agent", "seq", "event_id")
SELECT DISTINCT lower(p.agent), w.seq, w.id FROM "webhook_events" w
CROSS JOIN LATERAL (
  SELECT w.creator AS agent
  UNION ALL SELECT w.data::jsonb ->> k FROM unnest(ARRAY['submitter', 'agent_id']) k WHERE jsonb_typeof(w.data::jsonb -> k) = 'string'
  UNION ALL SELECT x ->> 'agent_id' FROM jsonb_array_elements(
      CASE WHEN jsonb_typeof(w.data::jsonb -> 'winners') = 'array' THEN w.data::jsonb -> 'winners' ELSE '[]'::jsonb END) x
    WHERE jsonb_typeof(x -> 'agent_id') = 'string'
) p
WHERE w.seq IS NOT NULL AND p.agent IS NOT NULL
ON CONFLICT DO NOTHING;
