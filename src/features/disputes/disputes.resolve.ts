import { and, asc, eq, lte, sql } from "drizzle-orm";
import { disputeToWire, type Row } from "./disputes.wire";
import type { Tx } from "../../db/client";
import { disputes, missions } from "../../db/schema/index";
import { dbOf, withTx, type Ctx, type TxCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { disputeKey } from "./disputes.ids";
import type { DisputeType } from "../manifest";
import { applyDisputePenalty, applyUpheldDispute, REJECTED_DISPUTE_PENALTY } from "../reputation";
import { invalidateRule, paySplit, retrySettlement } from "./disputes.corrective";
import { EXPIRED_UPHOLDS } from "./disputes.rules";
import { applyAlternateReading, readAlternateOracle, type AlternateReading } from "../verification";
import type { DisputeWire, SplitShareInput } from "./disputes.schemas";
import { findMission } from "../../db/rows";
type Ruling = {
  outcome: "upheld" | "rejected" | "split" | "expired";
  actor: "server" | "oracle" | "peer_vote" | "creator";
  rationale: string;
  /** `split`: the submissions paid and their shares (bps of the reward net of the fee). */
  split?: SplitShareInput[] | undefined;
  /** An upheld oracle_disagreement: the alternate oracle's reading, taken before the transaction. */
  rerun?: AlternateReading | undefined;
};

/** §4: the corrective action of an outcome in the filer's favour. */
async function correctiveAction(ctx: TxCtx, { d, r }: { d: Row; r: Ruling }): Promise<Record<string, unknown>> {
  if (d.disputeType === "non_payment") return retrySettlement(ctx, { missionId: d.missionId });
  if (d.disputeType === "bad_spec") return invalidateRule(ctx, { missionId: d.missionId });
  if (d.disputeType === "dup_claim")
    return {
      action: "award_to_earliest",
      applied: true,
      detail: "first_valid_match already paid the earliest arrival; nothing to cancel",
    };
  // oracle_disagreement: flag the oracle and re-run the verification with an alternate oracle
  // when one is configured (OABP_ALTERNATE_ORACLES); without one the flag is the whole action.
  return {
    action: "flag_oracle",
    oracle: d.oracleUrl,
    applied: true,
    rerun: r.rerun
      ? await applyAlternateReading(ctx, { missionId: d.missionId, reading: r.rerun })
      : "not available: no alternate oracle is configured",
  };
}

/** Records the outcome and, when it favours the filer, runs the §4 corrective action (same tx). */
export async function settle(ctx: TxCtx, { d, r }: { d: Row; r: Ruling }): Promise<Row> {
  const { tx, now } = ctx;
  // Lock order: the dispute row first, then the mission (corrective action), as in resolveDispute.
  const [live] = await tx
    .select({ id: disputes.id })
    .from(disputes)
    .where(and(eq(disputes.id, d.id), eq(disputes.status, "open")))
    .for("update");
  if (!live) throw new AppError("CONFLICT", `dispute ${d.id} is already decided`);
  const favours =
    r.outcome === "upheld" || (r.outcome === "expired" && EXPIRED_UPHOLDS.has(d.disputeType as DisputeType));
  let action: Record<string, unknown> | null = favours ? await correctiveAction(ctx, { d, r }) : null;
  // AIP-4 §3.2 split: paid as the ruling says, through the award path (disputes.corrective).
  if (r.outcome === "split" && r.split) action = await paySplit(ctx, { missionId: d.missionId, shares: r.split });
  if (r.outcome === "rejected" && d.filedBy !== "anonymous") action = await penalise(tx, d, now);
  if (r.outcome === "upheld") {
    const propagated = await propagateUpheld(ctx, d);
    if (propagated) action = { ...action, reputation: propagated };
  }
  const [out] = await tx
    .update(disputes)
    .set({
      status: r.outcome === "expired" ? "expired" : "resolved",
      outcome: r.outcome,
      rationale: r.rationale.slice(0, 500),
      resolutionActor: r.actor,
      resolvedAt: now,
      correctiveAction: action,
    })
    .where(and(eq(disputes.id, d.id), eq(disputes.status, "open")))
    .returning();
  if (!out) throw new AppError("CONFLICT", `dispute ${d.id} is already decided`);
  return out;
}

/** The dispute types AIP-4 §7.4 rewards: the ones a completer files against the mission's creator. */
const PROPAGATED_TYPES = new Set<string>(["non_payment", "bad_spec"]);

/**
 * AIP-4 §7.4 on this hub (Server A): an upheld non_payment or bad_spec dispute filed by a
 * cross-server identity (§7.2; the proof is on its evidence, which only the server writes) gives
 * its filer +2 and costs the mission's creator −10, as `dispute_upheld` rating-history entries.
 * Undefined for any other dispute. The filer's own hub is not told (docs/aip-3-4.md "§7.4").
 */
async function propagateUpheld(ctx: TxCtx, d: Row): Promise<Record<string, unknown> | undefined> {
  if (!PROPAGATED_TYPES.has(d.disputeType) || d.evidence.cross_server_identity === undefined) return undefined;
  const [m] = await ctx.tx.select({ creator: missions.creator }).from(missions).where(eq(missions.id, d.missionId));
  if (!m || m.creator === d.filedBy) return undefined;
  const p = await applyUpheldDispute(ctx, { filer: d.filedBy, creator: m.creator, missionId: d.missionId });
  return {
    reason: "dispute_upheld",
    filer: { agent_id: d.filedBy, delta: p.filer.after - p.filer.before, rating_after: p.filer.after },
    creator: { agent_id: m.creator, delta: p.creator.after - p.creator.before, rating_after: p.creator.after },
  };
}

/**
 * AIP-4 §6.3: a rejected dispute costs its signed-in filer −5 (floor 0), recorded in the rating
 * history (kind dispute_rejected) that attestations count; never anonymous filers, never an
 * expired dispute (its outcome is `expired`, not `rejected`).
 */
async function penalise(tx: Tx, d: Row, now: Date): Promise<Record<string, unknown>> {
  const p = await applyDisputePenalty({ tx, now }, { agentId: d.filedBy, missionId: d.missionId });
  return {
    action: "filer_penalty",
    applied: true,
    filer: d.filedBy,
    penalty: -REJECTED_DISPUTE_PENALTY,
    rating_before: p.before,
    rating_after: p.after,
  };
}

/**
 * An upheld oracle_disagreement re-runs the verification with the alternate oracle (AIP-4 §4):
 * read here, over RPC and outside any transaction (as every oracle read, oracle.ts), then applied
 * under the mission lock in settle. Undefined for any other ruling or without an alternate.
 */
async function alternateReadingFor(ctx: Ctx, id: string, outcome: string): Promise<AlternateReading | undefined> {
  const key = disputeKey(id);
  if (outcome !== "upheld" || !key) return undefined;
  const [d] = await dbOf(ctx).select().from(disputes).where(eq(disputes.id, key));
  if (d?.disputeType !== "oracle_disagreement" || d.status !== "open") return undefined;
  const m = await findMission(ctx.deps, d.missionId);
  return m && readAlternateOracle(ctx, { mission: m });
}

/**
 * POST /api/disputes/{id}/resolve: the operator (`server`) rules on any open dispute; the mission's
 * creator may only concede a bad_spec or oracle_disagreement (upheld) — never rule on non_payment
 * (§3.3) nor reject a dispute against its own mission.
 */
export async function resolveDispute(
  ctx: Ctx,
  {
    id,
    ...input
  }: { id: string; outcome: "upheld" | "rejected" | "split"; rationale: string; split?: SplitShareInput[] | undefined },
): Promise<DisputeWire> {
  const { deps, now, caller } = ctx;
  if (caller.kind !== "admin" && caller.kind !== "agent")
    throw new AppError("UNAUTHORIZED", "sign in, or use the admin token");
  const rerun = await alternateReadingFor(ctx, id, input.outcome);
  return withTx(ctx, async (tx) => {
    const key = disputeKey(id);
    const [d] = key ? await tx.select().from(disputes).where(eq(disputes.id, key)).for("update") : [];
    if (!d) throw new AppError("NOT_FOUND", `dispute ${id} not found`);
    if (d.status !== "open") throw new AppError("CONFLICT", `dispute ${id} is ${d.status}`, { outcome: d.outcome });
    let actor: Ruling["actor"] = "server";
    if (caller.kind === "agent") {
      const [m] = await tx.select({ creator: missions.creator }).from(missions).where(eq(missions.id, d.missionId));
      if (m?.creator !== caller.address)
        throw new AppError("FORBIDDEN", "only the operator, or the mission's creator conceding, resolves a dispute");
      if (d.disputeType === "non_payment" || d.disputeType === "dup_claim")
        throw new AppError("FORBIDDEN", "the creator cannot rule on a payment or priority dispute (AIP-4 §3.3)", {
          reason: "creator_conflict",
        });
      if (input.outcome !== "upheld")
        throw new AppError(
          "FORBIDDEN",
          "the creator may concede (upheld) but not rule against a dispute on its own mission",
          { reason: "creator_conflict" },
        );
      actor = "creator";
    }
    return disputeToWire(
      await settle(
        { tx, deps, now },
        { d, r: { outcome: input.outcome, actor, rationale: input.rationale, split: input.split, rerun } },
      ),
    );
  });
}

/**
 * Job: bad_spec disputes on a creator_judges award under appeal follow the appeal's peer vote
 * (overturned → upheld, upheld/undisputed → rejected); open disputes past their deadline expire
 * (§3.1), upheld by default for non_payment and dup_claim. Bounded batch, oldest deadline first.
 */
export async function sweepDisputes(ctx: Ctx, { batch = 100 }: { batch?: number } = {}): Promise<number> {
  const { deps, now } = ctx;
  const db = deps.database.db;
  const linked = await db
    .select({ d: disputes, award: missions.award })
    .from(disputes)
    .innerJoin(missions, eq(missions.id, disputes.missionId))
    .where(
      and(
        eq(disputes.status, "open"),
        eq(disputes.disputeType, "bad_spec"),
        eq(missions.verificationType, "creator_judges"),
        sql`${missions.award}->>'outcome' is not null`,
      ),
    )
    .orderBy(asc(disputes.id))
    .limit(batch);
  const due = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.status, "open"), lte(disputes.resolutionDeadline, now)))
    .orderBy(asc(disputes.resolutionDeadline))
    .limit(batch);
  let n = 0;
  for (const { d, award } of linked) {
    const overturned = award?.outcome === "overturned";
    await db
      .transaction(async (tx) =>
        settle(
          { tx, deps, now },
          {
            d,
            r: {
              outcome: overturned ? "upheld" : "rejected",
              actor: "peer_vote",
              rationale: `the appeal of the creator's award ended ${award?.outcome}`,
            },
          },
        ),
      )
      .catch(ignoreDecided);
    n++;
  }
  for (const d of due) {
    await db
      .transaction(async (tx) =>
        settle(
          { tx, deps, now },
          {
            d,
            r: {
              outcome: "expired",
              actor: "server",
              rationale: "no outcome before the resolution deadline (AIP-4 §3.1)",
            },
          },
        ),
      )
      .catch(ignoreDecided);
    n++;
  }
  return n;
}

const ignoreDecided = (e: unknown) => {
  if (e instanceof AppError && e.code === "CONFLICT") return; // another instance decided it first
  throw e;
};
