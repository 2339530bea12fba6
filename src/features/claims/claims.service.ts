import { and, inArray, asc, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/client";
import type { Deps } from "../../deps";
import { missionClaims, missions } from "../../db/schema/index";
import { agentOf, type Ctx, dbOf, viewerOf, withTx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { touchAgent } from "../../db/touch-agent";
import { assertVisible, findVisibleMission, lockMission } from "../../db/mission-visibility";
import type { ClaimListWire, ClaimWire } from "./claims.schemas";
import { claimToWire, type ClaimRow } from "./claims.wire";
import { assertNotSuspended } from "../../db/suspension";
import { checkEligibility, findMissionForActor } from "../missions";
import { pipelined } from "../../db/pipelined";
import { decodeIdCursor, keysetPage } from "../../lib/cursor";

// Mission claims (docs/decisions.md "Claims"): a visible, expiring intent to work. A claim never changes
// who may submit or be paid — the verification method alone decides that.

/** Active claims one agent may hold at once, across missions (409 `claim_limit`). */
const CLAIM_MAX_PER_AGENT = 20;

const at = (ms: number) => new Date(ms);
const minDate = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/** The claims of a mission that are active at `now` (the stored status alone may lag the clock). */
const activeOf = (missionId: string, now: Date) =>
  and(eq(missionClaims.missionId, missionId), eq(missionClaims.status, "active"), gt(missionClaims.expiresAt, now));

/** Active claims of one mission, counted with the clock. */
export async function countActiveClaims(
  { now }: Pick<Ctx, "now">,
  { db, missionId }: { db: DbOrTx; missionId: string },
): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(missionClaims)
    .where(activeOf(missionId, now));
  return Number(r?.n ?? 0);
}

/**
 * Active claims an agent holds on open missions (the per-agent cap; also the hook for ADP
 * availability, which counts an agent's active claims).
 */
async function activeClaimsOfAgent(
  { now }: Pick<Ctx, "now">,
  { db, agentId }: { db: DbOrTx; agentId: string },
): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(missionClaims)
    .innerJoin(missions, eq(missions.id, missionClaims.missionId))
    .where(
      and(
        eq(missionClaims.agentId, agentId),
        eq(missionClaims.status, "active"),
        gt(missionClaims.expiresAt, now),
        eq(missions.status, "open"),
      ),
    );
  return Number(r?.n ?? 0);
}

/** Active claims on open missions per agent, for many agents in one grouped read (ADP availability). */
export async function activeClaimsOfAgents(
  { now }: Pick<Ctx, "now">,
  { db, agentIds }: { db: DbOrTx; agentIds: readonly string[] },
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (agentIds.length === 0) return out;
  const rows = await db
    .select({ agentId: missionClaims.agentId, n: sql<number>`count(*)::int` })
    .from(missionClaims)
    .innerJoin(missions, eq(missions.id, missionClaims.missionId))
    .where(
      and(
        inArray(missionClaims.agentId, [...agentIds]),
        eq(missionClaims.status, "active"),
        gt(missionClaims.expiresAt, now),
        eq(missions.status, "open"),
      ),
    )
    .groupBy(missionClaims.agentId);
  for (const r of rows) out.set(r.agentId, Number(r.n));
  return out;
}

const heldElsewhere = (m: { exclusiveHolder: string | null; exclusiveUntil: Date | null }, caller: string, now: Date) =>
  m.exclusiveHolder !== null &&
  m.exclusiveHolder !== caller &&
  m.exclusiveUntil !== null &&
  m.exclusiveUntil.getTime() > now.getTime();

function exclusivelyClaimed(until: Date): AppError {
  return new AppError("CONFLICT", "another agent holds this mission exclusively; claim again after the window", {
    reason: "exclusively_claimed",
    held_until: until.toISOString(),
  });
}

/**
 * POST /missions/{id}/claims: claim an open mission, or renew one's active claim (a new expiry,
 * same claim, no new exclusive window). Locking: the mission row (FOR UPDATE) serialises claims
 * and releases of one mission, so the counts read below are exact; the exclusive hold is then
 * written by a compare-and-set UPDATE (holder empty, expired, or the caller), so two claimers can
 * never both hold it. The per-agent cap is counted under the agent row lock (the upsert takes it;
 * lock order mission → agent, as everywhere). One transaction in two round trips (docs/decisions/storage.md
 * "Writes in few round trips"): the locks and counts, then the claim and the hold.
 */
