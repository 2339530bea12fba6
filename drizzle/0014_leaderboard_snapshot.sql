CREATE TABLE "agent_rating_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"xid" "xid8" NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"existed" boolean NOT NULL,
	"rating" integer,
	"last_active_at" timestamp with time zone,
	"decay_weeks_applied" integer,
	"missions_attempted" integer,
	"missions_completed" integer,
	"decay_due_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "agents_rating_idx";--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "decay_due_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "agent_rating_versions_xid_idx" ON "agent_rating_versions" USING btree ("xid");--> statement-breakpoint
CREATE INDEX "agent_rating_versions_agent_idx" ON "agent_rating_versions" USING btree ("agent_id","xid");--> statement-breakpoint
CREATE INDEX "agent_rating_versions_changed_idx" ON "agent_rating_versions" USING btree ("changed_at");--> statement-breakpoint
CREATE INDEX "agents_rating_order_idx" ON "agents" USING btree ("rating" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "agents_rating_order_won_idx" ON "agents" USING btree ("rating" DESC NULLS LAST,"id") WHERE "agents"."missions_completed" >= 1;--> statement-breakpoint
CREATE INDEX "agents_decay_due_idx" ON "agents" USING btree ("decay_due_at") WHERE "agents"."decay_due_at" is not null;--> statement-breakpoint
-- decay.ts in SQL: the next decay step is owed at last_active_at (ms) + 7-day grace + (applied + 1)
-- full weeks, and only while the rating is above the 1000 floor. Millisecond intervals only
-- (no day field), so the result does not depend on the session time zone.
CREATE FUNCTION "oabp_decay_due_at"(rating integer, last_active_at timestamptz, applied integer) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN rating > 1000 AND last_active_at IS NOT NULL
    THEN date_trunc('milliseconds', last_active_at) + ((604800000::bigint + (applied + 1)::bigint * 604800000) * interval '1 millisecond')
  END
$$;--> statement-breakpoint
UPDATE "agents" SET "decay_due_at" = "oabp_decay_due_at"("rating", "last_active_at", "decay_weeks_applied");--> statement-breakpoint
CREATE FUNCTION "oabp_agents_decay_due"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.decay_due_at := oabp_decay_due_at(NEW.rating, NEW.last_active_at, NEW.decay_weeks_applied);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "agents_decay_due" BEFORE INSERT OR UPDATE ON "agents" FOR EACH ROW EXECUTE FUNCTION "oabp_agents_decay_due"();--> statement-breakpoint
CREATE FUNCTION "oabp_agents_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO agent_rating_versions (agent_id, xid, changed_at, existed) VALUES (NEW.id, pg_current_xact_id(), now(), false);
  ELSE
    INSERT INTO agent_rating_versions (agent_id, xid, changed_at, existed, rating, last_active_at, decay_weeks_applied, missions_attempted, missions_completed, decay_due_at)
    VALUES (OLD.id, pg_current_xact_id(), now(), true, OLD.rating, OLD.last_active_at, OLD.decay_weeks_applied, OLD.missions_attempted, OLD.missions_completed, OLD.decay_due_at);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "agents_version_insert" AFTER INSERT ON "agents" FOR EACH ROW EXECUTE FUNCTION "oabp_agents_version"();--> statement-breakpoint
CREATE TRIGGER "agents_version_update" AFTER UPDATE ON "agents" FOR EACH ROW
  WHEN (OLD.rating IS DISTINCT FROM NEW.rating OR OLD.last_active_at IS DISTINCT FROM NEW.last_active_at
     OR OLD.decay_weeks_applied IS DISTINCT FROM NEW.decay_weeks_applied OR OLD.missions_attempted IS DISTINCT FROM NEW.missions_attempted
     OR OLD.missions_completed IS DISTINCT FROM NEW.missions_completed)
  EXECUTE FUNCTION "oabp_agents_version"();
