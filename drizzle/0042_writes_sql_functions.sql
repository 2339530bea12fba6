-- Writes as SQL functions (docs/decisions/storage.md "A write is one statement"): a write's rows
-- in one statement instead of a dozen, each of which cost the server a round of driver work.
-- A refusal is raised with SQLSTATE 'OB001': MESSAGE is the API error code, HINT the message
-- for people, DETAIL the error's details as JSON (src/db/write-functions.ts turns it back into the error).
--
-- The ledger transfer (src/features/ledger/ledger.service.ts `transfer`): creates any missing
-- account row, locks the rows in (account, asset) byte order — the lock order of every transfer —,
-- checks each balance under the lock, appends one hash-chained entry per account and moves its
-- head. `p` = {asset, kind, ref, at (ISO text, hashed as sent), transfer_id, postings: [{account,
-- amount (text), id}]}, the postings merged per account and non-zero. The entry hash is
-- ledger.hash.ts `entryHash` (the JSON array of the fields, SHA-256), which the verifier
-- recomputes from the stored rows.
CREATE OR REPLACE FUNCTION oabp_transfer(p jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_asset text := p->>'asset';
  v_at text := p->>'at';
  v_ts timestamptz := (p->>'at')::timestamptz;
  v_max numeric := 2::numeric ^ 256 - 1;
  v_locked int := 0;
  r record;
  v_after numeric;
  v_hash text;
BEGIN
  -- Sorted, so that two transactions creating the same new rows insert them in the same order.
  INSERT INTO ledger_accounts (account, asset, balance, seq, head_hash, updated_at)
  SELECT x.account, v_asset, 0, 0, repeat('0', 64), v_ts
    FROM jsonb_to_recordset(p->'postings') AS x(account text)
   ORDER BY x.account COLLATE "C"
  ON CONFLICT DO NOTHING;
  FOR r IN
    SELECT a.account, a.balance, a.seq, a.head_hash, x.amount, x.id
      FROM jsonb_to_recordset(p->'postings') AS x(account text, amount numeric, id text)
      JOIN ledger_accounts a ON a.account = x.account AND a.asset = v_asset
     ORDER BY a.account COLLATE "C"
       FOR UPDATE OF a
  LOOP
    v_locked := v_locked + 1;
    v_after := r.balance + r.amount;
    IF v_after > v_max OR -v_after > v_max THEN
      RAISE EXCEPTION USING ERRCODE = 'OB001', MESSAGE = 'UNPROCESSABLE',
        HINT = format('a %s balance would exceed uint256', v_asset),
        DETAIL = json_build_object('reason', 'balance_overflow', 'account_kind', split_part(r.account, ':', 1))::text;
    END IF;
    IF v_after < 0 AND r.account <> 'external' THEN
      RAISE EXCEPTION USING ERRCODE = 'OB001', MESSAGE = 'INSUFFICIENT_BALANCE',
        HINT = format('balance of %s is too low for this operation', v_asset),
        DETAIL = json_build_object('asset', v_asset, 'available', r.balance::text, 'required', (-r.amount)::text)::text;
    END IF;
    v_hash := encode(sha256(convert_to(
      '[' || to_json(r.head_hash)::text || ',' || to_json(r.id)::text || ',' || to_json(p->>'transfer_id')::text
      || ',' || to_json(r.account)::text || ',' || to_json(v_asset)::text || ',' || (r.seq + 1)::text
      || ',' || to_json(r.amount::text)::text || ',' || to_json(v_after::text)::text || ',' || to_json(p->>'kind')::text
      || ',' || coalesce(to_json(p->>'ref')::text, 'null') || ',' || to_json(v_at)::text || ']', 'UTF8')), 'hex');
    INSERT INTO ledger_entries (id, transfer_id, account, asset, seq, amount, balance_after, kind, ref, prev_hash, hash, created_at)
    VALUES (r.id, p->>'transfer_id', r.account, v_asset, r.seq + 1, r.amount, v_after, p->>'kind', p->>'ref', r.head_hash, v_hash, v_ts);
    UPDATE ledger_accounts SET balance = v_after, seq = r.seq + 1, head_hash = v_hash, updated_at = v_ts
     WHERE account = r.account AND asset = v_asset;
  END LOOP;
  IF v_locked <> jsonb_array_length(p->'postings') THEN
    RAISE EXCEPTION 'ledger account rows vanished under lock';
  END IF;
END;
$$;
--> statement-breakpoint
-- A time as JavaScript's toISOString writes it (milliseconds, Z): the wire's and the hashes' form.
CREATE OR REPLACE FUNCTION oabp_iso(t timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
--> statement-breakpoint
-- The suspension check every verb that starts something new makes (docs/moderation.md
-- "Suspension"; src/db/suspension.ts): one in force (no end, or an end after now) refuses.
CREATE OR REPLACE FUNCTION oabp_assert_not_suspended(p_address text, p_now timestamptz) RETURNS void LANGUAGE plpgsql AS $$
DECLARE s record;
BEGIN
  SELECT suspended_at, until INTO s FROM suspensions WHERE address = lower(p_address) AND (until IS NULL OR until > p_now);
  IF FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'OB001', MESSAGE = 'FORBIDDEN', HINT = 'this address is suspended by the operator',
      DETAIL = json_build_object('reason', 'suspended', 'suspended_at', oabp_iso(s.suspended_at), 'until', oabp_iso(s.until))::text;
  END IF;
END;
$$;
--> statement-breakpoint
-- Activity restarts the decay clock (src/features/reputation/reputation.service.ts `recordActivity`):
-- creates the agent row or locks it, marks it active (and seen), unless decay is owed — owed iff
-- now − last_active_at ≥ grace + (applied + 1) weeks (decay.ts decayWeeks) — and then returns
-- false, changing nothing: the caller writes the decay first.
CREATE OR REPLACE FUNCTION oabp_agent_active(p_agent text, p_at timestamptz, p_seen boolean, p_grace_ms bigint, p_week_ms bigint)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agents (id, created_at, updated_at, last_seen_at, last_active_at, decay_weeks_applied)
  VALUES (p_agent, p_at, p_at, CASE WHEN p_seen THEN p_at END, p_at, 0)
  ON CONFLICT (id) DO UPDATE SET last_active_at = p_at, decay_weeks_applied = 0,
    last_seen_at = CASE WHEN p_seen THEN greatest(agents.last_seen_at, p_at) ELSE agents.last_seen_at END
  WHERE agents.last_active_at IS NULL
     OR agents.last_active_at > p_at - (p_grace_ms + (agents.decay_weeks_applied + 1) * p_week_ms) * interval '1 millisecond';
  RETURN FOUND;
END;
$$;
--> statement-breakpoint
-- POST /missions (src/features/missions/missions.create.ts): the mission, its creator's activity,
-- its event and its funding transfer in one statement. `p` = {mission: the row (column names as
-- keys), event: the webhook_events row or null, transfer: oabp_transfer's argument or null, now,
-- decay_grace_ms, week_ms}. Returns the creator's record as the insert trigger left it. Decay owed
-- by the creator raises OB002 before anything is written: the caller writes the decay and retries.
CREATE OR REPLACE FUNCTION oabp_create_mission(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_creator text := p->'mission'->>'creator';
  v_now timestamptz := (p->>'now')::timestamptz;
  v_record jsonb;
BEGIN
  PERFORM oabp_assert_not_suspended(v_creator, v_now);
  -- The agent row before the ledger rows: the lock order.
  IF NOT oabp_agent_active(v_creator, v_now, true, (p->>'decay_grace_ms')::bigint, (p->>'week_ms')::bigint) THEN
    RAISE EXCEPTION USING ERRCODE = 'OB002', MESSAGE = 'decay owed';
  END IF;
  INSERT INTO missions (id, creator, title, description, reward_asset, reward_amount, reward_chain, spam_fee,
    verification_type, verification_params, mission_type, type_params, min_submitter_elo, min_completed, audience,
    allow_list, block_list, deadline, status, phase, payout_status, tags, skill_id, warnings, submission_count,
    amendments_count, claim_count, max_claims, language, exclusive_claim_ttl, exclusive_holder, exclusive_until,
    qa_count, qa_pinned_count, winner_submission_id, winner_agent_id, next_action_at, judging_deadline,
    resolution_reason, fee_amount, payouts, award, resolved_at, voided_at, payout_status_reason, escrow_key, escrow,
    payout_tx_hash, payout_status_updated_at, hidden_at, hidden_reason, created_at, updated_at)
  SELECT id, creator, title, description, reward_asset, reward_amount, reward_chain, spam_fee,
    verification_type, verification_params, mission_type, type_params, min_submitter_elo, min_completed, audience,
    allow_list, block_list, deadline, status, phase, payout_status, tags, skill_id, warnings, submission_count,
    amendments_count, claim_count, max_claims, language, exclusive_claim_ttl, exclusive_holder, exclusive_until,
    qa_count, qa_pinned_count, winner_submission_id, winner_agent_id, next_action_at, judging_deadline,
    resolution_reason, fee_amount, payouts, award, resolved_at, voided_at, payout_status_reason, escrow_key, escrow,
    payout_tx_hash, payout_status_updated_at, hidden_at, hidden_reason, created_at, updated_at
    FROM jsonb_populate_record(null::missions, p->'mission');
  IF jsonb_typeof(p->'event') = 'object' THEN
    INSERT INTO webhook_events (id, type, occurred_at, mission_id, creator, verification_type, tags, data)
    SELECT id, type, occurred_at, mission_id, creator, verification_type, tags, data
      FROM jsonb_populate_record(null::webhook_events, p->'event');
  END IF;
  SELECT to_jsonb(r) INTO v_record FROM agent_records r WHERE r.agent_id = v_creator;
  -- The funding transfer last: its account locks are then held only until the commit.
  IF jsonb_typeof(p->'transfer') = 'object' THEN
    PERFORM oabp_transfer(p->'transfer');
  END IF;
  RETURN v_record;
END;
$$;
--> statement-breakpoint
-- POST /missions/{id}/submissions (src/features/submissions/submissions.service.ts): the gate
-- under the mission row lock, the submission, its events, the revealed commitment and the
-- submitter's activity, in one statement. `p` = {mission_id, submitter, now, reveal, commitment (the
-- expected hash, for a reveal), max_per_agent, submission (the row but its seq), events (rows),
-- activity (false when judging follows: it then marks the activity itself), decay_grace_ms,
-- week_ms}. A gate that refuses raises OB003 with DETAIL {gate: closed | limits (n, dup) |
-- commitment}, having written nothing: the server answers it with its own error. Returns the
-- submission's seq and metadata as stored, and the mission's fields for the answer, as the lock
-- left them.
CREATE OR REPLACE FUNCTION oabp_submit(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_mission text := p->>'mission_id';
  v_submitter text := p->>'submitter';
  v_now timestamptz := (p->>'now')::timestamptz;
  v_after jsonb;
  v_seq int;
  v_n int;
  v_dup int;
  v_commitment text;
  v_metadata jsonb;
BEGIN
  PERFORM oabp_assert_not_suspended(v_submitter, v_now);
  -- The row lock that orders submissions: open and before the deadline, or for commit-reveal
  -- in its reveal phase (the server checked the window; it is immutable).
  IF (p->>'reveal')::boolean THEN
    UPDATE missions SET updated_at = v_now
     WHERE id = v_mission AND status = 'escrowed' AND phase = 'revealing'
    RETURNING jsonb_build_object('creator', creator, 'status', status, 'verification_type', verification_type,
      'verification_params', verification_params, 'payouts', payouts), submission_count INTO v_after, v_seq;
  ELSE
    UPDATE missions SET submission_count = submission_count + 1, updated_at = v_now
     WHERE id = v_mission AND status = 'open' AND deadline > v_now
    RETURNING jsonb_build_object('creator', creator, 'status', status, 'verification_type', verification_type,
      'verification_params', verification_params, 'payouts', payouts), submission_count INTO v_after, v_seq;
  END IF;
  IF v_after IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'OB003', MESSAGE = 'gate', DETAIL = '{"gate":"closed"}';
  END IF;
  -- The per-agent count, read behind the lock.
  SELECT count(*), count(*) FILTER (WHERE content_hash = p->'submission'->>'content_hash') INTO v_n, v_dup
    FROM submissions WHERE mission_id = v_mission AND submitter = v_submitter;
  IF v_dup > 0 OR v_n >= (p->>'max_per_agent')::int THEN
    RAISE EXCEPTION USING ERRCODE = 'OB003', MESSAGE = 'gate',
      DETAIL = json_build_object('gate', 'limits', 'n', v_n, 'dup', v_dup)::text;
  END IF;
  IF (p->>'reveal')::boolean THEN
    SELECT id, seq INTO v_commitment, v_seq FROM commitments
     WHERE mission_id = v_mission AND committer = v_submitter AND commitment = p->>'commitment' AND submission_id IS NULL
       FOR UPDATE;
    IF v_commitment IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'OB003', MESSAGE = 'gate', DETAIL = '{"gate":"commitment"}';
    END IF;
  END IF;
  INSERT INTO submissions (id, mission_id, submitter, content_uri, content_hash, metadata, status, reason, seq,
    check_result, check_reason, check_attempts, next_check_at, check_host, check_claimed_until, payout_amount,
    outcome, decided_at, submitted_at, updated_at)
  SELECT id, mission_id, submitter, content_uri, content_hash, metadata, status, reason, v_seq,
    check_result, check_reason, check_attempts, next_check_at, check_host, check_claimed_until, payout_amount,
    outcome, decided_at, submitted_at, updated_at
    FROM jsonb_populate_record(null::submissions, p->'submission')
  RETURNING metadata INTO v_metadata;
  INSERT INTO webhook_events (id, type, occurred_at, mission_id, creator, verification_type, tags, data)
  SELECT id, type, occurred_at, mission_id, creator, verification_type, tags, data
    FROM jsonb_populate_recordset(null::webhook_events, p->'events');
  IF v_commitment IS NOT NULL THEN
    UPDATE commitments SET submission_id = p->'submission'->>'id', revealed_at = v_now WHERE id = v_commitment;
  END IF;
  IF (p->>'activity')::boolean
     AND NOT oabp_agent_active(v_submitter, v_now, true, (p->>'decay_grace_ms')::bigint, (p->>'week_ms')::bigint) THEN
    RAISE EXCEPTION USING ERRCODE = 'OB002', MESSAGE = 'decay owed';
  END IF;
  RETURN jsonb_build_object('seq', v_seq, 'metadata', v_metadata, 'mission', v_after);
END;
$$;
--> statement-breakpoint
-- A creator's award recorded for its appeal window (src/features/verification/appeal.ts
-- `recordAward`, after the server checked it under the mission row lock): the winners' pending
-- submissions say they were awarded, the others that they wait for the appeal, the mission moves
-- to its appeal with the award and its payout queued, and the mission.awarded event — one
-- statement for four. `p` = {mission_id, now, winners (submission ids), award, appeal_deadline, event}.
CREATE OR REPLACE FUNCTION oabp_record_award(p jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_mission text := p->>'mission_id';
  v_now timestamptz := (p->>'now')::timestamptz;
BEGIN
  UPDATE submissions
     SET reason = CASE WHEN id IN (SELECT jsonb_array_elements_text(p->'winners')) THEN 'awarded_pending_appeal'
                       ELSE 'awaiting_appeal' END,
         updated_at = v_now
   WHERE mission_id = v_mission AND status = 'pending'
     AND (id IN (SELECT jsonb_array_elements_text(p->'winners')) OR reason <> 'awarded_pending_appeal');
  UPDATE missions
     SET status = 'escrowed', phase = 'appeal', payout_status = 'queued', payout_status_reason = 'awaiting_appeal_window',
         payout_status_updated_at = v_now, award = p->'award', next_action_at = (p->>'appeal_deadline')::timestamptz,
         updated_at = v_now
   WHERE id = v_mission;
  INSERT INTO webhook_events (id, type, occurred_at, mission_id, creator, verification_type, tags, data)
  SELECT id, type, occurred_at, mission_id, creator, verification_type, tags, data
    FROM jsonb_populate_record(null::webhook_events, p->'event');
END;
$$;