export async function claimMission(
  ctx: Ctx,
  { missionId }: { missionId: string },
): Promise<{ created: boolean; claim: ClaimWire }> {
  const { deps, now } = ctx;
  const caller = agentOf(ctx);
  // Suspension answers before the mission's own refusals (docs/moderation.md "Suspension"); it is
  // checked again inside the transaction, where it cannot race a suspension being committed.
  await assertNotSuspended(dbOf(ctx), caller, now);
  const seen = assertVisible(await findMissionForActor(ctx, { id: missionId, actor: caller }), missionId, caller);
  if (seen.creator === caller)
    throw new AppError("FORBIDDEN", "a creator cannot claim their own mission", { reason: "own_mission" });
  // The mission's eligibility, the same check as at submission.
  await checkEligibility(ctx, { mission: seen, actor: caller });

  return withTx(ctx, async (tx) => {
    const [, m, counts, , held] = await pipelined(
      () => assertNotSuspended(tx, caller, now), // docs/moderation.md "Suspension"
      () => lockMission(tx, missionId),
      () => claimCounts(tx, missionId, caller, now),
      () => touchAgent(tx, caller, now, false), // ensures the row exists and locks it
      () => activeClaimsOfAgent({ now }, { db: tx, agentId: caller }),
    );
    const terms = claimTerms(deps, { locked: m, caller, now, counts, held });
    const claim = { missionId, caller, now, expiresAt: terms.expiresAt, exclusiveUntil: terms.exclusiveUntil };
    const [row, cas] = await pipelined(
      () => (terms.renewing ? renew(tx, claim) : insertClaim(tx, claim)),
      () => holdMission(tx, { ...claim, claimCount: counts.others + 1 }),
    );
    if (!cas) throw exclusivelyClaimed(m?.exclusiveUntil ?? now); // rolls the claim back
    return { created: !terms.renewing, claim: claimToWire({ now }, row) };
  });
}

/** The mission's active claims under its lock: other agents', and whether the caller holds one. */
async function claimCounts(tx: Tx, missionId: string, caller: string, now: Date) {
  const [c] = await tx
    .select({
      others: sql<number>`(count(*) filter (where ${missionClaims.agentId} <> ${caller}))::int`,
      mine: sql<number>`(count(*) filter (where ${missionClaims.agentId} = ${caller}))::int`,
    })
    .from(missionClaims)
    .where(activeOf(missionId, now));
  return { others: Number(c?.others ?? 0), renewing: Number(c?.mine ?? 0) > 0 };
}

type Locked = Awaited<ReturnType<typeof lockMission>>;
interface Counts {
  others: number;
  renewing: boolean;
}

/** Refuses a claim of a mission that is not open, held exclusively by another, or full, or past the caller's cap. */
function assertClaimable({
  m,
  caller,
  now,
  counts: { others, renewing },
  held,
  cap,
}: {
  m: Locked;
  caller: string;
  now: Date;
  counts: Counts;
  held: number;
  cap: number;
}) {
  if (!m || m.status !== "open" || m.deadline.getTime() <= now.getTime()) {
    throw new AppError("MISSION_NOT_OPEN", "only an open mission before its deadline can be claimed", {
      status: m?.status ?? null,
      deadline: m?.deadline.toISOString() ?? null,
    });
  }
  if (heldElsewhere(m, caller, now)) throw exclusivelyClaimed(m.exclusiveUntil!);
  if (renewing) return m;
  if (m.maxClaims !== null && others >= m.maxClaims) {
    throw new AppError("CONFLICT", `this mission takes at most ${m.maxClaims} active claims`, {
      reason: "max_claims_reached",
      max_claims: m.maxClaims,
    });
  }
  if (held >= cap) {
    throw new AppError("CONFLICT", `an agent holds at most ${cap} active claims; release one first`, {
      reason: "claim_limit",
      limit: cap,
    });
  }
  return m;
}

/**
 * Whether the caller may claim (or renew) now, and the claim's terms: its expiry, never past the
 * submission window, and the exclusive window of the first claimer of a mission with
 * exclusive_claim_ttl (no other active claim).
 */
function claimTerms(
  { config, limits }: Pick<Deps, "config" | "limits">,
  { locked, caller, now, counts, held }: { locked: Locked; caller: string; now: Date; counts: Counts; held: number },
) {
  const cap = limits?.claimMaxPerAgent ?? CLAIM_MAX_PER_AGENT;
  const m = assertClaimable({ m: locked, caller, now, counts, held, cap });
  const expiresAt = minDate(at(now.getTime() + config.claimTtlSeconds * 1000), m.deadline);
  const exclusiveUntil =
    !counts.renewing && m.exclusiveClaimTtl !== null && counts.others === 0
      ? minDate(at(now.getTime() + m.exclusiveClaimTtl * 1000), expiresAt)
      : null;
  return { renewing: counts.renewing, expiresAt, exclusiveUntil };
}

