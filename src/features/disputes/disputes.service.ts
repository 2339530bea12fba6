import { and, asc, desc, eq, gt, lt, lte, sql } from "drizzle-orm";
import { findVisibleMission } from "../../db/mission-visibility";
import type { Tx } from "../../db/client";
import { disputes, missions } from "../../db/schema/index";
import { dbOf, withTx, type Ctx, type TxCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { disputeKey, newDisputeId } from "./disputes.ids";
import type { DisputeType } from "../manifest";
import { applyDisputePenalty, applyUpheldDispute, REJECTED_DISPUTE_PENALTY } from "../reputation";
import { invalidateRule, paySplit, retrySettlement } from "./disputes.corrective";
import { boundPerMission, DisputeRateLimited } from "./disputes.bounds";
import { EXPIRED_UPHOLDS, FILING_LIMITS, RESOLUTION_WINDOW_MS } from "./disputes.rules";
import { qualify, type Filer, type Mission, type Qualified } from "./disputes.qualify";
import { applyAlternateReading, readAlternateOracle, type AlternateReading } from "../verification";
import type { DisputeWire, FileDisputeInput, SplitShareInput } from "./disputes.schemas";
import { findMission } from "../../db/rows";
import type { DisputeStatus } from "../../db/vocabulary";
import { lastOf } from "../../lib/item-at";

// AIP-4 disputes: filing (§2), the §1 qualification rules, §6.1 limits, resolution (§3) and the
// §4 corrective actions. Who resolves (docs/aip-3-4.md): non_payment and dup_claim are decided by
// the server from its own records at filing; bad_spec on a creator_judges award under appeal
// follows the appeal's peer vote; otherwise the operator (`server`) rules, or the creator concedes
// a bad_spec (`creator`, upheld only). Open disputes past their deadline expire (§3.1).

type Row = typeof disputes.$inferSelect;
export type { Filer } from "./disputes.qualify";

function disputeToWire(d: Row): DisputeWire {
  return {
    dispute_id: d.id,
    dispute_type: d.disputeType as DisputeType,
    mission_id: d.missionId,
    submission_id: d.submissionId,
    filed_by: d.filedBy,
    status: d.status as DisputeWire["status"],
    filed_at: d.filedAt.toISOString(),
    resolution_deadline: d.resolutionDeadline.toISOString(),
    evidence: d.evidence,
    outcome: d.outcome as DisputeWire["outcome"],
    rationale: d.rationale,
    resolved_at: d.resolvedAt?.toISOString() ?? null,
    resolution_actor: d.resolutionActor as DisputeWire["resolution_actor"],
    corrective_action: d.correctiveAction ?? null,
  };
}

export { DisputeRateLimited } from "./disputes.bounds";

/** reset_at of a limit without a window (dup_claim: 3 per mission, ever): it never resets. */
export const NEVER_RESETS = new Date("9999-12-31T23:59:59.999Z");

/** §6.1: the filer bucket's filings of this type in the rule's window and scope; 429 at the limit. */
async function checkFilingLimit(
  tx: Tx,
  { bucket, m, t, q, now }: { bucket: string; m: Mission; t: DisputeType; q: Qualified; now: Date },
) {
  const rule = FILING_LIMITS[t];
  const scope = [eq(disputes.filerBucket, bucket), eq(disputes.disputeType, t)];
  if (rule.windowMs !== null) scope.push(gt(disputes.filedAt, new Date(now.getTime() - rule.windowMs)));
  if (rule.scope === "mission") scope.push(eq(disputes.missionId, m.id));
  if (rule.scope === "oracle" && q.oracleUrl) scope.push(eq(disputes.oracleUrl, q.oracleUrl));
  const recent = await tx
    .select({ filedAt: disputes.filedAt })
    .from(disputes)
    .where(and(...scope))
    .orderBy(asc(disputes.filedAt))
    .limit(rule.limit);
  if (recent.length >= rule.limit)
    throw new DisputeRateLimited(
      rule.windowMs === null ? NEVER_RESETS : new Date(recent[0]!.filedAt.getTime() + rule.windowMs),
      t,
    );
}

/** The new dispute's row: open, deadline per §3.1. */
function newDisputeRow({
  m,
  input,
  filer,
  bucket,
  q,
  now,
}: {
  m: Mission;
  input: FileDisputeInput;
  filer: Filer;
  bucket: string;
  q: Qualified;
  now: Date;
}): Row {
  const t = input.dispute_type;
  const evidence: Record<string, unknown> = { ...input.evidence };
  // AIP-4 §7.2: how a filer from another hub was identified, on the public record.
  if ("crossServer" in filer && filer.crossServer) evidence.cross_server_identity = filer.crossServer;
  return {
    id: newDisputeId(now.getTime()),
    disputeType: t,
    missionId: m.id,
    submissionId: q.submissionId,
    otherSubmissionId: q.otherSubmissionId ?? null,
    filedBy: "address" in filer ? filer.address : "anonymous",
    filerBucket: bucket,
    oracleUrl: q.oracleUrl ?? null,
    evidence,
    status: "open",
    outcome: null,
    rationale: null,
    resolutionActor: null,
    correctiveAction: null,
    filedAt: now,
    resolutionDeadline: new Date(now.getTime() + RESOLUTION_WINDOW_MS[t]),
    resolvedAt: null,
  };
}

/**
 * non_payment and dup_claim are decided at once from the server's own records (§3.1: "servers MAY
 * resolve faster"); the others stay open.
 */
async function decideAtFiling(ctx: TxCtx, { row, m, q }: { row: Row; m: Mission; q: Qualified }): Promise<Row> {
  if (row.disputeType === "non_payment")
    return settle(ctx, {
      d: row,
      r: {
        outcome: "upheld",
        actor: "server",
        rationale: `verified ${ctx.deps.config.aip34.paymentSlaHours} h ago and payout_status is still ${m.payoutStatus}`,
      },
    });
  if (row.disputeType !== "dup_claim" || !q.pair) return row;
  const [s, other] = q.pair;
  const first = s.seq < other.seq ? s : other;
  return settle(ctx, {
    d: row,
    r: {
      outcome: s.status === "accepted" ? "upheld" : "rejected",
      actor: "server",
      rationale: `arrival order under the mission lock: ${first.id} at ${first.submittedAt.toISOString()} (seq ${first.seq}) came first and ${first.status === "accepted" ? "was awarded" : "is the earliest"}`,
    },
  });
}

/**
 * POST /api/disputes. Locking: a transaction-scoped advisory lock on the filer bucket serialises
 * one filer's filings, so the §6.1 count and the insert agree (across instances: it is Postgres').
 */
export async function fileDispute(
  ctx: Ctx,
  { filer, dispute: input }: { filer: Filer; dispute: FileDisputeInput },
): Promise<DisputeWire> {
  const { deps, now } = ctx;
  // Hidden from everyone while pending_escrow, its creator included (nothing to dispute yet).
  const m = await findVisibleMission(ctx, input.mission_id, null);
  const q = await qualify(deps, { m, input, filer, now });
  const bucket = "address" in filer ? filer.address : `anon:${filer.anonymousIp}`;
  return withTx(ctx, async (tx) => {
    // Lock order: the mission's filings, then the filer's (the per-mission bound and the per-mission
    // dup_claim count hold across filers and instances).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`dispute-mission:${m.id}`}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`dispute:${bucket}`}))`);
    await boundPerMission(tx, deps, { m, filer, bucket, t: input.dispute_type });
    await checkFilingLimit(tx, { bucket, m, t: input.dispute_type, q, now });
    const row = newDisputeRow({ m, input, filer, bucket, q, now });
    await tx.insert(disputes).values(row);
    return disputeToWire(await decideAtFiling({ tx, deps, now }, { row, m, q }));
  });
}

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
async function settle(ctx: TxCtx, { d, r }: { d: Row; r: Ruling }): Promise<Row> {
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

export async function getDispute(ctx: Ctx, { id }: { id: string }): Promise<DisputeWire> {
  const key = disputeKey(id);
  const [d] = key ? await dbOf(ctx).select().from(disputes).where(eq(disputes.id, key)) : [];
  if (!d) throw new AppError("NOT_FOUND", `dispute ${id} not found`);
  return disputeToWire(d);
}

/** Soft byte budget of one list page. */
export const LIST_PAGE_BYTES = 256 * 1024;

/** GET /api/disputes (§2.4): public, newest first, keyset on the time-ordered id. */
export async function listDisputes(
  ctx: Ctx,
  q: {
    mission_id?: string | undefined;
    status?: DisputeStatus | undefined;
    limit: number;
    cursor?: string | undefined;
  },
) {
  let before: string | undefined;
  if (q.cursor) {
    before = disputeKey(Buffer.from(q.cursor, "base64url").toString("utf8")) ?? undefined;
    if (!before) throw new AppError("INVALID_PARAMETER", "cursor is not valid", { field: "cursor" });
  }
  const where = [];
  if (q.mission_id) where.push(eq(disputes.missionId, q.mission_id));
  if (q.status) where.push(eq(disputes.status, q.status));
  if (before) where.push(lt(disputes.id, before));
  const rows = await dbOf(ctx)
    .select()
    .from(disputes)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(disputes.id))
    .limit(q.limit + 1);
  // A page is bounded in bytes as well as rows (evidence may be ~30 kB a dispute): it stops at
  // LIST_PAGE_BYTES (at least one row) and the cursor continues from there.
  const page: DisputeWire[] = [];
  let bytes = 0;
  for (const r of rows.slice(0, q.limit)) {
    const w = disputeToWire(r);
    bytes += JSON.stringify(w).length;
    if (page.length > 0 && bytes > LIST_PAGE_BYTES) break;
    page.push(w);
  }
  const more = rows.length > page.length;
  return {
    disputes: page,
    next_cursor: more ? Buffer.from(lastOf(page, "disputes").dispute_id).toString("base64url") : null,
  };
}
