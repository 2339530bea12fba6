import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { emitEvent, missionFunderExited } from "../../db/outbox";
import { MISSION_COLUMNS } from "../../db/rows";
import { chainEvents, chainPayouts, escrowDeposits, missions } from "../../db/schema/index";
import type { ChainCtx, TxCtx } from "../../lib/context";
import type { BaseChain, EscrowEvent } from "../../lib/base-chain";
import { lockMission } from "../../db/mission-visibility";
import { topUpByKey } from "../../db/mission-parts";
import { proposalCancelled } from "./custody.judge";

// Exits, pull credits and governance, indexed (docs/base-rail.md "Exits and governance"). The
// watcher stores every escrow log that is not funding or settlement once it is at the
// confirmation depth (chain_events, unique per log), and applies its effect in the same
// transaction — so an effect happens exactly once, whatever the number of watchers:
//  - SelfRefunded / Reclaimed: the funder took its slot back. Its deposits are no longer held
//    (GET /transparency stops counting them: no false shortfall); a payout of the slot not yet
//    mined can never happen and fails at once as `funder_exited`, with the mission's payout_status
//    and a `mission.funder_exited` event.
//  - Withdrawn: the account took its pull credits; payouts that credited it say so.
//  - everything else (roles, proposals, pauses, treasury, fee cap, sweeps, delayed releases) is
//    stored for GET /transparency's governance view and the metrics.

/** Payout states in which the payout has not happened on chain (a broadcast one can no longer succeed). */
const UNMINED = ["queued", "pending_gas", "broadcast"] as const;

export async function recordEscrowEvent(
  { deps, chain, now }: ChainCtx,
  { ev, blockTime }: { ev: EscrowEvent; blockTime: number | null },
): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(chainEvents)
      .values({
        chainId: chain.chainId,
        contract: ev.contract,
        blockNumber: ev.blockNumber,
        blockHash: ev.blockHash,
        txHash: ev.txHash,
        logIndex: ev.logIndex,
        name: ev.name,
        args: ev.args,
        blockTime,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ name: chainEvents.name });
    if (inserted.length === 0) return; // seen before: its effect is applied already
    if (ev.name === "SelfRefunded" || ev.name === "Reclaimed") await funderExited({ tx, deps, chain, now }, ev);
    else if (ev.name === "Withdrawn") await creditWithdrawn({ tx, deps, chain, now }, ev);
    else if (ev.name === "ReleaseCancelled") await proposalCancelled({ tx, deps, chain, now }, ev);
  });
}

/** `column` names the event's contract (null: the configured one, for rows from before migrations). */
export const onContract = (
  chain: Pick<BaseChain, "escrow">,
  {
    column,
    contract,
  }: { column: typeof escrowDeposits.escrowAddress | typeof chainPayouts.escrowAddress; contract: string },
) => (contract === chain.escrow ? or(eq(column, contract), isNull(column)) : eq(column, contract));

async function funderExited(ctx: TxCtx & ChainCtx, ev: EscrowEvent): Promise<void> {
  const { tx, deps, now } = ctx;
  const funder = String(ev.args.funder).toLowerCase();
  const owner = await slotOwner(tx, String(ev.args.missionKey).toLowerCase());
  if (!owner) return; // a key this server never issued
  // Locking: mission row → its deposit rows → their payout rows (escrow README lock order).
  const m = await lockMission(tx, owner.missionId);
  if (!m) return;
  const ids = await markExited(ctx, { ev, funder, ...owner });
  if (ids.length === 0) return;
  const failed = await tx
    .update(chainPayouts)
    .set({ state: "failed", reason: "funder_exited", nextCheckAt: null, updatedAt: now })
    .where(and(inArray(chainPayouts.depositId, ids), inArray(chainPayouts.state, [...UNMINED])))
    .returning({ id: chainPayouts.id, kind: chainPayouts.kind, depositId: chainPayouts.depositId });
  // Only the mission's own live deposit drives its payout_status (a rejected or stray deposit's
  // refund is not the mission's settlement); every exit of its keys is announced.
  const liveId = m.escrow?.deposit?.id;
  const payout = liveId && ids.includes(liveId) ? failed.find((p) => p.depositId === liveId) : undefined;
  if (payout) {
    await tx
      .update(missions)
      .set({ payoutStatus: "failed", payoutStatusReason: "funder_exited", payoutStatusUpdatedAt: now, updatedAt: now })
      .where(eq(missions.id, m.id));
    deps.logger.warn(
      { mission: m.id, payout: payout.id, contract: ev.contract, tx: ev.txHash },
      "escrow: the funder took the slot back before the payout was mined; payout failed (funder_exited)",
    );
  }
  const [row] = await tx.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, m.id));
  if (!row) return;
  await emitEvent(
    tx,
    missionFunderExited(row, now, {
      exit: ev.name,
      contract: ev.contract,
      tx_hash: ev.txHash,
      funder,
      amount: String(ev.args.amount),
      payout_failed: failed[0]?.id ?? null,
    }),
  );
}

