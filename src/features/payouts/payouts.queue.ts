import { eq } from "drizzle-orm";
import type { TxCtx } from "../../lib/context";
import { signDecision } from "../../lib/decision-sign";
import { chainPayouts, escrowDeposits, missions } from "../../db/schema/index";
import { newId } from "../../lib/ids";
import { ESCROW_MAX_RECIPIENTS } from "../rail";
import type { MissionRow as Mission } from "../../db/rows";

// Payouts are queued in the transaction that decides them (a resolution, a void, a rejected
// deposit): an outbox, so a payout exists iff its decision committed, and the settlement worker
// (payouts.steps.ts) sends it later. The database is the first line against paying twice —
// one payout per deposit, one release per mission — the contract's once-per-key rule the last.

type DepositRow = typeof escrowDeposits.$inferSelect;
type PayoutInsert = typeof chainPayouts.$inferInsert;

/**
 * The payout row with the server's signed decision of its plan (docs/custody.md "Signed
 * decisions"): the settlement worker sends nothing its decision does not cover.
 */
function decided({ deps, now }: Pick<TxCtx, "deps" | "now">, row: PayoutInsert): PayoutInsert {
  const escrow = row.escrowAddress ?? deps.config.baseRail?.escrow;
  if (!escrow) throw new Error(`queue: payout ${row.id} has no escrow contract`);
  const decision = signDecision(
    {
      payout_id: row.id,
      mission_id: row.missionId,
      kind: row.kind,
      chain_id: row.chainId,
      escrow,
      mission_key: row.missionKey,
      funder: row.funder,
      token: row.token,
      recipients: row.recipients.map((r) => ({ address: r.address, amount: r.amount })),
      fee: row.fee,
    },
    deps.receiptKeys,
    now,
  );
  return { ...row, decision: decision as unknown as Record<string, unknown> };
}

/**
 * Queues the refund of a deposit's whole slot to its funder (a void, or a rejected deposit). The
 * unique index on deposit_id makes a second queueing of the same deposit a no-op.
 */
export async function queueRefund(
  ctx: TxCtx,
  input: {
    mission: Mission;
    deposit: DepositRow;
    reason: string;
    /** Set the mission's payout_status too (its own live deposit, not a stray or rejected slot). */
    touchMission: boolean;
    /** A top-up slot's own key (deposits.topups.ts); default the mission's. */
    missionKey?: string | undefined;
  },
): Promise<void> {
  const { tx, now } = ctx;
  const { mission: m, deposit: d, reason } = input;
  const missionKey = input.missionKey ?? m.escrow?.mission_key;
  if (!missionKey) throw new Error(`queueRefund: mission ${m.id} has no escrow key`);
  const inserted = await tx
    .insert(chainPayouts)
    .values(
      decided(ctx, {
        id: newId("pay", now.getTime()),
        missionId: m.id,
        depositId: d.id,
        kind: "refund",
        chainId: d.chainId,
        missionKey,
        escrowAddress: d.escrowAddress, // paid by the contract holding the slot
        funder: d.funder,
        token: d.token,
        asset: m.rewardAsset,
        recipients: [{ address: d.funder, amount: d.amount }],
        fee: "0",
        amount: d.amount,
        state: "queued",
        reason,
        nextCheckAt: now,
        createdAt: now,
        updatedAt: now,
      }),
    )
    .onConflictDoNothing()
    .returning({ id: chainPayouts.id });
  if (inserted.length && input.touchMission) {
    await tx
      .update(missions)
      .set({ payoutStatus: "queued", payoutStatusReason: reason, payoutStatusUpdatedAt: now, updatedAt: now })
      .where(eq(missions.id, m.id));
  }
}

/**
 * Queues the release of one escrow slot of the mission (its own deposit, or a top-up's slot:
 * deposits.topups.ts escrowSlots): `recipients` get their amounts, the treasury `fee`; the contract
 * returns whatever is left of the deposit to its funder. The caller holds the mission row lock
 * and has decided the resolution in the same transaction.
 */
export async function queueRelease(
  ctx: TxCtx,
  input: {
    mission: Mission;
    slot: { missionKey: string; deposit: DepositRow };
    recipients: { address: string; amount: bigint; submissionId: string }[];
    fee: bigint;
    /**
     * The funder's EIP-712 consent to exactly this release (docs/base-rail.md "Release paths"):
     * sent as releaseSigned. Without it the release takes the delayed path (propose, then execute).
     */
    signature?: string | null | undefined;
    /** The version of the contract holding the slot (escrowVersionOf): v2 has one instant release. */
    version?: "2" | "3" | "4" | undefined;
  },
): Promise<void> {
  const { tx, now } = ctx;
  const { mission: m, slot, recipients, fee, signature } = input;
  const version = input.version ?? "4";
  // Every path that resolves a base-rail mission caps its winners (rail.terms.ts): a longer list is a bug.
  if (recipients.length > ESCROW_MAX_RECIPIENTS)
    throw new Error(`queueRelease: ${recipients.length} recipients exceed the escrow's ${ESCROW_MAX_RECIPIENTS}`);
  const d = slot.deposit;
  await tx.insert(chainPayouts).values(
    decided(ctx, {
      id: newId("pay", now.getTime()),
      missionId: m.id,
      depositId: d.id,
      kind: "release",
      chainId: d.chainId,
      missionKey: slot.missionKey,
      escrowAddress: d.escrowAddress, // paid by the contract holding the slot
      funder: d.funder,
      token: d.token,
      asset: m.rewardAsset,
      recipients: recipients.map((r) => ({
        address: r.address,
        amount: r.amount.toString(),
        submission_id: r.submissionId,
      })),
      fee: fee.toString(),
      amount: (recipients.reduce((a, r) => a + r.amount, 0n) + fee).toString(),
      state: "queued",
      reason: null,
      releaseSignature: version === "2" ? null : (signature ?? null),
      step: version === "2" || signature ? null : "propose",
      nextCheckAt: now,
      createdAt: now,
      updatedAt: now,
    }),
  );
}
