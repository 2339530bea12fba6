import { eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client";
import { rowsOf } from "../db/rows";
import { perDatabase } from "../db/prepared";
import { rateBuckets } from "../db/schema/index";
import type { RatePolicy } from "../env";

// Token buckets held in Postgres, so every instance behind a load balancer enforces one limit
//. A bucket
// holds up to `quota` tokens and refills at quota / window per second; a request takes one.
// A check is ONE conditional upsert: the row is refilled and debited in the same statement,
// only if a whole token is there, so concurrent checks on any instance never overspend (the
// row lock serialises them). A refused check reads the level once more to say when to retry.
// Time is the caller's (the injected clock); an instance whose clock lags never refills
// backwards (greatest(0, elapsed)) and never moves `updated_at` back.

export type BucketVerdict =
  | { ok: true; remaining: number; resetSeconds: number }
  | { ok: false; remaining: 0; retryAfterSeconds: number; resetSeconds: number };

const perSecond = (p: RatePolicy) => p.quota / p.windowSeconds;

// Every write takes one or two tokens: the upsert is prepared once per database handle, with
// the policy's numbers as parameters.
const bucketQueries = perDatabase((db: Db) => {
  const b = rateBuckets;
  const at = sql`${sql.placeholder("now")}::timestamptz`;
  const level = sql`least(${sql.placeholder("quota")}::float8, ${b.tokens} + greatest(0, extract(epoch from (${at} - ${b.updatedAt}))) * ${sql.placeholder("rate")}::float8)`;
  return {
    take: db
      .insert(b)
      .values({ key: sql.placeholder("key"), tokens: sql`${sql.placeholder("quota")}::float8 - 1`, updatedAt: at })
      .onConflictDoUpdate({
        target: b.key,
        set: { tokens: sql`${level} - 1`, updatedAt: sql`greatest(${b.updatedAt}, ${at})` },
        setWhere: sql`${level} >= 1`,
      })
      .returning({ tokens: b.tokens })
      .prepare("oabp_rate_bucket_take"),
    level: db
      .select({ level: sql<number>`${level}` })
      .from(b)
      .where(eq(b.key, sql.placeholder("key")))
      .prepare("oabp_rate_bucket_level"),
  };
});

/** Takes one token from bucket `key` under `policy` at `now`. */
export async function takeToken(db: Db, key: string, policy: RatePolicy, now: Date): Promise<BucketVerdict> {
  const q = bucketQueries(db);
  const params = { key, quota: policy.quota, rate: perSecond(policy), now: now.toISOString() };
  const [row] = await q.take.execute(params);
  if (row)
    return {
      ok: true,
      remaining: Math.floor(row.tokens),
      resetSeconds: secondsUntil(policy, row.tokens, policy.quota),
    };
  return refused(db, { key, policy }, now);
}

/** One bucket of a chained take: its key and policy. */
export interface BucketCheck {
  key: string;
  policy: RatePolicy;
}

/**
 * Takes one token from each bucket in order and stops at the first that has none: each bucket
 * tried with its verdict (the last one refused, or all granted). Two buckets (a signed-in write:
 * the agent's, then its network's) are ONE statement, one round trip: the second upsert runs only
 * when the first granted its token (`where exists`), so a refused agent never spends its
 * network's token. Each upsert locks its row as takeToken's does.
 */
export async function takeTokens<C extends BucketCheck>(
  db: Db,
  checks: readonly C[],
  now: Date,
): Promise<{ check: C; verdict: BucketVerdict }[]> {
  const [first, second] = checks;
  if (!first) return [];
  if (!second || checks.length > 2) {
    const out: { check: C; verdict: BucketVerdict }[] = [];
    for (const check of checks) {
      const verdict = await takeToken(db, check.key, check.policy, now);
      out.push({ check, verdict });
      if (!verdict.ok) break;
    }
    return out;
  }
  const at = now.toISOString();
  const upsert = (c: BucketCheck) => {
    const level = sql`least(${c.policy.quota}::float8, b.tokens + greatest(0, extract(epoch from (${at}::timestamptz - b.updated_at))) * ${perSecond(c.policy)}::float8)`;
    return sql`on conflict (key) do update set tokens = ${level} - 1, updated_at = greatest(b.updated_at, ${at}::timestamptz)
      where ${level} >= 1 returning tokens`;
  };
  const [row] = rowsOf<{ t1: number | null; t2: number | null }>(
    await db.execute(sql`
    with t1 as (
      insert into rate_buckets as b (key, tokens, updated_at)
      values (${first.key}, ${first.policy.quota}::float8 - 1, ${at}::timestamptz) ${upsert(first)}
    ), t2 as (
      insert into rate_buckets as b (key, tokens, updated_at)
      select ${second.key}, ${second.policy.quota}::float8 - 1, ${at}::timestamptz where exists (select 1 from t1)
      ${upsert(second)}
    )
    select (select tokens from t1) as t1, (select tokens from t2) as t2`),
  );
  const granted = (check: C, tokens: number): { check: C; verdict: BucketVerdict } => ({
    check,
    verdict: {
      ok: true,
      remaining: Math.floor(tokens),
      resetSeconds: secondsUntil(check.policy, tokens, check.policy.quota),
    },
  });
  if (row?.t1 == null) return [{ check: first, verdict: await refused(db, first, now) }];
  const v1 = granted(first, Number(row.t1));
  if (row.t2 == null) return [v1, { check: second, verdict: await refused(db, second, now) }];
  return [v1, granted(second, Number(row.t2))];
}

/** The verdict for a bucket that had no whole token: when to retry, from its level now. */
async function refused(db: Db, { key, policy }: BucketCheck, now: Date): Promise<BucketVerdict> {
  const [cur] = await bucketQueries(db).level.execute({
    key,
    quota: policy.quota,
    rate: perSecond(policy),
    now: now.toISOString(),
  });
  const tokens = Number(cur?.level ?? 0);
  return {
    ok: false,
    remaining: 0,
    retryAfterSeconds: Math.max(1, secondsUntil(policy, tokens, 1)),
    resetSeconds: secondsUntil(policy, tokens, policy.quota),
  };
}

/**
 * Gives one token back to bucket `key` (never above `quota`): for a request whose cost turned out
 * not to be the caller's (docs/neighbours.md "Agent Mesh": an invocation the provider never answered).
 */
export async function returnToken(db: Db, key: string, policy: RatePolicy): Promise<void> {
  await db
    .update(rateBuckets)
    .set({ tokens: sql`least(${policy.quota}::float8, ${rateBuckets.tokens} + 1)` })
    .where(eq(rateBuckets.key, key));
}

/** Whole seconds until the bucket holds `target` tokens. */
function secondsUntil(policy: RatePolicy, tokens: number, target: number): number {
  return Math.max(0, Math.ceil((target - tokens) / perSecond(policy)));
}

/**
 * Deletes buckets that are full again by now (they say nothing a missing row does not), in a
 * bounded batch: the table holds only callers active within the longest window.
 */
export async function purgeFullBuckets(
  db: DbOrTx,
  now: Date,
  longestWindowSeconds: number,
  batch = 5000,
): Promise<void> {
  const before = new Date(now.getTime() - longestWindowSeconds * 1000).toISOString();
  await db.execute(
    sql`delete from rate_buckets where key in (select key from rate_buckets where updated_at < ${before}::timestamptz limit ${batch})`,
  );
}
