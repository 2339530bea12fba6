-- An appealable award in one statement (docs/decisions/storage.md "A write is one statement").
-- oabp_record_award now answers the mission as it left it and the creator's record, so the server
-- reads neither again; and given the row version the server checked the award against (an
-- unlocked read), it takes the mission row lock itself and writes only if the row is still that
-- version and every winner still a pending submission whose content was checked valid — otherwise
-- it raises the gate "changed" (OB003) before writing anything, and the server awards through the
-- transaction that locks first. Without a row version (called inside that transaction, under the
-- lock) it writes as before.

DROP FUNCTION oabp_record_award(jsonb);
--> statement-breakpoint
CREATE FUNCTION oabp_record_award(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_mission text := p->>'mission_id';
  v_now timestamptz := (p->>'now')::timestamptz;
  v_winners text[] := ARRAY(SELECT jsonb_array_elements_text(p->'winners'));
  v_after jsonb;
  v_record jsonb;
BEGIN
  IF p ? 'row_version' THEN
    PERFORM 1 FROM missions WHERE id = v_mission AND row_version = (p->>'row_version')::bigint FOR UPDATE;
    IF NOT FOUND OR (SELECT count(*) FROM submissions
                      WHERE mission_id = v_mission AND id = ANY(v_winners)
                        AND status = 'pending' AND check_result = 'valid') <> cardinality(v_winners) THEN
      RAISE EXCEPTION USING ERRCODE = 'OB003', MESSAGE = 'gate', DETAIL = '{"gate":"changed"}';
    END IF;
  END IF;
  UPDATE submissions
     SET reason = CASE WHEN id = ANY(v_winners) THEN 'awarded_pending_appeal' ELSE 'awaiting_appeal' END,
         updated_at = v_now
   WHERE mission_id = v_mission AND status = 'pending'
     AND (id = ANY(v_winners) OR reason <> 'awarded_pending_appeal');
  UPDATE missions
     SET status = 'escrowed', phase = 'appeal', payout_status = 'queued', payout_status_reason = 'awaiting_appeal_window',
         payout_status_updated_at = v_now, award = p->'award', next_action_at = (p->>'appeal_deadline')::timestamptz,
         updated_at = v_now
   WHERE id = v_mission
  -- The row as JSON, its numeric(78,0) amounts as text: a JavaScript number holds 53 bits, and the
  -- driver parses the answer's JSON (test/db/write-functions.int.test.ts lists every money column).
  RETURNING (to_jsonb(missions.*) - 'search') || jsonb_build_object('reward_amount', reward_amount::text,
    'spam_fee', spam_fee::text, 'fee_amount', fee_amount::text) INTO v_after;
  INSERT INTO webhook_events (id, type, occurred_at, mission_id, creator, verification_type, tags, data)
  SELECT id, type, occurred_at, mission_id, creator, verification_type, tags, data
    FROM jsonb_populate_record(null::webhook_events, p->'event');
  SELECT to_jsonb(r) INTO v_record FROM agent_records r WHERE r.agent_id = v_after->>'creator';
  RETURN jsonb_build_object('mission', v_after, 'record', v_record);
END;
$$;
