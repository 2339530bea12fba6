import { and, asc, count, eq, gt, ne, sql } from "drizzle-orm";
import { assertNotSuspended } from "../../db/suspension";
import type { Tx } from "../../db/client";
import { missionAmendments, missions } from "../../db/schema/index";
import { agentOf, type Ctx, dbOf, type TxCtx, viewerOf } from "../../lib/context";
import { AppError } from "../../lib/errors";
import type { Reason } from "../../lib/error-reasons";
import { newId } from "../../lib/ids";
import { missionKey } from "../../lib/evm";
import { parseUint } from "../../lib/money";
import { onceTx } from "../../lib/idempotency";
import { verificationOf } from "../../db/verification";
import { topUpsOf } from "../../db/mission-parts";
import { findVisibleMission, lockMission } from "../../db/mission-visibility";
import { emitEvents, missionAmended } from "../../db/outbox";
import { MISSION_COLUMNS, type MissionRow as Mission } from "../../db/rows";
import { agentAccount, escrowAccount, transfer } from "../ledger";
import { acceptsTopUp } from "../deposits";
import { REFUND_GRACE_SECONDS, refundAfterFor } from "../rail";
import type { AmendMissionInput, AmendmentListWire, AmendmentWire } from "./amendments.schemas";
import { amendmentToWire, type AmendmentRow } from "./amendments.wire";
import { lastOf } from "../../lib/item-at";

/** Amendments: the most one deadline extension may add (published as `amendments.max_extension_seconds`). */
export const AMENDMENT_MAX_EXTENSION_SECONDS = 30 * 86_400;
/** Amendments: the smallest top-up by others than the creator, basis points of the current reward (rounded up, ≥ 1 base unit). */
export const TOP_UP_MIN_BPS = 100;
/** The most amendments a mission's creator may make to it: its extensions, edits and own top-ups (409 `too_many_amendments`). */
export const AMENDMENTS_MAX_PER_MISSION = 50;
/** The most top-ups by others than its creator one mission may have, applied or pending: bounds the log and the base rail's top-up slots (409 `too_many_top_ups`). */
const TOPUPS_MAX_PER_MISSION = 20;

// Amendments to a posted mission. Every verb runs under the
// mission row lock (FOR UPDATE), the lock a submission, a claim, a resolution and the deposit
// watcher take first, so an edit never races the first submission, a top-up never races the
// resolution that pays the reward out, and `seq` is gapless. Value moves (a ledger top-up) are in
// the same transaction as the amendment row, the reward's update and the mission.amended event.

/** base rail: after an extension, at least this much of a deposit's refund grace must remain. */
const EXTENSION_MIN_GRACE_SECONDS = 86_400;

const creatorOnly = (what: string) =>
  new AppError("FORBIDDEN", `only the mission's creator may ${what}`, { reason: "creator_only" });

function notAmendable(m: Mission, reason: Reason<"MISSION_NOT_OPEN">, message: string): AppError {
  return new AppError("MISSION_NOT_OPEN", message, {
    reason,
    status: m.status,
    deadline: m.deadline.toISOString(),
  });
}

/** Before the deadline, while the mission is open (or still waiting for its escrow). */
function requireBeforeDeadline(m: Mission, now: Date, what: string): void {
  if (m.status !== "open" && m.status !== "pending_escrow")
    throw notAmendable(m, "mission_decided", `${what}: the mission is ${m.status}`);
  if (m.deadline.getTime() <= now.getTime())
    throw notAmendable(m, "deadline_passed", `${what}: the mission's deadline has passed`);
}

/**
 * POST /missions/{id}/amendments. Answers the amendment: `applied` (201), or `pending` (202) for a
 * base-rail top-up, which applies when its own escrow slot is confirmed on chain (deposits.topups.ts).
 */