/** The claim being written: whose, on which mission, when, and its terms (claimTerms). */
interface Claim {
  missionId: string;
  caller: string;
  now: Date;
  expiresAt: Date;
  exclusiveUntil: Date | null;
}

/** The claim count, and the exclusive hold by compare-and-set: undefined when another agent holds it. */
async function holdMission(
  tx: Tx,
  { missionId, caller, now, claimCount, exclusiveUntil }: Claim & { claimCount: number },
) {
  const [cas] = await tx
    .update(missions)
    .set({ claimCount, ...(exclusiveUntil && { exclusiveHolder: caller, exclusiveUntil }) })
    .where(
      and(
        eq(missions.id, missionId),
        or(isNull(missions.exclusiveHolder), lte(missions.exclusiveUntil, now), eq(missions.exclusiveHolder, caller)),
      ),
    )
    .returning({ id: missions.id });
  return cas;
}

async function renew(tx: Tx, { missionId, caller, now, expiresAt }: Claim): Promise<ClaimRow> {
  const [row] = await tx
    .update(missionClaims)
    .set({ renewedAt: now, expiresAt })
    .where(and(activeOf(missionId, now), eq(missionClaims.agentId, caller)))
    .returning();
  if (!row) throw new AppError("INTERNAL_ERROR", "the active claim vanished under the mission lock");
  return row;
}

/** A fresh claim; a released or expired one of the same pair is replaced (new id: a new place in line). */
async function insertClaim(tx: Tx, { missionId, caller, now, expiresAt, exclusiveUntil }: Claim): Promise<ClaimRow> {
  const fresh = {
    id: newId("clm", now.getTime()),
    status: "active" as const,
    claimedAt: now,
    renewedAt: null,
    expiresAt,
    exclusiveUntil,
    endedAt: null,
  };
  const [row] = await tx
    .insert(missionClaims)
    .values({ missionId, agentId: caller, ...fresh })
    .onConflictDoUpdate({ target: [missionClaims.missionId, missionClaims.agentId], set: fresh })
    .returning();
  return row!;
}

/**
 * DELETE /missions/{id}/claims: the caller releases its active claim (and the exclusive hold, if
 * it is the holder). Same mission row lock as claiming, so the count stays exact.
 */
export async function releaseClaim(ctx: Ctx, { missionId }: { missionId: string }): Promise<void> {
  const { now } = ctx;
  const caller = agentOf(ctx);
  await findVisibleMission(ctx, missionId, caller);
  await withTx(ctx, async (tx) => {
    const locked = await lockMission(tx, missionId);
    const m = locked && { holder: locked.exclusiveHolder };
    const [released] = await tx
      .update(missionClaims)
      .set({ status: "released", endedAt: now })
      .where(and(activeOf(missionId, now), eq(missionClaims.agentId, caller)))
      .returning({ id: missionClaims.id });
    if (!released)
      throw new AppError("NOT_FOUND", "you hold no active claim on this mission", { reason: "no_active_claim" });
    const n = await countActiveClaims({ now }, { db: tx, missionId });
    await tx
      .update(missions)
      .set({ claimCount: n, ...(m?.holder === caller && { exclusiveHolder: null, exclusiveUntil: null }) })
      .where(eq(missions.id, missionId));
  });
}

/** GET /missions/{id}/claims: active claims (first claimer first) and the hold in force, by the clock. */
export async function listClaims(
  ctx: Ctx,
  q: { missionId: string; limit: number; cursor?: string | undefined },
): Promise<ClaimListWire> {
  const { now } = ctx;
  const { missionId } = q;
  const m = await findVisibleMission(ctx, missionId, viewerOf(ctx));
  const after = decodeIdCursor(q.cursor, "clm");
  const open = m.status === "open";
  const db = dbOf(ctx);
  const [rows, count] = open
    ? await Promise.all([
        db
          .select()
          .from(missionClaims)
          .where(after ? and(activeOf(missionId, now), gt(missionClaims.id, after)) : activeOf(missionId, now))
          .orderBy(asc(missionClaims.id))
          .limit(q.limit + 1),
        countActiveClaims({ now }, { db, missionId }),
      ])
    : [[], 0];
  const { page, next_cursor } = keysetPage(rows, q.limit);
  const held =
    open && m.exclusiveHolder !== null && m.exclusiveUntil !== null && m.exclusiveUntil.getTime() > now.getTime();
  return {
    mission_id: missionId,
    claim_count: count,
    max_claims: m.maxClaims,
    exclusive_claim_ttl: m.exclusiveClaimTtl,
    exclusive: held ? { agent_id: m.exclusiveHolder!, until: m.exclusiveUntil!.toISOString() } : null,
    claims: page.map((r) => claimToWire({ now }, r)),
    next_cursor,
  };
}
