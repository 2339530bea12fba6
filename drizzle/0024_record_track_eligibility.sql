CREATE TABLE "agent_blocklist" (
	"owner" text NOT NULL,
	"blocked" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_blocklist_owner_blocked_pk" PRIMARY KEY("owner","blocked")
);
--> statement-breakpoint
CREATE TABLE "agent_records" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"missions_posted" integer DEFAULT 0 NOT NULL,
	"missions_paid" integer DEFAULT 0 NOT NULL,
	"missions_voided" integer DEFAULT 0 NOT NULL,
	"missions_voided_with_submissions" integer DEFAULT 0 NOT NULL,
	"missions_never_judged" integer DEFAULT 0 NOT NULL,
	"disputes_lost" integer DEFAULT 0 NOT NULL,
	"award_delays" integer[] DEFAULT '{}' NOT NULL,
	"paid_ratio_bp" integer GENERATED ALWAYS AS (case when missions_paid + missions_voided_with_submissions > 0 then (missions_paid * 10000) / (missions_paid + missions_voided_with_submissions) end) STORED,
	"claims_made" integer DEFAULT 0 NOT NULL,
	"claims_abandoned" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "min_completed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "audience" text DEFAULT 'anyone' NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "allow_list" text[];--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "block_list" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX "agent_records_paid_ratio_idx" ON "agent_records" USING btree ("paid_ratio_bp","agent_id");--> statement-breakpoint
CREATE INDEX "agent_records_never_judged_idx" ON "agent_records" USING btree ("missions_never_judged","agent_id");--> statement-breakpoint
CREATE INDEX "submissions_mission_submitter_idx" ON "submissions" USING btree ("mission_id","submitter");--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_audience_ck" CHECK ("missions"."audience" in ('anyone', 'agents'));--> statement-breakpoint
--: creator and claimer track records, counters kept by triggers in the transaction
-- that changes the status (docs/decisions.md "Track record"). One upsert adds the deltas.
CREATE FUNCTION "oabp_record_add"(a text, posted int, paid int, voided int, voided_ws int, never int, lost int, delay int, made int, abandoned int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agent_records AS r (agent_id, missions_posted, missions_paid, missions_voided, missions_voided_with_submissions, missions_never_judged, disputes_lost, award_delays, claims_made, claims_abandoned)
  VALUES (a, greatest(posted, 0), greatest(paid, 0), greatest(voided, 0), greatest(voided_ws, 0), greatest(never, 0), greatest(lost, 0),
          CASE WHEN delay IS NULL THEN '{}'::int[] ELSE ARRAY[delay] END, greatest(made, 0), greatest(abandoned, 0))
  ON CONFLICT (agent_id) DO UPDATE SET
    missions_posted = greatest(r.missions_posted + posted, 0),
    missions_paid = greatest(r.missions_paid + paid, 0),
    missions_voided = greatest(r.missions_voided + voided, 0),
    missions_voided_with_submissions = greatest(r.missions_voided_with_submissions + voided_ws, 0),
    missions_never_judged = greatest(r.missions_never_judged + never, 0),
    disputes_lost = greatest(r.disputes_lost + lost, 0),
    -- the last 64 (AWARD_DELAY_WINDOW) delays, oldest first
    award_delays = CASE WHEN delay IS NULL THEN r.award_delays
      ELSE (r.award_delays || delay)[greatest(1, cardinality(r.award_delays) + 1 - 63):] END,
    claims_made = greatest(r.claims_made + made, 0),
    claims_abandoned = greatest(r.claims_abandoned + abandoned, 0);
END
$$;--> statement-breakpoint
CREATE FUNCTION "oabp_mission_record"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  posted int := 0; paid int := 0; voided int := 0; voided_ws int := 0; never int := 0; lost int := 0; delay int := NULL;
  awarded timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status <> 'pending_escrow' THEN posted := 1; END IF;
  ELSE
    -- a base-rail mission is posted when its deposit opens it
    IF OLD.status = 'pending_escrow' AND NEW.status <> 'voided' THEN posted := 1; END IF;
    IF NEW.status = 'resolved' THEN
      paid := 1;
      IF NEW.resolution_reason = 'default_award_judging_expired' THEN never := 1; END IF;
      IF NEW.resolution_reason = 'creator_award_overturned' THEN lost := 1; END IF;
      IF NEW.verification_type = 'creator_judges' AND NEW.resolution_reason IN
         ('creator_award', 'creator_award_upheld', 'creator_award_overturned', 'default_award_judging_expired') THEN
        awarded := coalesce((NEW.award ->> 'awarded_at')::timestamptz, NEW.resolved_at, NEW.updated_at);
        delay := least(greatest(extract(epoch FROM awarded - NEW.deadline), 0), 2147483647)::int;
      END IF;
    ELSIF NEW.status = 'voided' AND OLD.status <> 'pending_escrow' THEN
      voided := 1;
      IF NEW.submission_count > 0 THEN voided_ws := 1; END IF;
      -- a resolution turned into a refund (payout_converted_to_refund, an upheld bad_spec) is no longer a payment
      IF OLD.status = 'resolved' THEN
        paid := -1;
        IF OLD.resolution_reason = 'default_award_judging_expired' THEN never := -1; END IF;
      END IF;
    END IF;
  END IF;
  IF posted <> 0 OR paid <> 0 OR voided <> 0 OR never <> 0 OR lost <> 0 OR delay IS NOT NULL THEN
    PERFORM oabp_record_add(NEW.creator, posted, paid, voided, voided_ws, never, lost, delay, 0, 0);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "missions_record_insert" AFTER INSERT ON "missions" FOR EACH ROW EXECUTE FUNCTION "oabp_mission_record"();--> statement-breakpoint
CREATE TRIGGER "missions_record_update" AFTER UPDATE OF "status" ON "missions" FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION "oabp_mission_record"();--> statement-breakpoint
CREATE FUNCTION "oabp_claim_record"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE made int := 0; abandoned int := 0;
BEGIN
  IF NEW.status = 'active' AND (TG_OP = 'INSERT' OR OLD.status <> 'active') THEN made := 1; END IF;
  IF TG_OP = 'UPDATE' AND OLD.status = 'active' AND NEW.status IN ('released', 'expired')
     AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.mission_id = NEW.mission_id AND s.submitter = NEW.agent_id) THEN
    abandoned := 1;
  END IF;
  IF made <> 0 OR abandoned <> 0 THEN
    PERFORM oabp_record_add(NEW.agent_id, 0, 0, 0, 0, 0, 0, NULL, made, abandoned);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "mission_claims_record" AFTER INSERT OR UPDATE OF "status" ON "mission_claims" FOR EACH ROW EXECUTE FUNCTION "oabp_claim_record"();--> statement-breakpoint
