import { and, eq, ne, sql, type SQL } from "drizzle-orm";
import { disputes, submissions } from "../../db/schema/index";
import type { Tx } from "../../db/client";
import type { TxCtx } from "../../lib/context";
import type { DisputeType } from "../manifest";
import { AppError } from "../../lib/errors";
import { refuse, type Filer, type Mission } from "./disputes.qualify";

// Disputes per mission are bounded (AIP-4 §6) in pools, so that free identities and addresses
// cannot buy the parties' share (docs/aip-3-4.md "Dispute pools"):
//  - each party of the mission (its creator, every submitter, so every winner) has its own share,
//    PARTY_OPEN open at once and PARTY_TOTAL in all, counted over its own filings only;
//  - everyone else shares the public pool (DISPUTES_MAX_OPEN_PER_MISSION open,
//    DISPUTES_MAX_PER_MISSION in all), and anonymous filings have their own smaller pool
//    inside it (a fifth of the open bound, a quarter of the lifetime bound); an anonymous filing
//    that was rejected or expired no longer counts toward the lifetime bounds;
//  - non_payment is never refused by a per-mission bound: only the winner who was not paid can
//    file it (§1.1), and §6.1's per-filer limit bounds it.

/** A party's own share of one mission's disputes. */
export const PARTY_OPEN = 5;
const PARTY_TOTAL = 20;
/** The public pool: open disputes one mission may carry at once from non-parties (429 until one is decided). */
const DISPUTES_MAX_OPEN_PER_MISSION = 50;
/** The public pool: disputes one mission may ever carry from non-parties, decided ones included (422 `mission_dispute_limit`). */
const DISPUTES_MAX_PER_MISSION = 200;
/** The anonymous pool, as a fraction of the public bounds (at least one of each). */
const anonymousBounds = (maxOpen: number, maxTotal: number) => ({
  open: Math.max(1, Math.floor(maxOpen / 5)),
  total: Math.max(1, Math.floor(maxTotal / 4)),
});

/** 429 outcome of §6.1 and of the open bounds, carried to the router (which writes the AIP-4 body). */
export class DisputeRateLimited extends AppError {
  constructor(
    readonly resetAt: Date,
    readonly disputeType: DisputeType,
  ) {
    // AIP-4 §6.1: the limit and when it resets (REST shapes its own 429 body, disputes.index.ts).
    super("RATE_LIMITED", "dispute filing limit reached (AIP-4 §6.1)", {
      reset_at: resetAt.toISOString(),
      dispute_type: disputeType,
    });
  }
}

type Counts = { open: number; total: number; firstDeadline: string | null };

/** A pool's bounds: at most `open` filings pending, at most `total` ever. */
type Bound = { open: number; total: number; pool: string };

function enforce(c: Counts, bound: Bound, t: DisputeType, m: Mission) {
  const { pool } = bound;
  if (c.total >= bound.total)
    throw refuse("mission_dispute_limit", {
      message: `mission ${m.id} carries ${bound.total} ${pool} disputes, the most it may`,
      limit: bound.total,
      pool,
    });
  if (c.open >= bound.open) throw new DisputeRateLimited(new Date(c.firstDeadline!), t);
}

/** Whether the filer is a party of the mission: its creator or one of its submitters. */
async function isParty(tx: Tx, m: Mission, filer: Filer): Promise<boolean> {
  if (!("address" in filer)) return false;
  if (filer.address === m.creator) return true;
  const [s] = await tx
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.missionId, m.id), eq(submissions.submitter, filer.address)))
    .limit(1);
  return s !== undefined;
}

/** Rows that are not a party's filing: neither the creator's nor a submitter's. */
const notParty = (m: Mission) =>
  sql`${disputes.filerBucket} <> ${m.creator} and not exists (select 1 from submissions s where s.mission_id = ${m.id} and s.submitter = ${disputes.filerBucket})`;
const anonymous = sql`${disputes.filerBucket} like 'anon:%'`;
/** An anonymous filing that lost or lapsed counts no more toward a lifetime bound. */
const counted = sql`not (${anonymous} and coalesce(${disputes.outcome} in ('rejected', 'expired'), false))`;

async function poolCounts(tx: Tx, m: Mission, where: SQL): Promise<Counts> {
  const [c] = await tx
    .select({
      open: sql<number>`(count(*) filter (where ${disputes.status} = 'open'))::int`,
      total: sql<number>`(count(*) filter (where ${counted}))::int`,
      firstDeadline: sql<string | null>`min(${disputes.resolutionDeadline}) filter (where ${disputes.status} = 'open')`,
    })
    .from(disputes)
    .where(and(eq(disputes.missionId, m.id), ne(disputes.disputeType, "non_payment"), where));
  return { open: c?.open ?? 0, total: c?.total ?? 0, firstDeadline: c?.firstDeadline ?? null };
}

/**
 * The per-mission bounds of a new filing, in its pool. Caller holds the mission's filing lock, so
 * racing filings from many filers and instances count exactly.
 */
export async function boundPerMission(
  { tx, deps }: Pick<TxCtx, "tx" | "deps">,
  { m, filer, bucket, t }: { m: Mission; filer: Filer; bucket: string; t: DisputeType },
): Promise<void> {
  if (t === "non_payment") return;
  if (await isParty(tx, m, filer)) {
    const own = await poolCounts(tx, m, eq(disputes.filerBucket, bucket));
    return enforce(own, { open: PARTY_OPEN, total: PARTY_TOTAL, pool: "party" }, t, m);
  }
  const maxOpen = deps.limits?.disputesMaxOpenPerMission ?? DISPUTES_MAX_OPEN_PER_MISSION;
  const maxTotal = deps.limits?.disputesMaxPerMission ?? DISPUTES_MAX_PER_MISSION;
  enforce(await poolCounts(tx, m, notParty(m)), { open: maxOpen, total: maxTotal, pool: "public" }, t, m);
  if ("anonymousIp" in filer)
    enforce(await poolCounts(tx, m, anonymous), { ...anonymousBounds(maxOpen, maxTotal), pool: "anonymous" }, t, m);
}
