-- The ledger transfer (0042) locked its account rows through a join of the postings with
-- ledger_accounts. The planner guesses 100 rows for jsonb_to_recordset, so while ledger_accounts
-- was small it chose a hash join over a sequential scan of the whole table, and plpgsql kept that
-- plan for the session: every transfer read every account row (two per mission), a cost that grew
-- with the marketplace (bench/README.md "The transfer read every account"). Now each posting's row
-- is locked by its primary key, one at a time in the same (account, asset) byte order — the lock
-- order of every transfer is unchanged — and nothing else of the transfer changes.
CREATE OR REPLACE FUNCTION oabp_transfer(p jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_asset text := p->>'asset';
  v_at text := p->>'at';
  v_ts timestamptz := (p->>'at')::timestamptz;
  v_max numeric := 2::numeric ^ 256 - 1;
  pst record;
  acct record;
  v_after numeric;
  v_hash text;
BEGIN
  -- Sorted, so that two transactions creating the same new rows insert them in the same order.
  INSERT INTO ledger_accounts (account, asset, balance, seq, head_hash, updated_at)
  SELECT x.account, v_asset, 0, 0, repeat('0', 64), v_ts
    FROM jsonb_to_recordset(p->'postings') AS x(account text)
   ORDER BY x.account COLLATE "C"
  ON CONFLICT DO NOTHING;
  FOR pst IN
    SELECT * FROM jsonb_to_recordset(p->'postings') AS x(account text, amount numeric, id text)
     ORDER BY x.account COLLATE "C"
  LOOP
    SELECT l.balance, l.seq, l.head_hash INTO acct
      FROM ledger_accounts l WHERE l.account = pst.account AND l.asset = v_asset
       FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'ledger account rows vanished under lock';
    END IF;
    v_after := acct.balance + pst.amount;
    IF v_after > v_max OR -v_after > v_max THEN
      RAISE EXCEPTION USING ERRCODE = 'OB001', MESSAGE = 'UNPROCESSABLE',
        HINT = format('a %s balance would exceed uint256', v_asset),
        DETAIL = json_build_object('reason', 'balance_overflow', 'account_kind', split_part(pst.account, ':', 1))::text;
    END IF;
    IF v_after < 0 AND pst.account <> 'external' THEN
      RAISE EXCEPTION USING ERRCODE = 'OB001', MESSAGE = 'INSUFFICIENT_BALANCE',
        HINT = format('balance of %s is too low for this operation', v_asset),
        DETAIL = json_build_object('asset', v_asset, 'available', acct.balance::text, 'required', (-pst.amount)::text)::text;
    END IF;
    v_hash := encode(sha256(convert_to(
      '[' || to_json(acct.head_hash)::text || ',' || to_json(pst.id)::text || ',' || to_json(p->>'transfer_id')::text
      || ',' || to_json(pst.account)::text || ',' || to_json(v_asset)::text || ',' || (acct.seq + 1)::text
      || ',' || to_json(pst.amount::text)::text || ',' || to_json(v_after::text)::text || ',' || to_json(p->>'kind')::text
      || ',' || coalesce(to_json(p->>'ref')::text, 'null') || ',' || to_json(v_at)::text || ']', 'UTF8')), 'hex');
    INSERT INTO ledger_entries (id, transfer_id, account, asset, seq, amount, balance_after, kind, ref, prev_hash, hash, created_at)
    VALUES (pst.id, p->>'transfer_id', pst.account, v_asset, acct.seq + 1, pst.amount, v_after, p->>'kind', p->>'ref', acct.head_hash, v_hash, v_ts);
    UPDATE ledger_accounts SET balance = v_after, seq = acct.seq + 1, head_hash = v_hash, updated_at = v_ts
     WHERE account = pst.account AND asset = v_asset;
  END LOOP;
END;
$$;
