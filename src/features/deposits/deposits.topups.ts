import { eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { escrowDeposits, missionAmendments, missions } from "../../db/schema/index";
import type { FundedLog, Heads } from "../../lib/base-chain";
import { emitEvents, missionAmended } from "../../db/outbox";
import { MISSION_COLUMNS, type MissionRow as Mission } from "../../db/rows";
import { lockMission } from "../../db/mission-visibility";
import { topUpsOf } from "../../db/mission-parts";
import type { DepositRejection } from "./deposits.check";
import { queueRefund } from "../payouts";
import {
  knownOutcome,
  lockLogRow,
  markConfirmed,
  type OfMission,
  type RecordOutcome,
  rejectLate,
  writeDepositRow,
} from "./deposits.record";
import type { TxCtx } from "../../lib/context";

// Base-rail top-ups. The contract keeps one slot per
// (key, funder) and releases a key at most once, so a top-up cannot be a second deposit to the
// mission's key: each top-up amendment has its own key, keccak256(bytes(amendment id)) — "a new
// slot". Its Funded log is found by the same watcher, checked against the amendment's terms, and
// only at the confirmation depth does the amendment apply (the mission's reward grows). At
// resolution every slot is released (the winners' shares split pro rata over the slots); at a
// void every slot is refunded to its funder.

type DepositRow = typeof escrowDeposits.$inferSelect;
type AmendmentRow = typeof missionAmendments.$inferSelect;

/** A top-up is accepted onto a mission that is still live and undecided. */
export const acceptsTopUp = (m: Pick<Mission, "status" | "award">) =>
  (m.status === "open" || m.status === "escrowed") && m.award === null;

/** Same contract as recordDeposit (deposits.record.ts), for a top-up's own slot. */
export async function recordTopUpDeposit(
  ctx: TxCtx,
  input: { amendmentId: string; log: FundedLog; heads: Heads; rejection?: DepositRejection },
): Promise<RecordOutcome> {
  const { tx, now } = ctx;
  const { log } = input;
  const { a, m, escrow } = await lockTopUp(tx, input.amendmentId);
  const existing = await lockLogRow(tx, { chainId: escrow.chain_id, log });
  if (existing && existing.amendmentId !== a.id) return { kind: "used_elsewhere", deposit: existing };
  if (existing && existing.status !== "reorged") return knownOutcome(existing);
  const reason: DepositRejection | undefined =
    input.rejection ??
    (a.status !== "pending" || (escrow.deposit_id !== null && !existing) || !acceptsTopUp(m)
      ? "mission_not_pending"
      : undefined);
  const deposit = await writeDepositRow(ctx, {
    existing,
    chainId: escrow.chain_id,
    missionId: m.id,
    amendmentId: a.id,
    log,
    reason,
  });
  if (reason) {
    await rejectTopUp(ctx, {
      a,
      m,
      deposit,
      reason,
      refund: log.token === escrow.token && log.amount >= BigInt(a.amount ?? "0"),
    });
    return { kind: "rejected", deposit, reason };
  }
  await tx
    .update(missionAmendments)
    .set({ escrow: { ...escrow, deposit_id: deposit.id, tx_hash: deposit.txHash }, updatedAt: now })
    .where(eq(missionAmendments.id, a.id));
  if (log.blockNumber > input.heads.confirmed) return { kind: "recorded", deposit };
  return { kind: "recorded", deposit: await confirmTopUp(ctx, { mission: m, deposit }) };
}

/** A base-rail top-up amendment and its mission, locked in order (mission, then amendment). */
async function lockTopUp(tx: Tx, amendmentId: string) {
  const [a0] = await tx.select().from(missionAmendments).where(eq(missionAmendments.id, amendmentId));
  if (!a0?.escrow) throw new Error(`recordTopUpDeposit: ${amendmentId} is not a base-rail top-up`);
  const m = await lockMission(tx, a0.missionId);
  if (!m) throw new Error(`recordTopUpDeposit: mission ${a0.missionId} is missing`);
  const a = await lockAmendment(tx, amendmentId);
  if (!a.escrow) throw new Error(`recordTopUpDeposit: ${amendmentId} is not a base-rail top-up`);
  return { a, m, escrow: a.escrow };
}

/** The amendment row of a base-rail top-up (its deposit's row names it), locked; it has its own slot key. */
async function lockAmendment(tx: Tx, amendmentId: string | null): Promise<TopUp> {
  const [a] = await tx
    .select()
    .from(missionAmendments)
    .where(eq(missionAmendments.id, amendmentId ?? ""))
    .for("update");
  if (!a?.escrowKey) throw new Error(`base-rail top-up amendment ${amendmentId} is missing`);
  return { ...a, escrowKey: a.escrowKey };
}

type TopUp = AmendmentRow & { escrowKey: string };

/**
 * A top-up deposit recorded as rejected: the amendment is rejected too when its mission closed;
 * a top-up in the right token and of the full amount (`refund`) is refunded by the resolver, junk
 * is left to its funder's own exit (selfRefund), as for a mission's own key.
 */
async function rejectTopUp(
  ctx: TxCtx,
  input: { a: TopUp; m: Mission; deposit: DepositRow; reason: DepositRejection; refund: boolean },
): Promise<void> {
  const { a, m, reason } = input;
  if (reason === "mission_not_pending" && a.status === "pending" && !acceptsTopUp(m)) await closeTopUp(ctx, a);
  if (input.refund)
    await queueRefund(ctx, {
      mission: m,
      deposit: input.deposit,
      reason: `topup_rejected:${reason}`,
      touchMission: false,
      missionKey: a.escrowKey,
    });
}

const closeTopUp = ({ tx, now }: TxCtx, a: AmendmentRow) =>
  tx
    .update(missionAmendments)
    .set({ status: "rejected", reason: "mission_closed", updatedAt: now })
    .where(eq(missionAmendments.id, a.id));

/**
 * The top-up's deposit reached the confirmation depth: the amendment applies (reward += amount,
 * mission.amended) if the mission still takes top-ups; otherwise the slot is refunded.
 */
export async function confirmTopUp(ctx: TxCtx, { mission: m, deposit: d }: OfMission): Promise<DepositRow> {
  const { tx, now } = ctx;
  const a = await lockAmendment(tx, d.amendmentId);
  if (!acceptsTopUp(m) || a.status === "rejected") {
    const rejected = await rejectLate(ctx, {
      mission: m,
      deposit: d,
      reason: "topup_rejected:mission_not_pending",
      missionKey: a.escrowKey,
    });
    await closeTopUp(ctx, a);
    return rejected;
  }
  const deposit = await markConfirmed(ctx, d);
  if (a.status === "applied") return deposit; // re-confirmed after a reorg that kept it applied
  const from = BigInt(m.rewardAmount);
  const to = from + BigInt(a.amount ?? "0");
  const changes = { reward: { from: from.toString(), to: to.toString() } };
  await tx
    .update(missionAmendments)
    .set({ status: "applied", changes, appliedAt: now, updatedAt: now })
    .where(eq(missionAmendments.id, a.id));
  const [amended] = await tx
    .update(missions)
    .set({
      rewardAmount: to.toString(),
      amendmentsCount: sql`${missions.amendmentsCount} + 1`,
      updatedAt: now,
    })
    .where(eq(missions.id, m.id))
    .returning(MISSION_COLUMNS);
  if (amended)
    await emitEvents(tx, [
      missionAmended(amended, now, { id: a.id, seq: a.seq, kind: a.kind, actor: a.actor, changes }),
    ]);
  return deposit;
}

/**
 * A top-up's deposit left the chain before it was final. While the mission is undecided the
 * top-up is taken back out of the reward (pending again, until the deposit is mined again);
 * after the mission is decided its release waits for the deposit (NotFunded is retried).
 */
export async function reorgTopUp({ tx, deps, now }: TxCtx, { mission: m, deposit: d }: OfMission): Promise<void> {
  await tx
    .update(escrowDeposits)
    .set({ status: "reorged", nextCheckAt: null, updatedAt: now })
    .where(eq(escrowDeposits.id, d.id));
  const a = await lockAmendment(tx, d.amendmentId);
  if (a.status !== "applied") return;
  if (!acceptsTopUp(m)) {
    deps.logger.error(
      { mission: m.id, deposit: d.id, amendment: a.id },
      "a top-up deposit was reorged out after its mission was decided; its release waits for the deposit",
    );
    return;
  }
  await tx
    .update(missionAmendments)
    .set({ status: "pending", appliedAt: null, updatedAt: now })
    .where(eq(missionAmendments.id, a.id));
  await tx
    .update(missions)
    .set({
      rewardAmount: (BigInt(m.rewardAmount) - BigInt(a.amount ?? "0")).toString(),
      amendmentsCount: sql`${missions.amendmentsCount} - 1`,
      updatedAt: now,
    })
    .where(eq(missions.id, m.id));
}

/** One escrow slot behind a base-rail mission: its key, its deposit and the reward share it backs. */
export interface EscrowSlot {
  missionKey: string;
  deposit: DepositRow;
  share: bigint;
}

/**
 * Every slot a base-rail mission's reward sits in: its own deposit (the reward minus the applied
 * top-ups) and each applied top-up's deposit, in amendment order. Caller holds the mission lock.
 */
export async function escrowSlots(tx: Tx, m: Mission): Promise<EscrowSlot[]> {
  const slots: EscrowSlot[] = [];
  const live = m.escrow?.deposit;
  const topUps = await topUpsOf(tx, m.id, eq(missionAmendments.rail, "base"), eq(missionAmendments.status, "applied"));
  const depositIds = topUps.map((a) => a.escrow?.deposit_id).filter((x): x is string => !!x);
  const deposits = depositIds.length
    ? await tx.select().from(escrowDeposits).where(inArray(escrowDeposits.id, depositIds))
    : [];
  const byId = new Map(deposits.map((d) => [d.id, d]));
  let rest = BigInt(m.rewardAmount);
  const extra: EscrowSlot[] = [];
  for (const a of topUps) {
    const d = byId.get(a.escrow?.deposit_id ?? "");
    if (!d) continue;
    const share = BigInt(a.amount ?? "0");
    rest -= share;
    if (a.escrowKey) extra.push({ missionKey: a.escrowKey, deposit: d, share });
  }
  if (live && m.escrow) {
    const [d] = await tx.select().from(escrowDeposits).where(eq(escrowDeposits.id, live.id));
    if (d) slots.push({ missionKey: m.escrow.mission_key, deposit: d, share: rest });
  }
  return [...slots, ...extra];
}
