import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { itemAt } from "../../lib/item-at";
import type { DbOrTx, Tx } from "../../db/client";
import { agents, agentTypeAffinity, ratingHistory, submissions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { type Ctx, type TxCtx } from "../../lib/context";
import { pgCode } from "../../lib/idempotency";
import { DECAY_OWED } from "../../db/write-functions";
import { newId } from "../../lib/ids";
import { DECAY_GRACE_MS, decayWeeks, effectiveRating, WEEK_MS } from "./decay";
import { touchAgent } from "../../db/touch-agent";
import { eloUpdates, kFactor, START_RATING } from "./elo";
import { rowsOf, type MissionRow as Mission } from "../../db/rows";

type AgentRow = typeof agents.$inferSelect;

async function ensureAgents(tx: Tx, ids: string[], now: Date) {
  if (ids.length === 0) return;
  await tx
    .insert(agents)
    .values(ids.map((id) => ({ id, createdAt: now, updatedAt: now })))
    .onConflictDoNothing();
}

/** Locks agent rows FOR UPDATE in address order (the lock order: mission → agents → ledger). */
async function lockAgents(tx: Tx, ids: string[], now: Date): Promise<Map<string, AgentRow>> {
  const sorted = [...new Set(ids)].sort();
  await ensureAgents(tx, sorted, now);
  const rows = await tx.select().from(agents).where(inArray(agents.id, sorted)).orderBy(asc(agents.id)).for("update");
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Writes the decay owed at `now` into the history (AIP-1 §5: history explains every point) and
 * returns the materialised rating. Caller holds the agent row lock.
 */
async function materialise(tx: Tx, a: AgentRow, now: Date): Promise<number> {
  const weeks = decayWeeks({ now }, a.lastActiveAt);
  if (weeks <= a.decayWeeksApplied) return a.rating;
  const after = effectiveRating({ now }, a);
  if (after !== a.rating) {
    await tx.insert(ratingHistory).values({
      id: newId("rtg", now.getTime()),
      agentId: a.id,
      missionId: null,
      kind: "decay",
      outcome: null,
      expected: null,
      k: null,
      opponentRating: null,
      before: a.rating,
      after,
      delta: after - a.rating,
      at: now,
    });
  }
  await tx
    .update(agents)
    .set({ rating: after, decayWeeksApplied: weeks, ...(after !== a.rating && { ratingUpdatedAt: now }) })
    .where(eq(agents.id, a.id));
  a.rating = after;
  a.decayWeeksApplied = weeks;
  return after;
}

/** The decay window as a write function takes it (oabp_agent_active's last two arguments). */
export const DECAY_WINDOW = { decay_grace_ms: DECAY_GRACE_MS, week_ms: WEEK_MS };

/** The fast path, one statement: `oabp_agent_active` (drizzle/0042_writes_sql_functions.sql); false when decay is owed. */
async function agentActive(tx: Tx, agentId: string, now: Date, seen = false): Promise<boolean> {
  const [row] = rowsOf<{ ok: boolean }>(
    await tx.execute(
      sql`select oabp_agent_active(${agentId}, ${now.toISOString()}::timestamptz, ${seen}, ${DECAY_GRACE_MS}::bigint, ${WEEK_MS}::bigint) as ok`,
    ),
  );
  return row?.ok === true;
}

/**
 * Activity (submitting, voting, creating, committing) restarts the decay clock, after writing
 * the decay owed so far. Runs inside the caller's transaction. `seen`: the agent is also marked
 * seen (touchAgent), in the same statement.
 * When no decay is owed (the common case: active within the grace period and the weeks already
 * written) this is ONE statement (`agentActive`): nothing when the agent was active (and seen)
 * within the last minute (docs/decisions.md "Activity once a minute"), else an upsert that creates
 * the row or locks it and restarts the clock. Otherwise the decay is written first, under the row lock.
 */
export async function recordActivity(
  { tx, now }: Pick<TxCtx, "tx" | "now">,
  { agentId, seen }: { agentId: string; seen?: boolean },
): Promise<void> {
  if (await agentActive(tx, agentId, now, seen)) return;
  if (seen) await touchAgent(tx, agentId, now);
  const row = (await lockAgents(tx, [agentId], now)).get(agentId)!;
  await materialise(tx, row, now);
  await tx.update(agents).set({ lastActiveAt: now, decayWeeksApplied: 0 }).where(eq(agents.id, agentId));
}

/**
 * ELO for one resolved mission (AIP-1 §5), inside the resolution's transaction and BEFORE its
 * ledger transfer (lock order). Every distinct submitter gets one outcome: 1 if one of their
 * submissions won, 0.5 if partial (a default award share, or peer_vote runner-up), else 0.
 * Voided missions never come here.
 */
export async function applyResolution(
  ctx: TxCtx,
  outcomes: {
    mission: Mission;
    winners: string[];
    winnerOutcome: 1 | 0.5;
    partialSubmissionIds: string[];
    paid: string[];
  },
): Promise<void> {
  const { tx, deps, now } = ctx;
  const m = outcomes.mission;
  const subs = await tx
    .select({ id: submissions.id, submitter: submissions.submitter })
    .from(submissions)
    .where(eq(submissions.missionId, m.id));
  const bySubmitter = new Map<string, 1 | 0.5 | 0>();
  const winning = new Set(outcomes.winners);
  const partial = new Set(outcomes.partialSubmissionIds);
  for (const s of subs) {
    if (s.submitter === m.creator) continue; // AIP-3 §3.1: a self-submission is never rated
    const o: 1 | 0.5 | 0 = winning.has(s.id) ? outcomes.winnerOutcome : partial.has(s.id) ? 0.5 : 0;
    bySubmitter.set(s.submitter, Math.max(bySubmitter.get(s.submitter) ?? 0, o) as 1 | 0.5 | 0);
  }
  if (bySubmitter.size === 0) return;
  const locked = await lockAgents(tx, [...bySubmitter.keys()], now);
  const participants = [];
  for (const [agentId, outcome] of bySubmitter)
    participants.push({ agentId, outcome, rating: await materialise(tx, locked.get(agentId)!, now) });
  const asset = deps.config.assets.find((a) => a.symbol === m.rewardAsset);
  const k = asset ? kFactor(BigInt(m.rewardAmount), asset) : 32;
  const paid = new Set(outcomes.paid);
  for (const c of eloUpdates(participants, k)) {
    await tx.insert(ratingHistory).values({
      id: newId("rtg", now.getTime()),
      agentId: c.agentId,
      missionId: m.id,
      kind: c.outcome === 1 ? "win" : c.outcome === 0.5 ? "partial" : "loss",
      outcome: c.outcome,
      expected: c.expected,
      k: c.k,
      opponentRating: c.opponent,
      before: c.before,
      after: c.after,
      delta: c.delta,
      at: now,
    });
    await tx
      .update(agents)
      .set({
        rating: c.after,
        ratingUpdatedAt: now,
        missionsAttempted: sql`${agents.missionsAttempted} + 1`,
        missionsCompleted: paid.has(c.agentId)
          ? sql`${agents.missionsCompleted} + 1`
          : sql`${agents.missionsCompleted}`,
      })
      .where(eq(agents.id, c.agentId));
  }
  await applyTypeAffinity(tx, { mission: m, now, k, participants, paid });
}

/**
 * AIP-3 App. B per-type reputation: the same ELO rule as the global rating, over the
 * participants' ratings in this mission's AIP-2 type (1400 for a type never rated), written in the
 * resolution's transaction under the agent row locks applyResolution holds (so no lock of its own).
 */
async function applyTypeAffinity(
  tx: Tx,
  input: {
    mission: Mission;
    now: Date;
    k: number;
    participants: { agentId: string; outcome: 1 | 0.5 | 0 }[];
    paid: Set<string>;
  },
): Promise<void> {
  const { mission: m, now, k, participants, paid } = input;
  const ids = participants.map((p) => p.agentId);
  const held = await tx
    .select({ agentId: agentTypeAffinity.agentId, elo: agentTypeAffinity.elo })
    .from(agentTypeAffinity)
    .where(and(inArray(agentTypeAffinity.agentId, ids), eq(agentTypeAffinity.missionType, m.missionType)));
  const elo = new Map(held.map((h) => [h.agentId, h.elo]));
  const changes = eloUpdates(
    participants.map((p) => ({ agentId: p.agentId, outcome: p.outcome, rating: elo.get(p.agentId) ?? START_RATING })),
    k,
  );
  for (const c of changes) {
    const won = paid.has(c.agentId) ? 1 : 0;
    await tx
      .insert(agentTypeAffinity)
      .values({
        agentId: c.agentId,
        missionType: m.missionType,
        elo: c.after,
        completions: won,
        attempts: 1,
        lastActive: now,
      })
      .onConflictDoUpdate({
        target: [agentTypeAffinity.agentId, agentTypeAffinity.missionType],
        set: {
          elo: c.after,
          completions: sql`${agentTypeAffinity.completions} + ${won}`,
          attempts: sql`${agentTypeAffinity.attempts} + 1`,
          lastActive: now,
        },
      });
  }
}

/**
 * `mission_type_affinity` (AIP-3 App. B): for each AIP-2 type with at least one completion, the
 * agent's per-type ELO, completions and last activity in that type, keyed by type id.
 */
export async function typeAffinity(
  db: DbOrTx,
  agentId: string,
): Promise<Record<string, { elo: number; completions: number; last_active: string }>> {
  const rows = await db
    .select()
    .from(agentTypeAffinity)
    .where(and(eq(agentTypeAffinity.agentId, agentId), gt(agentTypeAffinity.completions, 0)))
    .orderBy(asc(agentTypeAffinity.missionType))
    .limit(256);
  return Object.fromEntries(
    rows.map((r) => [
      r.missionType,
      { elo: r.elo, completions: r.completions, last_active: r.lastActive.toISOString() },
    ]),
  );
}

/** AIP-4 §6.3: the rating points a rejected dispute costs its (signed-in) filer. */
export const REJECTED_DISPUTE_PENALTY = 5;

/**
 * AIP-4 §6.3: −5 to the filer of a rejected dispute, floor 0, written to the rating history as a
 * `dispute_rejected` entry naming the mission (the record attestations count, AIP-3 §2), in the
 * ruling's transaction. Locks the agent row (after the dispute row the caller holds; no ledger).
 */
export async function applyDisputePenalty(
  { tx, now }: Pick<TxCtx, "tx" | "now">,
  { agentId, missionId }: { agentId: string; missionId: string },
): Promise<{ before: number; after: number }> {
  const changed = await adjustRatings(tx, { missionId, kind: "dispute_rejected", now }, [
    { agentId, delta: -REJECTED_DISPUTE_PENALTY },
  ]);
  return itemAt(changed, 0, "rating change");
}

/** AIP-4 §7.4: what an upheld cross-server dispute gives its filer and costs the mission's creator. */
const UPHELD_DISPUTE_FILER_GAIN = 2;
const UPHELD_DISPUTE_CREATOR_PENALTY = 10;

/**
 * AIP-4 §7.4 on this hub: +2 to the (cross-server) filer and −10 to the creator of the mission, each
 * a `dispute_upheld` rating-history entry naming the mission, floor 0, in the ruling's transaction.
 */
export async function applyUpheldDispute(
  { tx, now }: Pick<TxCtx, "tx" | "now">,
  input: { filer: string; creator: string; missionId: string },
): Promise<{ filer: { before: number; after: number }; creator: { before: number; after: number } }> {
  const changed = await adjustRatings(tx, { missionId: input.missionId, kind: "dispute_upheld", now }, [
    { agentId: input.filer, delta: UPHELD_DISPUTE_FILER_GAIN },
    { agentId: input.creator, delta: -UPHELD_DISPUTE_CREATOR_PENALTY },
  ]);
  return { filer: itemAt(changed, 0, "rating change"), creator: itemAt(changed, 1, "rating change") };
}

/**
 * Rating points a dispute ruling moves (AIP-4 §6.3, §7.4): each agent's owed decay first, then the
 * change, floor 0, as one history entry each. Locks the agents' rows in id order (after the dispute
 * row the caller holds; no ledger).
 */
async function adjustRatings(
  tx: Tx,
  entry: { missionId: string; kind: "dispute_rejected" | "dispute_upheld"; now: Date },
  changes: { agentId: string; delta: number }[],
): Promise<{ before: number; after: number }[]> {
  const { now } = entry;
  const locked = await lockAgents(
    tx,
    changes.map((c) => c.agentId),
    now,
  );
  const out: { before: number; after: number }[] = [];
  for (const { agentId, delta } of changes) {
    const before = await materialise(tx, locked.get(agentId)!, now);
    const after = Math.max(0, before + delta);
    await tx.insert(ratingHistory).values({
      id: newId("rtg", now.getTime()),
      agentId,
      missionId: entry.missionId,
      kind: entry.kind,
      outcome: null,
      expected: null,
      k: null,
      opponentRating: null,
      before,
      after,
      delta: after - before,
      at: now,
    });
    await tx.update(agents).set({ rating: after, ratingUpdatedAt: now }).where(eq(agents.id, agentId));
    out.push({ before, after });
  }
  return out;
}

/**
 * Periodic job: writes owed decay (bounded batch), so history stays current and the stored rating
 * stays the visible one (the lists read it from the rating index). Found by the decay_due_at index:
 * the cost is the rows that fell due, never a scan of all agents.
 */
export async function materialiseDecayBatch(deps: Deps, batch = 200): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.database.db
    .select({ id: agents.id })
    .from(agents)
    .where(lte(agents.decayDueAt, now))
    .orderBy(asc(agents.decayDueAt))
    .limit(batch);
  for (const a of due) await materialiseDecay({ deps, now }, a.id);
  return due.length;
}

/**
 * Runs a write function's statement for `agentId` (`run`); when it raised decay owed (OB002,
 * nothing written) the decay is written in a transaction of its own and the statement runs once
 * more. Every other failure goes through `refused` (the verb's own errors). Inside a caller's
 * transaction the failure has aborted it: passed on.
 */
export async function withDecayWritten<T>(
  ctx: Pick<Ctx, "deps" | "now" | "tx">,
  { agentId, run, refused }: { agentId: string; run: () => Promise<T>; refused: (e: unknown) => unknown },
): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (pgCode(e) !== DECAY_OWED || ctx.tx) throw refused(e);
  }
  await materialiseDecay(ctx, agentId);
  return run().catch((again: unknown) => {
    throw refused(again);
  });
}

/** The decay `agentId` owes at `now`, written in a transaction of its own. */
async function materialiseDecay({ deps, now }: Pick<TxCtx, "deps" | "now">, agentId: string): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const row = (await lockAgents(tx, [agentId], now)).get(agentId)!;
    await materialise(tx, row, now);
  });
}