export async function amendMission(
  ctx: Ctx,
  { missionId, input }: { missionId: string; input: AmendMissionInput },
): Promise<AmendmentWire> {
  const { now } = ctx;
  const caller = agentOf(ctx);
  // 404 for a mission the caller cannot see (a pending_escrow mission of someone else).
  await findVisibleMission(ctx, missionId, caller);
  // A top-up or an edit is new activity, refused to a suspended address (docs/moderation.md); a
  // deadline extension only gives the mission's solvers more time, and stays open.
  if (input.kind !== "extend_deadline") await assertNotSuspended(ctx.deps.database.db, caller, now);
  return onceTx(ctx, async (tx, txCtx) => {
    const m = await lockMission(tx, missionId);
    if (!m) throw new AppError("NOT_FOUND", "mission not found");
    await requireSlot(txCtx, { m, caller, kind: input.kind });
    const [last] = await tx
      .select({ seq: sql<number>`coalesce(max(${missionAmendments.seq}), 0)::int` })
      .from(missionAmendments)
      .where(eq(missionAmendments.missionId, m.id));
    const seq = Number(last?.seq ?? 0) + 1;
    const id = newId("amd", now.getTime());
    const base = { id, missionId: m.id, seq, actor: caller, rail: m.rewardChain, createdAt: now, updatedAt: now };
    switch (input.kind) {
      case "extend_deadline":
        return extendDeadline(txCtx, { m, base, deadline: new Date(input.deadline) });
      case "edit":
        return edit(txCtx, { m, base, input });
      case "top_up":
        return topUp(txCtx, { m, base, amount: parseUint(input.amount) });
    }
  });
}

/**
 * Creator-owned capacity (docs/amendments.md "Slots"): the creator's own amendments (extensions,
 * edits, its own top-ups) count against `AMENDMENTS_MAX_PER_MISSION`; others' top-ups against
 * their own bound, `TOPUPS_MAX_PER_MISSION`, so they can never take the creator's slots.
 * Rejected (and expired) amendments do not count. Runs under the mission row lock: no race.
 */
async function requireSlot(
  { tx, deps }: TxCtx,
  { m, caller, kind }: { m: Mission; caller: string; kind: AmendMissionInput["kind"] },
) {
  const live = and(eq(missionAmendments.missionId, m.id), ne(missionAmendments.status, "rejected"));
  if (caller === m.creator) {
    const [n] = await tx
      .select({ all: count() })
      .from(missionAmendments)
      .where(and(live, eq(missionAmendments.actor, m.creator)));
    const max = deps.limits?.amendmentsMaxPerMission ?? AMENDMENTS_MAX_PER_MISSION;
    if ((n?.all ?? 0) >= max)
      throw new AppError("CONFLICT", `a mission's creator makes at most ${max} amendments`, {
        reason: "too_many_amendments",
        max,
      });
    return;
  }
  // Someone else may only top up; the verb itself answers 403 creator_only for the rest.
  if (kind !== "top_up") return;
  const [n] = await tx
    .select({ all: count() })
    .from(missionAmendments)
    .where(and(live, eq(missionAmendments.kind, "top_up"), ne(missionAmendments.actor, m.creator)));
  const max = deps.limits?.topUpsMaxPerMission ?? TOPUPS_MAX_PER_MISSION;
  if ((n?.all ?? 0) >= max)
    throw new AppError("CONFLICT", `a mission takes at most ${max} top-ups from others`, {
      reason: "too_many_top_ups",
      max,
    });
}

/** The smallest top-up by someone else than the creator: TOP_UP_MIN_BPS of the reward, rounded up, ≥ 1. */
function minTopUp(reward: bigint, bps: number): bigint {
  const min = (reward * BigInt(bps) + 9_999n) / 10_000n;
  return min > 1n ? min : 1n;
}

type Base = Pick<AmendmentRow, "id" | "missionId" | "seq" | "actor" | "rail" | "createdAt" | "updatedAt">;

/** Writes an applied amendment, bumps the mission's count with `set`, emits mission.amended. */
async function apply(
  tx: Tx,
  {
    m,
    row,
    set,
    now,
  }: {
    m: Mission;
    row: Base & Pick<AmendmentRow, "kind" | "changes"> & { amount?: string };
    set: Partial<typeof missions.$inferInsert>;
    now: Date;
  },
): Promise<AmendmentWire> {
  const [a] = (await tx
    .insert(missionAmendments)
    .values({ ...row, amount: row.amount ?? null, status: "applied", appliedAt: now })
    .returning()) as [AmendmentRow];
  const [amended] = await tx
    .update(missions)
    .set({ ...set, amendmentsCount: sql`${missions.amendmentsCount} + 1`, updatedAt: now })
    .where(eq(missions.id, m.id))
    .returning(MISSION_COLUMNS);
  // A pending_escrow mission is not public yet: its changes are nobody's event (webhooks).
  if (amended!.status !== "pending_escrow")
    await emitEvents(tx, [
      missionAmended(amended!, now, { id: a.id, seq: a.seq, kind: a.kind, actor: a.actor, changes: a.changes }),
    ]);
  return amendmentToWire(a);
}

