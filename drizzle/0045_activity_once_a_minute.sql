-- An agent's activity is written at most once a minute (docs/decisions.md "Activity once a
-- minute"): an agent active, and seen when asked, within the last minute is left as it is — no
-- row update, no rating version, no WAL — and the function answers true, as no decay can be owed
-- a minute after an activity (the grace period is days). Otherwise unchanged from 0042: the row is
-- created or locked and marked active (and seen), unless decay is owed (false, nothing changed).
CREATE OR REPLACE FUNCTION oabp_agent_active(p_agent text, p_at timestamptz, p_seen boolean, p_grace_ms bigint, p_week_ms bigint)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM agents
   WHERE id = p_agent
     AND last_active_at BETWEEN p_at - interval '1 minute' AND p_at
     AND (NOT p_seen OR last_seen_at BETWEEN p_at - interval '1 minute' AND p_at);
  IF FOUND THEN
    RETURN true;
  END IF;
  INSERT INTO agents (id, created_at, updated_at, last_seen_at, last_active_at, decay_weeks_applied)
  VALUES (p_agent, p_at, p_at, CASE WHEN p_seen THEN p_at END, p_at, 0)
  ON CONFLICT (id) DO UPDATE SET last_active_at = p_at, decay_weeks_applied = 0,
    last_seen_at = CASE WHEN p_seen THEN greatest(agents.last_seen_at, p_at) ELSE agents.last_seen_at END
  WHERE agents.last_active_at IS NULL
     OR agents.last_active_at > p_at - (p_grace_ms + (agents.decay_weeks_applied + 1) * p_week_ms) * interval '1 millisecond';
  RETURN FOUND;
END;
$$;
