import { sql } from "drizzle-orm";
import type { Db } from "../src/db/client";
import { rowsOf } from "./harness";
import { WORDS } from "./seed";

// Scale-mode seeding: N missions, 3 submissions each, agents with ratings and decay
// state, one review per resolved mission — generated INSIDE Postgres with generate_series, so a
// million missions take minutes, not hours. Deterministic for a given N (setseed). Ids are real
// ULID-layout ids (src/lib/ids.ts): 10 base32 chars of the creation millisecond + 16 of a per-row
// number, so they sort by creation time like the server's own.
//
// Shape (the same as bench/seed.ts where both seed): one mission per minute ending a minute ago;
// titles 3–7 and descriptions 12–40 Zipf-distributed words; 0–3 tags; status 88 % open, 7 %
// resolved, 5 % voided; reward 1–500 USDC; deadlines 7–67 days ahead; creators drawn from the
// agents. Agents: min(50 000, N / 20), ratings 1000–2399, idle 0–89 days with the decay owed so
// far already written (what the decay job leaves), a few hundred with many reviews ("busy").

export interface ScaleSeed {
  missions: number;
  agents: number;
  ms: number;
}

export async function seedScale(db: Db, n: number): Promise<ScaleSeed> {
  const started = performance.now();
  const agentCount = Math.max(100, Math.min(50_000, Math.floor(n / 20)));
  const wordsLit = `array[${WORDS.map((w) => `'${w}'`).join(",")}]::text[]`;
  const words = sql.raw(wordsLit);
  const nowMs = Date.now();
  // Literals, not parameters: the planner must not guess integer for a millisecond count.
  const NOW = sql.raw(String(nowMs));
  const N = sql.raw(String(n));
  const A = sql.raw(String(agentCount));
  await db.execute(sql`select setseed(0.42)`);
  // The helper functions live in the session (pg_temp); postgres.js recycles a connection after
  // 30–60 min (max_lifetime), which a 1M seed on a busy machine outlasts: every step that uses them
  // defines them again first, on whatever connection it runs.
  const helpers = async () => {
    // Crockford base32 of a non-negative bigint, `len` chars (the id alphabet of src/lib/ids.ts).
    await db.execute(
      sql.raw(`create or replace function pg_temp.b32(v bigint, len int) returns text language sql immutable as $$
      select string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((v >> (5 * (len - 1 - i))) & 31)::int + 1, 1), '' order by i)
      from generate_series(0, len - 1) i $$`),
    );
    // Zipf(1) over WORDS: log-uniform rank.
    await db.execute(
      sql.raw(`create or replace function pg_temp.zw(r float8) returns int language sql immutable as $$
      select least(${WORDS.length}, greatest(1, floor(exp(r * ln(${WORDS.length + 1})))::int)) $$`),
    );
    await db.execute(
      sql.raw(`create or replace function pg_temp.words(k int) returns text language sql volatile as $$
      select string_agg((${wordsLit})[pg_temp.zw(random())], ' ') from generate_series(1, k) $$`),
    );
  };
  await helpers();
  await db.execute(sql`
    insert into agents (id, display_name, rating, rating_updated_at, last_active_at, decay_weeks_applied, missions_attempted, missions_completed, created_at, updated_at)
    select '0x' || lpad(to_hex(i), 40, '0'), 'agent ' || i, r, now0, la,
           greatest(0, floor((extract(epoch from now0 - la) * 1000 - 604800000) / 604800000))::int,
           c + (i % 5), c, now0 - interval '200 days', now0
    from (select i, 1000 + (i::bigint * 7919) % 1400 as r, (i * 31) % 20 as c, to_timestamp(${NOW} / 1000.0) as now0,
                 to_timestamp(${NOW} / 1000.0) - ((i::bigint * 104729) % (90 * 86400)) * interval '1 second' as la
          from generate_series(1, ${A}) i) s`);

  await helpers();
  await db.execute(sql`
    insert into missions (id, creator, title, description, reward_asset, reward_amount, reward_chain, spam_fee, verification_type,
      verification_params, deadline, status, phase, payout_status, tags, warnings, submission_count, created_at, updated_at)
    select 'mis_' || pg_temp.b32(ms, 10) || pg_temp.b32(i, 16),
           '0x' || lpad(to_hex(1 + (i * 7) % ${A}), 40, '0'),
           initcap(pg_temp.words(3 + (i % 5))), initcap(pg_temp.words(12 + (i % 29))) || '.',
           'USDC', ((1 + (i * 13) % 500) * 1000000)::numeric, 'ledger', 5000000,
           (array['creator_judges','first_valid_match','peer_vote','oracle'])[1 + i % 4], '{}'::jsonb,
           to_timestamp(${NOW} / 1000.0) + (7 + (i * 11) % 60) * interval '1 day' + (i % 1440) * interval '1 minute',
           st, case when st = 'open' then 'accepting_submissions' else 'closed' end, 'not_applicable',
           coalesce((select array_agg(distinct (${words})[pg_temp.zw(random())]) from generate_series(1, i % 4) g), '{}'),
           '{}', 3, to_timestamp(ms / 1000.0), to_timestamp(ms / 1000.0)
    from (select i, (${NOW}::bigint - (${N} + 1 - i)::bigint * 60000) as ms,
                 case when r < 0.88 then 'open' when r < 0.95 then 'resolved' else 'voided' end as st
          from (select i, random() as r from generate_series(1, ${N}) i) x) s`);

  // 3 submissions per mission, by agents other than the creator.
  await helpers();
  await db.execute(sql`
    insert into submissions (id, mission_id, submitter, content_uri, content_hash, status, reason, seq, submitted_at, updated_at, outcome)
    select 'sub_' || substr(m.id, 5, 10) || pg_temp.b32(k, 2) || substr(m.id, 17, 14),
           m.id, '0x' || lpad(to_hex(1 + (abs(hashtext(m.id)::bigint) + k * 977) % ${A}), 40, '0'),
           'https://example.com/deliverable/' || k, 'sha256:' || md5(m.id) || md5(m.id || k),
           case when m.status = 'resolved' and k = 1 then 'accepted' else 'pending' end, '', k,
           m.created_at + k * interval '1 second', m.created_at + k * interval '1 second',
           case when m.status = 'resolved' then case when k = 1 then 'win' else 'loss' end end
    from missions m, generate_series(1, 3) k`);
  await db.execute(sql`
    update missions m set winner_submission_id = s.id, winner_agent_id = s.submitter
    from submissions s where s.mission_id = m.id and s.seq = 1 and m.status = 'resolved'`);

  // One review per resolved mission, creator → winner; agents 1–300 collect many more ("busy").
  await db.execute(sql`
    insert into reviews (id, mission_id, reviewer, reviewee, reviewer_role, stars, created_at, updated_at)
    select * from (
      select 'rev_' || substr(m.id, 5) as id, m.id as mission_id, m.creator as reviewer,
             case when hashtext(m.id)::bigint % 2 = 0 then '0x' || lpad(to_hex(1 + abs(hashtext(m.id)::bigint) % 300), 40, '0') else m.winner_agent_id end as reviewee,
             'creator' as reviewer_role, 1 + abs(hashtext(m.id || 'stars')::bigint) % 5 as stars, m.updated_at as created_at, m.updated_at
      from missions m where m.status = 'resolved') r
    where r.reviewer <> r.reviewee
    on conflict do nothing`);
  // One ADP card per agent (discovery): 1–3 skills of 8 (each with its parent path),
  // 10–14 Zipf words; the freshest card is agent 1's.
  await helpers();
  await db.execute(sql`
    insert into adp_cards (agent_id, card_id, name, signed, card, size_bytes, skills, skill_paths, words, max_concurrent_tasks, created_at, updated_at)
    select a.id, 'agent://bench/' || a.n, 'agent ' || a.n, false,
           json_build_object('id', 'agent://bench/' || a.n, 'name', 'agent ' || a.n, 'skills', s.sk)::text, 200,
           s.sk, s.paths, w.ws, 3 + a.n % 5, now0 - interval '100 days', now0 - a.n * interval '1 minute'
    from (select id, row_number() over (order by id) as n, to_timestamp(${NOW} / 1000.0) as now0 from agents) a
    cross join lateral (
      select array_agg(distinct x) as sk, array_agg(distinct p) as paths
      from (select (array['nlp/translation','nlp/summarization','code/review','code/generation','data/analysis','vision/ocr','audio/transcription','research/web'])[1 + (a.n * k * 7 + k) % 8] as x
            from generate_series(1, 1 + a.n % 3) k) s0
      cross join lateral unnest(array[x, split_part(x, '/', 1)]) p) s
    cross join lateral (
      select array_agg(distinct (${words})[pg_temp.zw(random())]) as ws from generate_series(1, 10 + a.n % 5)) w`);
  // What autovacuum does to tables loaded in bulk, before anything is measured: the visibility map
  // lets discovery's term ranges and the tag table be index-only scans, and the dead versions the
  // triggers left go — review_stats one per review, agent_records one per mission posted (19 of 20
  // record rows dead, which made every page's 51 creator-record probes read ~22 buffers each;
  // bench/README.md "Scale mode").
  await db.execute(sql`vacuum analyze`);
  const [c] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from missions`));
  return { missions: Number(c?.n ?? 0), agents: agentCount, ms: performance.now() - started };
}
