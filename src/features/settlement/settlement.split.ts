import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import type { TxCtx } from "../../lib/context";
import { missionAmendments } from "../../db/schema/index";
import { escrowSlots, type EscrowSlot } from "../deposits";
import { bpsOf } from "../../lib/money";
import type { MissionRow } from "../../db/rows";
import { topUpsOf } from "../../db/mission-parts";
import { itemAt } from "../../lib/item-at";

// The arithmetic of a settlement (AIP-1 §6): who gets how much, decided before anything moves.
// settlement.ts moves the reward of a resolution, settlement.void.ts refunds a void.

export interface Winner {
  submissionId: string;
  submitter: string;
  /** Relative weight of this winner's share of the reward net of the fee (share_bps, or 1 each). */
  weight: number;
}

/**
 * Integer split of the reward: fee = floor(reward × fee_bps / 10 000) to the treasury, then
 * net × weight / Σweights to each winner, rounding dust to the first winner (docs/design.md).
 */
export function splitReward({ reward, feeBps, weights }: { reward: bigint; feeBps: number; weights: number[] }): {
  fee: bigint;
  amounts: bigint[];
} {
  const fee = bpsOf(reward, feeBps);
  const net = reward - fee;
  const total = BigInt(weights.reduce((a, b) => a + b, 0));
  const amounts = weights.map((w) => (net * BigInt(w)) / total);
  const dust = net - amounts.reduce((a, b) => a + b, 0n);
  amounts[0] = itemAt(amounts, 0, "winner amounts") + dust;
  return { fee, amounts };
}

/**
 * Who funded a ledger-rail mission's escrow: each applied top-up's caller its
 * amount, the creator the rest. A refund goes back to them in these proportions.
 */
export async function ledgerFunders(tx: Tx, m: MissionRow): Promise<Map<string, bigint>> {
  const reward = BigInt(m.rewardAmount);
  const out = new Map<string, bigint>();
  if (m.amendmentsCount === 0) return out.set(m.creator, reward);
  const topUps = await topUpsOf(tx, m.id, eq(missionAmendments.status, "applied"));
  let rest = reward;
  for (const t of topUps) {
    const a = BigInt(t.amount!);
    rest -= a;
    out.set(t.actor, (out.get(t.actor) ?? 0n) + a);
  }
  out.set(m.creator, (out.get(m.creator) ?? 0n) + rest);
  return out;
}

/** One slot's part of a base-rail split. */
export interface SlotSplit {
  slot: EscrowSlot;
  fee: bigint;
  amounts: bigint[];
}

/**
 * The base rail's split over its escrow slots (the mission's own and each top-up's): each slot
 * pays its pro-rata part of the winners' shares and of the fee — split by the same rule as a
 * single slot (splitReward) on the slot's share less its part of `refund`, so each slot's
 * release is within its deposit and its fee within the contract's cap.
 */
export function splitOverSlots(
  slots: EscrowSlot[],
  terms: { reward: bigint; refund: bigint; feeBps: number; weights: number[] },
): { fee: bigint; amounts: bigint[]; perSlot: SlotSplit[] } {
  const { reward, refund, feeBps, weights } = terms;
  let othersRefund = 0n;
  const refunds = slots.map((sl, i) => {
    if (i === 0) return 0n;
    const r = (refund * sl.share) / reward;
    othersRefund += r;
    return r;
  });
  const [firstSlot] = slots;
  if (firstSlot) refunds[0] = refund - othersRefund > firstSlot.share ? firstSlot.share : refund - othersRefund;
  let fee = 0n;
  const amounts = weights.map(() => 0n);
  const perSlot = slots.map((slot, i) => {
    const part = splitReward({ reward: slot.share - itemAt(refunds, i, "slot refunds"), feeBps, weights });
    fee += part.fee;
    part.amounts.forEach((a, j) => (amounts[j] = itemAt(amounts, j, "winner amounts") + a));
    return { slot, fee: part.fee, amounts: part.amounts };
  });
  return { fee, amounts, perSlot };
}

/** One escrow slot's release of a base-rail resolution: what its funder would sign (award typed data). */
export interface SlotRelease {
  missionKey: string;
  funder: string;
  recipients: string[];
  amounts: bigint[];
  fee: bigint;
}

/**
 * The releases a base-rail resolution would queue, one per escrow slot, without deciding anything
 * (POST /missions/{id}/award/typed-data, and the award's signature check): the same split as
 * resolveAndPay.
 */
export async function plannedReleases(
  ctx: Pick<TxCtx, "tx" | "deps">,
  input: { mission: MissionRow; winners: Winner[]; creatorRefund?: bigint },
): Promise<SlotRelease[]> {
  const { mission: m, winners } = input;
  if (m.rewardChain !== "base") return [];
  const { perSlot } = splitOverSlots(await escrowSlots(ctx.tx, m), {
    reward: BigInt(m.rewardAmount),
    refund: input.creatorRefund ?? 0n,
    feeBps: ctx.deps.config.feeBps,
    weights: winners.map((w) => w.weight),
  });
  return perSlot.map((p) => ({
    missionKey: p.slot.missionKey,
    funder: p.slot.deposit.funder,
    recipients: winners.map((w) => w.submitter),
    amounts: p.amounts,
    fee: p.fee,
  }));
}