-- AIP-4: a non_payment or bad_spec dispute decided for the filer is lost by the mission's creator.
-- A bad_spec dispute decided by the appeal's peer vote is already counted as creator_award_overturned.
CREATE FUNCTION "oabp_dispute_record"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE c text;
BEGIN
  IF OLD.status = 'open' AND NEW.status <> 'open' AND NEW.dispute_type IN ('non_payment', 'bad_spec')
     AND (NEW.outcome = 'upheld' OR (NEW.outcome = 'expired' AND NEW.dispute_type = 'non_payment'))
     AND NEW.resolution_actor IS DISTINCT FROM 'peer_vote' THEN
    SELECT creator INTO c FROM missions WHERE id = NEW.mission_id;
    IF c IS NOT NULL THEN
      PERFORM oabp_record_add(c, 0, 0, 0, 0, 0, 1, NULL, 0, 0);
      -- missions carry the creator's record: cached mission lists are dropped as on a mission write
      PERFORM pg_notify('oabp_missions_changed', '');
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "disputes_record" AFTER UPDATE OF "status" ON "disputes" FOR EACH ROW EXECUTE FUNCTION "oabp_dispute_record"();--> statement-breakpoint
-- Backfill from the rows already there (once; the triggers keep it from here).
INSERT INTO agent_records (agent_id, missions_posted, missions_paid, missions_voided, missions_voided_with_submissions, missions_never_judged, disputes_lost, award_delays)
SELECT m.creator,
  count(*) FILTER (WHERE m.status <> 'pending_escrow' AND m.resolution_reason IS DISTINCT FROM 'expired_unfunded'),
  count(*) FILTER (WHERE m.status = 'resolved'),
  count(*) FILTER (WHERE m.status = 'voided' AND m.resolution_reason IS DISTINCT FROM 'expired_unfunded'),
  count(*) FILTER (WHERE m.status = 'voided' AND m.resolution_reason IS DISTINCT FROM 'expired_unfunded' AND m.submission_count > 0),
  count(*) FILTER (WHERE m.status = 'resolved' AND m.resolution_reason = 'default_award_judging_expired'),
  count(*) FILTER (WHERE m.resolution_reason = 'creator_award_overturned'),
  coalesce((SELECT array_agg(d.delay ORDER BY d.at) FROM (
    SELECT least(greatest(extract(epoch FROM coalesce((x.award ->> 'awarded_at')::timestamptz, x.resolved_at, x.updated_at) - x.deadline), 0), 2147483647)::int AS delay,
           coalesce(x.resolved_at, x.updated_at) AS at
    FROM missions x
    WHERE x.creator = m.creator AND x.status = 'resolved' AND x.verification_type = 'creator_judges'
      AND x.resolution_reason IN ('creator_award', 'creator_award_upheld', 'creator_award_overturned', 'default_award_judging_expired')
    ORDER BY coalesce(x.resolved_at, x.updated_at) DESC LIMIT 64) d), '{}')
FROM missions m GROUP BY m.creator;--> statement-breakpoint
UPDATE agent_records r SET disputes_lost = r.disputes_lost + d.n FROM (
  SELECT m.creator, count(*)::int AS n FROM disputes d JOIN missions m ON m.id = d.mission_id
  WHERE d.status <> 'open' AND d.dispute_type IN ('non_payment', 'bad_spec')
    AND (d.outcome = 'upheld' OR (d.outcome = 'expired' AND d.dispute_type = 'non_payment'))
    AND d.resolution_actor IS DISTINCT FROM 'peer_vote'
  GROUP BY m.creator) d WHERE r.agent_id = d.creator;--> statement-breakpoint
INSERT INTO agent_records AS r (agent_id, claims_made, claims_abandoned)
SELECT c.agent_id, count(*)::int,
  count(*) FILTER (WHERE c.status IN ('released', 'expired')
    AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.mission_id = c.mission_id AND s.submitter = c.agent_id))::int
FROM mission_claims c GROUP BY c.agent_id
ON CONFLICT (agent_id) DO UPDATE SET claims_made = EXCLUDED.claims_made, claims_abandoned = EXCLUDED.claims_abandoned;