/** The mission whose slot key this is: its own key, or one of its top-ups' (with the top-up's id). */
export async function slotOwner(tx: Tx, key: string): Promise<{ missionId: string; topUpId: string | null } | null> {
  const [own] = await tx.select({ id: missions.id }).from(missions).where(eq(missions.escrowKey, key)).limit(1);
  if (own) return { missionId: own.id, topUpId: null };
  const topUp = await topUpByKey(tx, key);
  return topUp ? { missionId: topUp.missionId, topUpId: topUp.id } : null;
}

/** The funder's deposits in this slot, not exited yet, marked exited; their ids. */
export async function markExited(
  { tx, chain, now }: TxCtx & ChainCtx,
  slot: { ev: EscrowEvent; funder: string; missionId: string; topUpId: string | null },
): Promise<string[]> {
  const { ev } = slot;
  const exited = await tx
    .update(escrowDeposits)
    .set({ exitedBy: ev.name, exitedBlock: ev.blockNumber, nextCheckAt: null, updatedAt: now })
    .where(
      and(
        eq(escrowDeposits.chainId, chain.chainId),
        eq(escrowDeposits.missionId, slot.missionId),
        slot.topUpId ? eq(escrowDeposits.amendmentId, slot.topUpId) : isNull(escrowDeposits.amendmentId),
        eq(escrowDeposits.funder, slot.funder),
        onContract(chain, { column: escrowDeposits.escrowAddress, contract: ev.contract }),
        inArray(escrowDeposits.status, ["pending", "confirmed", "final", "rejected"]),
        isNull(escrowDeposits.exitedBy),
      ),
    )
    .returning({ id: escrowDeposits.id });
  return exited.map((d) => d.id);
}

async function creditWithdrawn({ tx, chain, now }: TxCtx & ChainCtx, ev: EscrowEvent): Promise<void> {
  const account = String(ev.args.account).toLowerCase();
  const token = String(ev.args.token).toLowerCase();
  const note = `;withdrawn:${account}`;
  // Locking: payout rows, then their missions' rows (no value moves in the database: the chain
  // paid the account; only the notes change).
  const touched = await tx
    .update(chainPayouts)
    .set({ reason: sql`${chainPayouts.reason} || ${note}`, updatedAt: now })
    .where(
      and(
        eq(chainPayouts.chainId, chain.chainId),
        eq(chainPayouts.token, token),
        inArray(chainPayouts.state, ["confirmed", "final"]),
        sql`${chainPayouts.reason} like ${`credited_pull:%${account}%`}`,
        sql`position(${note} in ${chainPayouts.reason}) = 0`,
        onContract(chain, { column: chainPayouts.escrowAddress, contract: ev.contract }),
      ),
    )
    .returning({ missionId: chainPayouts.missionId });
  if (touched.length === 0) return;
  await tx
    .update(missions)
    .set({ payoutStatusReason: sql`${missions.payoutStatusReason} || ${note}`, payoutStatusUpdatedAt: now })
    .where(
      and(
        inArray(
          missions.id,
          touched.map((p) => p.missionId),
        ),
        sql`${missions.payoutStatusReason} like 'credited_pull:%'`,
        sql`position(${note} in ${missions.payoutStatusReason}) = 0`,
      ),
    );
}
