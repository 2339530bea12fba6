import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { submissions } from "../db/schema/index";
import type { Deps } from "../deps";
import { registrableDomain } from "../lib/host-key";
import { rowsOf, type SubmissionRow } from "../db/rows";

/** Checks in flight at once for one submitter, across every server process. */
const CHECK_PER_SUBMITTER = 2;
/** Checks in flight at once against one host (registrable domain), across every server process. */
export const CHECK_PER_HOST = 2;

// The verification pipeline's queue.
// Due checks live in the submissions table (next_check_at); a worker claims ONE at a time with a
// lease. The claim is fair and capped:
// - fresh work first: fewer attempts before more (a host that timed out waits its backoff and then
//   queues behind first attempts);
// - round-robin across missions and submitters: a check ranks by its place in its mission's and its
//   submitter's queue, counting their checks already in flight, so the n-th check of a mission or
//   of a submitter waits behind every other mission's and submitter's (n-1)-th; a first check's
//   place in its mission counts first checks only, so other submitters' retries (due or in
//   flight) never rank an honest submitter's first check later (docs/abuse.md "Resolver");
// - at most CHECK_PER_HOST leases on one host and CHECK_PER_SUBMITTER on one submitter,
//   counted over every server process (leases are rows), so one slow host or one busy agent can
//   hold only that many workers.
// Claims are serialised by a transaction-scoped advisory lock: the cap counts and the claim are
// one atomic step across processes, and the claim transaction holds no row locks while fetching.

/** A claimed check is retried by anyone after this lease (covers a crash mid-fetch). */
const LEASE_MS = 60_000;
/** Due checks considered per claim: bounds the ranking query whatever the backlog. */
const CLAIM_WINDOW = 500;
const CLAIM_LOCK = 727_275; // pg_advisory_xact_lock key of the claim step

/**
 * The bucket a check of this deliverable counts against: the registrable part of the host it
 * connects to first (the content's host when remote, else the predicate's), or null for local
 * content without a predicate (nothing to fetch). Registrable by the Public Suffix List
 * (lib/host-key.ts): subdomains are free, so j1.evil.example … j50.evil.example share one cap,
 * while alice.github.io and bob.github.io do not. IP literals are their own bucket; ipfs:// is
 * bucketed per CID (the gateway is the operator's).
 */
export function checkHostOf(contentUri: string, predicateUri?: string): string | null {
  const uri = contentUri.startsWith("data:") ? predicateUri : contentUri;
  if (uri === undefined) return null;
  try {
    const u = new URL(uri);
    if (u.protocol === "ipfs:") return `ipfs/${u.hostname}`;
    return registrableDomain(u.hostname);
  } catch {
    return null;
  }
}

/** Claims the next due check fairly, or undefined when nothing due is under its caps. */
export async function claimNextCheck(deps: Deps): Promise<SubmissionRow | undefined> {
  const now = deps.clock.now();
  const at = now.toISOString();
  return deps.database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
    const picked = rowsOf<{ id: string }>(
      await tx.execute(sql`
      with inflight as (
        select mission_id, submitter, check_host, check_attempts from submissions
        where check_claimed_until > ${at}::timestamptz
      ), cand as (
        -- First checks and retries each have their own window: no backlog of retries, however
        -- old, keeps a first check out of sight.
        (select id, mission_id, submitter, check_host, check_attempts, next_check_at, seq from submissions
        where next_check_at <= ${at}::timestamptz and check_result is null and status = 'pending'
          and check_attempts = 0
        order by next_check_at, id limit ${CLAIM_WINDOW})
        union all
        (select id, mission_id, submitter, check_host, check_attempts, next_check_at, seq from submissions
        where next_check_at <= ${at}::timestamptz and check_result is null and status = 'pending'
          and check_attempts > 0
        order by next_check_at, id limit ${CLAIM_WINDOW})
      ), ranked as (
        select c.id, c.check_attempts, c.next_check_at,
          row_number() over (partition by c.mission_id, c.check_attempts = 0 order by c.next_check_at, c.seq)
            + (select count(*) from inflight i where i.mission_id = c.mission_id
                and (c.check_attempts > 0 or i.check_attempts <= 1)) as rm,
          row_number() over (partition by c.submitter order by c.next_check_at, c.seq)
            + (select count(*) from inflight i where i.submitter = c.submitter) as rs
        from cand c
        where (select count(*) from inflight i where i.check_host is not distinct from c.check_host) < ${CHECK_PER_HOST}
          and (select count(*) from inflight i where i.submitter = c.submitter) < ${CHECK_PER_SUBMITTER}
      )
      select id from ranked order by check_attempts, greatest(rm, rs), next_check_at, id limit 1`),
    );
    const id = picked[0]?.id;
    if (id === undefined) return undefined;
    const lease = new Date(now.getTime() + LEASE_MS);
    const [claimed] = await tx
      .update(submissions)
      .set({ nextCheckAt: lease, checkClaimedUntil: lease, checkAttempts: sql`${submissions.checkAttempts} + 1` })
      .where(
        and(
          eq(submissions.id, id),
          lte(submissions.nextCheckAt, now),
          isNull(submissions.checkResult),
          eq(submissions.status, "pending"),
        ),
      )
      .returning();
    return claimed;
  });
}
