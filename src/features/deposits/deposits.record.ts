import { and, eq, type SQL } from "drizzle-orm";
import { lockMission } from "../../db/mission-visibility";
import type { Tx } from "../../db/client";
import { escrowDeposits, missions, type EscrowRecord } from "../../db/schema/index";
import type { TxCtx } from "../../lib/context";
import type { FundedLog, Heads } from "../../lib/base-chain";
import { newId } from "../../lib/ids";
import type { DepositRejection } from "./deposits.check";
import { queueRefund } from "../payouts";
import { emitMissionCreated } from "../../db/outbox";
import { MISSION_COLUMNS, type MissionRow as Mission } from "../../db/rows";

// Deposit state transitions (docs/design.md "Escrow and settlement"). Every function runs in the
// caller's transaction and locks the mission row first (lock order: mission → deposit/payout
// rows), so an attach over HTTP and the watcher can race on the same log without harm: the
// unique (chain_id, tx_hash, log_index) index and the mission lock decide.

export type DepositRow = typeof escrowDeposits.$inferSelect;

export type RecordOutcome =
  | { kind: "recorded"; deposit: DepositRow } // pending or confirmed (the mission opened)
  | { kind: "known"; deposit: DepositRow } // this log is already bound to this mission
  | { kind: "used_elsewhere"; deposit: DepositRow } // the log backs another mission: 409
  | { kind: "rejected"; deposit: DepositRow; reason: DepositRejection }; // recorded, refund queued

const summary = (d: DepositRow): NonNullable<EscrowRecord["deposit"]> => ({
  id: d.id,
  status: d.status,
  tx_hash: d.txHash,
  log_index: d.logIndex,
  funder: d.funder,
  block_number: d.blockNumber,
});

/**
 * Junk costs the operator nothing (docs/base-rail.md "Junk deposits cost the operator nothing"): the resolver refunds a
 * rejected deposit only when it is in the mission's token and paid the mission's full spam fee —
 * the spam fee, kept by the treasury, pays for the refund's gas. Any other rejected slot (an
 * unlisted token, a spam fee short, e.g. 1-wei junk) stays in the contract for its funder's own
 * exit: reclaim() once the key is released, or the self-refund after the slot's refund-after
 * time (contract v2).
 */
export function resolverRefunds(
  m: { spamFee: string; escrow: { token: string } | null },
  log: Pick<FundedLog, "token" | "spamFee">,
): boolean {
  return m.escrow !== null && log.token === m.escrow.token && log.spamFee >= BigInt(m.spamFee);
}

/**
 * Binds a Funded log of the mission's key to the mission. `rejection` (token, amount or spam fee
 * wrong) records the log as rejected and queues a refund of its slot, so the funder gets the
 * money back and can fund again from the same address (the contract allows one slot per funder).
 */
export async function recordDeposit(
  ctx: TxCtx,
  {
    missionId,
    log,
    heads,
    rejection,
  }: { missionId: string; log: FundedLog; heads: Heads; rejection?: DepositRejection },
): Promise<RecordOutcome> {
  const { tx, now } = ctx;
  const m = await lockMission(tx, missionId);
  if (!m || !m.escrow) throw new Error(`recordDeposit: mission ${missionId} is not a base-rail mission`);
  const chainId = m.escrow.chain_id;
  const existing = await lockLogRow(tx, { chainId, log });
  if (existing && existing.missionId !== missionId) return { kind: "used_elsewhere", deposit: existing };
  if (existing && existing.status !== "reorged") return knownOutcome(existing);

  // A deposit that is not the mission's first live one is a stray slot: refund it.
  const reason: DepositRejection | undefined =
    rejection ??
    (m.status !== "pending_escrow" || (m.escrow.deposit && m.escrow.deposit.status !== "reorged")
      ? "mission_not_pending"
      : undefined);
  // A reorged log that came back (re-mined) brings the same row back to life.
  const deposit = await writeDepositRow({ tx, now }, { existing, chainId, missionId, amendmentId: null, log, reason });
  if (reason) {
    if (resolverRefunds(m, log))
      await queueRefund(ctx, { mission: m, deposit, reason: `deposit_rejected:${reason}`, touchMission: false });
    return { kind: "rejected", deposit, reason };
  }
  const escrow = { ...m.escrow, deposit: summary(deposit) };
  await tx.update(missions).set({ escrow, updatedAt: now }).where(eq(missions.id, m.id));
  if (log.blockNumber > heads.confirmed) return { kind: "recorded", deposit };
  return { kind: "recorded", deposit: await confirmDeposit(ctx, { mission: { ...m, escrow }, deposit }) };
}