async function extendDeadline(
  { tx, deps, now }: TxCtx,
  { m, base, deadline }: { m: Mission; base: Base; deadline: Date },
): Promise<AmendmentWire> {
  if (base.actor !== m.creator) throw creatorOnly("extend its deadline");
  requireBeforeDeadline(m, now, "extend_deadline");
  if (deadline.getTime() <= m.deadline.getTime())
    throw new AppError("UNPROCESSABLE", "deadline: an extension must be later than the current deadline", {
      field: "deadline",
      reason: "deadline_not_later",
      current: m.deadline.toISOString(),
    });
  const max = AMENDMENT_MAX_EXTENSION_SECONDS;
  if (deadline.getTime() - m.deadline.getTime() > max * 1000)
    throw new AppError("UNPROCESSABLE", `deadline: one extension adds at most ${max} seconds`, {
      field: "deadline",
      reason: "extension_too_long",
      max_seconds: max,
      latest: new Date(m.deadline.getTime() + max * 1000).toISOString(),
    });
  const v = verificationOf(m);
  if (v.type === "peer_vote" && Date.parse(v.params.voting_deadline) <= deadline.getTime())
    throw new AppError(
      "UNPROCESSABLE",
      "deadline: a peer_vote mission's deadline must stay before its voting_deadline",
      {
        field: "deadline",
        reason: "voting_before_deadline",
        voting_deadline: v.params.voting_deadline,
      },
    );
  // base rail: every deposit's refund-after was fixed at funding from the old deadline (deadline
  // + windows + REFUND_GRACE_SECONDS). A later deadline may eat into that grace, never below
  // EXTENSION_MIN_GRACE_SECONDS: a funder must not be able to take its deposit back before the payout.
  if (m.rewardChain === "base" && m.escrow?.refund_after !== undefined) {
    const topUps = await topUpsOf(tx, m.id, ne(missionAmendments.status, "rejected"));
    const bound = Math.min(m.escrow.refund_after, ...topUps.map((t) => t.escrow?.refund_after ?? Infinity));
    const decidedBy = (d: Date) => refundAfterFor(deps.config, { deadline: d, verification: v }) - REFUND_GRACE_SECONDS;
    if (decidedBy(deadline) + EXTENSION_MIN_GRACE_SECONDS > bound)
      throw new AppError(
        "UNPROCESSABLE",
        "deadline: on the base rail the escrow's refund-after time (fixed at funding) bounds how far the deadline can move",
        {
          field: "deadline",
          reason: "refund_after_exceeded",
          refund_after: new Date(bound * 1000).toISOString(),
          latest: new Date(
            m.deadline.getTime() + (bound - EXTENSION_MIN_GRACE_SECONDS - decidedBy(m.deadline)) * 1000,
          ).toISOString(),
        },
      );
  }
  return apply(tx, {
    m,
    row: {
      ...base,
      kind: "extend_deadline",
      changes: { deadline: { from: m.deadline.toISOString(), to: deadline.toISOString() } },
    },
    // The sweeper closes submissions (or voids an unfunded mission) at the new deadline.
    set: { deadline, nextActionAt: deadline },
    now,
  });
}

async function edit(
  { tx, now }: TxCtx,
  { m, base, input }: { m: Mission; base: Base; input: Extract<AmendMissionInput, { kind: "edit" }> },
): Promise<AmendmentWire> {
  if (base.actor !== m.creator) throw creatorOnly("edit it");
  requireBeforeDeadline(m, now, "edit");
  if (m.submissionCount > 0)
    throw new AppError("CONFLICT", "a mission can be edited only before its first submission", {
      reason: "submissions_exist",
      submission_count: m.submissionCount,
    });
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  const set: Partial<typeof missions.$inferInsert> = {};
  if (input.title !== undefined && input.title !== m.title) {
    changes.title = { from: m.title, to: input.title };
    set.title = input.title;
  }
  if (input.description !== undefined && input.description !== m.description) {
    // The log keeps lengths, not two copies of up to 50 000 characters.
    changes.description = { from: { length: m.description.length }, to: { length: input.description.length } };
    set.description = input.description;
  }
  if (input.tags !== undefined) {
    const tags = [...new Set(input.tags)];
    if (tags.join("\u0000") !== m.tags.join("\u0000")) {
      changes.tags = { from: m.tags, to: tags };
      set.tags = tags;
    }
  }
  if (Object.keys(changes).length === 0)
    throw new AppError("UNPROCESSABLE", "edit: nothing to change (give a title, description or tags that differ)", {
      reason: "no_change",
    });
  return apply(tx, { m, row: { ...base, kind: "edit", changes }, set, now });
}

