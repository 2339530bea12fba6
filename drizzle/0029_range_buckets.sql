--: the hour of a deadline as an immutable function of the instant (epoch seconds do not
-- depend on the session's time zone), so it can key an index. Used by narrow deadline windows.
CREATE OR REPLACE FUNCTION oabp_deadline_hour(d timestamptz) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT floor(extract(epoch FROM d) / 3600)::bigint $$;--> statement-breakpoint
DROP INDEX "missions_deadline_id_idx";--> statement-breakpoint
CREATE INDEX "missions_deadline_hour_id_idx" ON "missions" USING btree (oabp_deadline_hour("deadline"),"id");