/**
 * The deposit reached the confirmation depth: the mission opens (AIP-1 §6: escrowed before open).
 * A mission that stopped waiting meanwhile (expired unfunded) gets its deposit refunded instead.
 */
export async function confirmDeposit(ctx: TxCtx, { mission: m, deposit: d }: OfMission): Promise<DepositRow> {
  const { tx, now } = ctx;
  if (!m.escrow) throw new Error(`confirmDeposit: mission ${m.id} is not a base-rail mission`);
  if (m.status !== "pending_escrow")
    return rejectLate(ctx, { mission: m, deposit: d, reason: "deposit_rejected:mission_not_pending" });
  const deposit = await markConfirmed(ctx, d);
  const [opened] = await tx
    .update(missions)
    .set({
      status: "open",
      phase: "accepting_submissions",
      escrow: { ...m.escrow, deposit: summary(deposit) },
      // The sweeper closes submissions at the deadline (at once if it has passed: then the
      // mission voids without submissions and the deposit is refunded).
      nextActionAt: m.deadline,
      updatedAt: now,
    })
    .where(eq(missions.id, m.id))
    .returning(MISSION_COLUMNS);
  // Public from now on: this is its mission.created (a reopening after a reorg announces it again).
  if (opened) await emitMissionCreated(tx, opened, now);
  return deposit;
}

/** A deposit and the mission it backs, as the watcher read them. */
export interface OfMission {
  mission: Mission;
  deposit: DepositRow;
}

/** The deposit row at the confirmation depth, watched on until final. */
export async function markConfirmed({ tx, now }: TxCtx, d: DepositRow): Promise<DepositRow> {
  const [deposit] = await tx
    .update(escrowDeposits)
    .set({ status: "confirmed", nextCheckAt: now, updatedAt: now })
    .where(eq(escrowDeposits.id, d.id))
    .returning();
  return deposit ?? d;
}

/**
 * A deposit confirmed after its mission (or top-up) stopped taking it: rejected, and its slot
 * refunded to its funder with `reason` (a top-up's slot under its own `missionKey`).
 */
export async function rejectLate(
  ctx: TxCtx,
  input: OfMission & { reason: string; missionKey?: string | undefined },
): Promise<DepositRow> {
  const { tx, now } = ctx;
  const [rejected = input.deposit] = await tx
    .update(escrowDeposits)
    .set({ status: "rejected", reason: "mission_not_pending", nextCheckAt: null, updatedAt: now })
    .where(eq(escrowDeposits.id, input.deposit.id))
    .returning();
  await queueRefund(ctx, { ...input, deposit: rejected, touchMission: false });
  return rejected;
}

/** The deposit's block is final: stop watching it. */
export async function finalizeDeposit({ tx, now }: TxCtx, { mission: m, deposit: d }: OfMission): Promise<void> {
  await tx
    .update(escrowDeposits)
    .set({ status: "final", nextCheckAt: null, updatedAt: now })
    .where(eq(escrowDeposits.id, d.id));
  if (m.escrow?.deposit?.id === d.id) {
    await tx
      .update(missions)
      .set({ escrow: { ...m.escrow, deposit: { ...m.escrow.deposit, status: "final" } } })
      .where(eq(missions.id, m.id));
  }
}

/** The deposit moved to another block (re-mined after a reorg): follow it. */
export async function moveDeposit(
  { tx, now }: TxCtx,
  { mission: m, deposit: d, blockNumber, blockHash }: OfMission & { blockNumber: number; blockHash: string },
): Promise<void> {
  await tx.update(escrowDeposits).set({ blockNumber, blockHash, updatedAt: now }).where(eq(escrowDeposits.id, d.id));
  if (m.escrow?.deposit?.id === d.id) {
    await tx
      .update(missions)
      .set({ escrow: { ...m.escrow, deposit: { ...m.escrow.deposit, block_number: blockNumber } } })
      .where(eq(missions.id, m.id));
  }
}