async function topUp(
  { tx, deps, now }: TxCtx,
  { m, base, amount }: { m: Mission; base: Base; amount: bigint },
): Promise<AmendmentWire> {
  if (!deps.config.topUpByAnyone && base.actor !== m.creator) throw creatorOnly("top up its reward");
  if (amount <= 0n) throw new AppError("INVALID_PARAMETER", "amount must be a positive integer", { field: "amount" });
  if (!acceptsTopUp(m))
    throw notAmendable(m, "mission_decided", "top_up: only an open or judging mission not yet decided takes top-ups");
  // Dust from others is refused: a slot of the bounded top-up log is worth a real contribution.
  const min = minTopUp(BigInt(m.rewardAmount), TOP_UP_MIN_BPS);
  if (base.actor !== m.creator && amount < min)
    throw new AppError("UNPROCESSABLE", `amount: a top-up adds at least ${min} base units`, {
      field: "amount",
      reason: "top_up_too_small",
      min_amount: min.toString(),
    });
  const from = BigInt(m.rewardAmount);
  if (m.rewardChain === "ledger") {
    await transfer(tx, {
      asset: m.rewardAsset,
      kind: "mission_topup",
      ref: m.id,
      at: now,
      postings: [
        { account: agentAccount(base.actor), amount: -amount },
        { account: escrowAccount(m.id), amount },
      ],
    });
    const to = from + amount;
    return apply(tx, {
      m,
      row: {
        ...base,
        kind: "top_up",
        amount: amount.toString(),
        changes: { reward: { from: from.toString(), to: to.toString() } },
      },
      set: { rewardAmount: to.toString() },
      now,
    });
  }
  // base rail: a new slot, funded by whoever tops up; applied by the watcher at the confirmation depth.
  if (!deps.chain || !m.escrow)
    throw new AppError("UNPROCESSABLE", "settlement rail base is not enabled on this server", {
      reason: "rail_not_enabled",
    });
  const refundAfter = Math.max(
    m.escrow.refund_after ?? 0,
    refundAfterFor(deps.config, { deadline: m.deadline, verification: verificationOf(m) }),
  );
  const key = missionKey(base.id).toLowerCase();
  const [a] = (await tx
    .insert(missionAmendments)
    .values({
      ...base,
      kind: "top_up",
      status: "pending",
      amount: amount.toString(),
      changes: { reward: { from: from.toString(), to: (from + amount).toString() } },
      escrowKey: key,
      escrow: {
        chain_id: m.escrow.chain_id,
        contract: m.escrow.contract,
        token: m.escrow.token,
        mission_key: key,
        refund_after: refundAfter,
        deposit_id: null,
        tx_hash: null,
      },
    })
    .returning()) as [AmendmentRow];
  return amendmentToWire(a);
}

/** GET /missions/{id}/amendments: the public log, oldest first (a hidden mission's: its creator's only). */
export async function listAmendments(
  ctx: Ctx,
  { missionId, limit, cursor }: { missionId: string; limit: number; cursor?: string | undefined },
): Promise<AmendmentListWire> {
  const m = await findVisibleMission(ctx, missionId, viewerOf(ctx));
  let after = 0;
  if (cursor !== undefined) {
    after = Number(cursor);
    if (!/^\d{1,9}$/.test(cursor)) throw new AppError("INVALID_PARAMETER", "cursor is not valid", { field: "cursor" });
  }
  const rows = await dbOf(ctx)
    .select()
    .from(missionAmendments)
    .where(and(eq(missionAmendments.missionId, m.id), gt(missionAmendments.seq, after)))
    .orderBy(asc(missionAmendments.seq))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    mission_id: m.id,
    amendments_count: m.amendmentsCount,
    amendments: page.map(amendmentToWire),
    next_cursor: rows.length > limit ? String(lastOf(page, "amendments").seq) : null,
  };
}
