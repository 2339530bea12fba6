CREATE SEQUENCE "public"."webhook_events_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "seq" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_seq_idx" ON "webhook_events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "webhook_events_unsequenced_idx" ON "webhook_events" USING btree ("id") WHERE "webhook_events"."seq" is null;--> statement-breakpoint
-- Live event streams (features/events): every committed insert into the outbox wakes each
-- instance's event hub (NOTIFY is delivered only on commit; statement-level, folded per
-- transaction).
CREATE OR REPLACE FUNCTION oabp_events_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('oabp_events', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER webhook_events_inserted_notify
AFTER INSERT ON webhook_events
FOR EACH STATEMENT EXECUTE FUNCTION oabp_events_inserted();
--> statement-breakpoint
-- Events already in the outbox (at most the 30-day retention) are numbered here, in id order, so
-- that a stream opened after the upgrade does not receive them as new.
UPDATE webhook_events w SET seq = n.s
FROM (SELECT x.id, nextval('webhook_events_seq') AS s FROM (SELECT id FROM webhook_events ORDER BY id) x) n
WHERE w.id = n.id;