/**
 * The deposit's transaction left the chain before it was final. An open mission goes back to
 * pending_escrow (hidden from lists again) until the deposit is mined again; a mission already
 * past its deadline keeps its state, and its payout waits for the deposit (NotFunded is retried).
 */
export async function reorgDeposit({ tx, deps, now }: TxCtx, { mission: m, deposit: d }: OfMission): Promise<void> {
  await tx
    .update(escrowDeposits)
    .set({ status: "reorged", nextCheckAt: null, updatedAt: now })
    .where(eq(escrowDeposits.id, d.id));
  if (m.escrow?.deposit?.id !== d.id) return;
  const escrow = { ...m.escrow, deposit: { ...m.escrow.deposit, status: "reorged" } };
  if (m.status === "open") {
    await tx
      .update(missions)
      .set({ status: "pending_escrow", phase: "awaiting_escrow", escrow, nextActionAt: m.deadline, updatedAt: now })
      .where(eq(missions.id, m.id));
  } else {
    deps.logger.error(
      { mission: m.id, deposit: d.id, status: m.status },
      "a deposit was reorged out after its mission closed submissions; its payout waits for the deposit to be mined again",
    );
    await tx.update(missions).set({ escrow, updatedAt: now }).where(eq(missions.id, m.id));
  }
}

/** The deposit rows a chain transaction made (and `also`). */
export function depositsOfTx(chainId: number, { txHash, also = [] }: { txHash: string; also?: SQL[] }) {
  return and(eq(escrowDeposits.chainId, chainId), eq(escrowDeposits.txHash, txHash), ...also);
}

/** The deposit row of one log: a deposit is known by its chain, transaction and log index. */
export function depositOfLog(chainId: number, log: Pick<FundedLog, "txHash" | "logIndex">) {
  return depositsOfTx(chainId, { txHash: log.txHash, also: [eq(escrowDeposits.logIndex, log.logIndex)] });
}

/** The deposit row of one log, locked; undefined when first seen. */
export async function lockLogRow(
  tx: Tx,
  { chainId, log }: { chainId: number; log: FundedLog },
): Promise<DepositRow | undefined> {
  const [existing] = await tx.select().from(escrowDeposits).where(depositOfLog(chainId, log)).for("update");
  return existing;
}

/** What a log already recorded (and not reorged) amounts to: recording it again changes nothing. */
export function knownOutcome(existing: DepositRow): RecordOutcome {
  return existing.status === "rejected"
    ? { kind: "rejected", deposit: existing, reason: existing.reason as DepositRejection }
    : { kind: "known", deposit: existing };
}

/**
 * Writes a log's deposit row, pending or rejected with `reason`: a new row, or the reorged row of
 * the same log brought back. A mission's own deposit and a top-up slot (amendmentId) alike.
 */
export async function writeDepositRow(
  { tx, now }: Pick<TxCtx, "tx" | "now">,
  d: {
    existing: DepositRow | undefined;
    chainId: number;
    missionId: string;
    amendmentId: string | null;
    log: FundedLog;
    reason: DepositRejection | undefined;
  },
): Promise<DepositRow> {
  const { existing, log, reason } = d;
  const values = {
    chainId: d.chainId,
    txHash: log.txHash,
    logIndex: log.logIndex,
    missionId: d.missionId,
    ...(d.amendmentId !== null && { amendmentId: d.amendmentId }),
    funder: log.funder,
    token: log.token,
    amount: log.amount.toString(),
    spamFee: log.spamFee.toString(),
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    escrowAddress: log.address, // the contract holding the slot (docs/base-rail.md "Migrating to a new escrow")
    status: reason ? ("rejected" as const) : ("pending" as const),
    reason: reason ?? null,
    nextCheckAt: reason ? null : now,
    updatedAt: now,
  };
  const [row] = existing
    ? await tx.update(escrowDeposits).set(values).where(eq(escrowDeposits.id, existing.id)).returning()
    : await tx
        .insert(escrowDeposits)
        .values({ id: newId("dep", now.getTime()), createdAt: now, ...values })
        .returning();
  if (!row) throw new Error(`writeDepositRow: no row written for ${log.txHash}:${log.logIndex}`);
  return row;
}
