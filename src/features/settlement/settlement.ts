import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client";
import type { Deps } from "../../deps";
import { applyResolution } from "../reputation";
import { missionAmendments, missions, submissions } from "../../db/schema/index";
import { escrowSlots, escrowVersionOf, queueRefund, queueRelease, type EscrowSlot } from "../escrow";
import { bpsOf } from "../../lib/money";
import { agentAccount, escrowAccount, lockAccounts, transfer, treasuryAccount, type AccountKey } from "../ledger";
import type { ResolutionReason, SubmissionReason } from "../../lib/reasons";
import {
  emitEvents,
  missionResolved,
  missionVoided,
  payoutConfirmed,
  submissionDecided,
  type OutboxEvent,
} from "../../db/outbox";
import type { MissionRow } from "../../db/rows";

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
export function splitReward(reward: bigint, feeBps: number, weights: number[]): { fee: bigint; amounts: bigint[] } {
  const fee = bpsOf(reward, feeBps);
  const net = reward - fee;
  const total = BigInt(weights.reduce((a, b) => a + b, 0));
  const amounts = weights.map((w) => (net * BigInt(w)) / total);
  const dust = net - amounts.reduce((a, b) => a + b, 0n);
  amounts[0] = amounts[0]! + dust;
  return { fee, amounts };
}

/**
 * Who funded a ledger-rail mission's escrow: each applied top-up's caller its
 * amount, the creator the rest. A refund goes back to them in these proportions.
 */
async function ledgerFunders(tx: Tx, m: MissionRow): Promise<Map<string, bigint>> {
  const reward = BigInt(m.rewardAmount);
  const out = new Map<string, bigint>();
  if (m.amendmentsCount === 0) return out.set(m.creator, reward);
  const topUps = await tx
    .select({ actor: missionAmendments.actor, amount: missionAmendments.amount })
    .from(missionAmendments)
    .where(
      and(
        eq(missionAmendments.missionId, m.id),
        eq(missionAmendments.kind, "top_up"),
        eq(missionAmendments.status, "applied"),
      ),
    );
  let rest = reward;
  for (const t of topUps) {
    const a = BigInt(t.amount!);
    rest -= a;
    out.set(t.actor, (out.get(t.actor) ?? 0n) + a);
  }
  out.set(m.creator, (out.get(m.creator) ?? 0n) + rest);
  return out;
}

/** `amount` split over the funders pro rata (floor), the creator taking the dust. */
function proRata(amount: bigint, funders: Map<string, bigint>, reward: bigint, creator: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  let given = 0n;
  for (const [f, share] of funders) {
    if (f === creator) continue;
    const x = (amount * share) / reward;
    out.set(f, x);
    given += x;
  }
  out.set(creator, amount - given);
  return out;
}

/**
 * The base rail's split over its escrow slots (the mission's own and each top-up's): each slot
 * pays its pro-rata part of the winners' shares and of the fee — split by the same rule as a
 * single slot (splitReward) on the slot's share less its part of `creatorRefund`, so each slot's
 * release is within its deposit and its fee within the contract's cap.
 */
function splitOverSlots(
  slots: EscrowSlot[],
  reward: bigint,
  refund: bigint,
  feeBps: number,
  weights: number[],
): { fee: bigint; amounts: bigint[]; perSlot: { slot: EscrowSlot; fee: bigint; amounts: bigint[] }[] } {
  let othersRefund = 0n;
  const refunds = slots.map((sl, i) => {
    if (i === 0) return 0n;
    const r = (refund * sl.share) / reward;
    othersRefund += r;
    return r;
  });
  if (slots.length) refunds[0] = refund - othersRefund > slots[0]!.share ? slots[0]!.share : refund - othersRefund;
  let fee = 0n;
  const amounts = weights.map(() => 0n);
  const perSlot = slots.map((slot, i) => {
    const part = splitReward(slot.share - refunds[i]!, feeBps, weights);
    fee += part.fee;
    part.amounts.forEach((a, j) => (amounts[j] = amounts[j]! + a));
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
  tx: Tx,
  m: MissionRow,
  winners: Winner[],
  feeBps: number,
  creatorRefund = 0n,
): Promise<SlotRelease[]> {
  if (m.rewardChain !== "base") return [];
  const { perSlot } = splitOverSlots(
    await escrowSlots(tx, m),
    BigInt(m.rewardAmount),
    creatorRefund,
    feeBps,
    winners.map((w) => w.weight),
  );
  return perSlot.map((p) => ({
    missionKey: p.slot.missionKey,
    funder: p.slot.deposit.funder,
    recipients: winners.map((w) => w.submitter),
    amounts: p.amounts,
    fee: p.fee,
  }));
}

/**
 * Resolves a mission and pays its winners on the ledger rail, in the caller's transaction, which
 * must hold the mission row lock and have checked the mission is still open/escrowed. One
 * transfer moves the whole escrow: reward − fee to the winners, fee to the treasury (AIP-1 §6).
 */
export async function resolveAndPay(
  tx: Tx,
  m: MissionRow,
  winners: Winner[],
  opts: {
    deps: Deps;
    feeBps: number;
    now: Date;
    reason: ResolutionReason;
    winnerReason: SubmissionReason;
    loserReason: SubmissionReason;
    outcome: "win" | "partial";
    partialSubmissionIds?: string[];
    /** Losers whose reason is not `loserReason` (an overturned award's winners). */
    loserReasons?: Record<string, SubmissionReason>;
    /** Ledger rows this transaction will also move after the payout (stakes): locked with it. */
    alsoLock?: AccountKey[];
    /**
     * Default outcomes (default-award.ts): this much of the reward goes back to the creator and
     * only the rest is split (fee on the rest only). Base rail: the release pays the winners and
     * the fee, and the contract returns the remainder to the deposit's funder.
     */
    creatorRefund?: bigint;
    /**
     * base rail: the funder's EIP-712 signature per escrow key (a creator_judges award the creator
     * signed, checked by the caller): that slot is released with releaseSigned; every other slot
     * takes the delayed path (docs/base-rail.md "Release paths").
     */
    releaseSignatures?: Record<string, string>;
  },
): Promise<void> {
  // Reputation first: agent rows are locked before ledger rows on every path (no deadlock with
  // a mission creation, which touches its creator's agent row before the ledger).
  await applyResolution(tx, opts.deps, m, opts.now, {
    winners: winners.map((w) => w.submissionId),
    winnerOutcome: opts.outcome === "win" ? 1 : 0.5,
    partialSubmissionIds: opts.partialSubmissionIds ?? [],
    paid: winners.map((w) => w.submitter),
  });
  const reward = BigInt(m.rewardAmount);
  const refund = opts.creatorRefund ?? 0n;
  // base rail: the reward is on chain; the release is queued here (an outbox row, committed with
  // the resolution) and sent by the settlement worker. Stakes stay on the ledger either way.
  const onChain = m.rewardChain === "base";
  // base rail: one release per escrow slot (the mission's own, and each applied top-up's).
  const slots = onChain ? await escrowSlots(tx, m) : [];
  const { fee, amounts, perSlot } = onChain
    ? splitOverSlots(
        slots,
        reward,
        refund,
        opts.feeBps,
        winners.map((w) => w.weight),
      )
    : {
        ...splitReward(
          reward - refund,
          opts.feeBps,
          winners.map((w) => w.weight),
        ),
        perSlot: [],
      };
  // ledger rail: a refund goes back to whoever funded the escrow (creator, top-up callers), pro rata.
  const refunds =
    !onChain && refund > 0n
      ? proRata(refund, await ledgerFunders(tx, m), reward, m.creator)
      : new Map<string, bigint>();
  // Every ledger row of this resolution, in one sorted pass (after the agent rows above).
  await lockAccounts(
    tx,
    [
      ...(onChain
        ? []
        : [
            { account: escrowAccount(m.id), asset: m.rewardAsset },
            { account: treasuryAccount(m.id), asset: m.rewardAsset },
            ...winners.map((w) => ({ account: agentAccount(w.submitter), asset: m.rewardAsset })),
            ...[...refunds.keys()].map((a) => ({ account: agentAccount(a), asset: m.rewardAsset })),
          ]),
      ...(opts.alsoLock ?? []),
    ],
    opts.now,
  );
  if (onChain) {
    if (perSlot.length === 0) throw new Error(`resolveAndPay: base-rail mission ${m.id} has no deposit`);
    for (const p of perSlot)
      await queueRelease(
        tx,
        m,
        p.slot,
        winners.map((w, i) => ({ address: w.submitter, amount: p.amounts[i]!, submissionId: w.submissionId })),
        p.fee,
        opts.now,
        opts.releaseSignatures?.[p.slot.missionKey] ?? null,
        escrowVersionOf(opts.deps.config.baseRail, p.slot.deposit.escrowAddress),
      );
  } else
    await transfer(tx, {
      asset: m.rewardAsset,
      kind: "mission_payout",
      ref: m.id,
      at: opts.now,
      postings: [
        { account: escrowAccount(m.id), amount: -reward },
        { account: treasuryAccount(m.id), amount: fee },
        ...winners.map((w, i) => ({ account: agentAccount(w.submitter), amount: amounts[i]! })),
        ...[...refunds].map(([a, x]) => ({ account: agentAccount(a), amount: x })),
      ],
    });
  // Webhook events of this resolution, written with it (transactional outbox).
  const events: OutboxEvent[] = [];
  for (const [i, w] of winners.entries()) {
    await tx
      .update(submissions)
      .set({
        status: "accepted",
        reason: opts.winnerReason,
        payoutAmount: amounts[i]!.toString(),
        outcome: opts.outcome,
        decidedAt: opts.now,
        updatedAt: opts.now,
        nextCheckAt: null,
      })
      .where(eq(submissions.id, w.submissionId));
    events.push(
      submissionDecided(
        m,
        opts.now,
        { id: w.submissionId, submitter: w.submitter, reason: opts.winnerReason, payoutAmount: amounts[i]!.toString() },
        true,
      ),
    );
  }
  for (const [id, reason] of Object.entries(opts.loserReasons ?? {})) {
    const lost = await tx
      .update(submissions)
      .set({ status: "rejected", reason, outcome: "loss", decidedAt: opts.now, updatedAt: opts.now, nextCheckAt: null })
      .where(and(eq(submissions.id, id), eq(submissions.missionId, m.id), eq(submissions.status, "pending")))
      .returning({ id: submissions.id, submitter: submissions.submitter });
    for (const l of lost)
      events.push(submissionDecided(m, opts.now, { id: l.id, submitter: l.submitter, reason }, false));
  }
  const losers = await tx
    .update(submissions)
    .set({
      status: "rejected",
      reason: opts.loserReason,
      outcome: "loss",
      decidedAt: opts.now,
      updatedAt: opts.now,
      nextCheckAt: null,
    })
    .where(and(eq(submissions.missionId, m.id), eq(submissions.status, "pending")))
    .returning({ id: submissions.id, submitter: submissions.submitter });
  // Returned rows come in no set order; events go out in arrival order (ids are time-ordered).
  for (const l of losers.sort((a, b) => (a.id < b.id ? -1 : 1)))
    events.push(submissionDecided(m, opts.now, { id: l.id, submitter: l.submitter, reason: opts.loserReason }, false));
  // Submissions rejected by their check earlier still count as losses for reputation.
  await tx
    .update(submissions)
    .set({ outcome: "loss" })
    .where(and(eq(submissions.missionId, m.id), eq(submissions.status, "rejected"), isNull(submissions.outcome)));
  const payouts = winners.map((w, i) => ({
    submission_id: w.submissionId,
    agent_id: w.submitter,
    amount: amounts[i]!.toString(),
  }));
  await tx
    .update(missions)
    .set({
      status: "resolved",
      // base rail: "settling" until the release is final on chain (escrow.payouts.ts).
      phase: onChain ? "settling" : "settled",
      payoutStatus: onChain ? "queued" : "confirmed",
      payoutStatusReason: onChain ? "release_queued" : "ledger_credited",
      payoutStatusUpdatedAt: opts.now,
      winnerSubmissionId: winners[0]!.submissionId,
      winnerAgentId: winners[0]!.submitter,
      resolutionReason: opts.reason,
      feeAmount: fee.toString(),
      payouts,
      resolvedAt: opts.now,
      nextActionAt: null,
      updatedAt: opts.now,
    })
    .where(eq(missions.id, m.id));
  events.push(
    missionResolved(m, opts.now, {
      reason: opts.reason,
      feeAmount: fee.toString(),
      payouts,
      payoutStatus: onChain ? "queued" : "confirmed",
    }),
  );
  // The ledger rail has paid in this very transaction: each payout is final now. On the base rail
  // the settlement worker emits payout.confirmed when the release reaches the confirmation depth.
  if (!onChain) for (const p of payouts) events.push(payoutConfirmed(m, opts.now, p));
  await emitEvents(tx, events);
}

/**
 * Voids a mission and refunds its reward to the creator (the spam fee stays with the treasury).
 * Same contract as resolveAndPay: caller's transaction, mission row locked and still live.
 */
export async function voidAndRefund(
  tx: Tx,
  m: MissionRow,
  opts: { now: Date; reason: ResolutionReason },
): Promise<void> {
  if (m.rewardChain === "base") {
    // Each slot goes back to its funder on chain (the mission's own deposit and every applied
    // top-up's); an unfunded mission has nothing to return.
    for (const sl of await escrowSlots(tx, m)) {
      const d = sl.deposit;
      if (d.status !== "confirmed" && d.status !== "final") continue;
      await queueRefund(tx, m, d, opts.now, "refund_queued", {
        touchMission: d.amendmentId === null,
        missionKey: sl.missionKey,
      });
    }
  } else {
    // Back to whoever funded the escrow: the creator, and each top-up's caller its top-up.
    const funders = await ledgerFunders(tx, m);
    await transfer(tx, {
      asset: m.rewardAsset,
      kind: "mission_refund",
      ref: m.id,
      at: opts.now,
      postings: [
        { account: escrowAccount(m.id), amount: -BigInt(m.rewardAmount) },
        ...[...funders].map(([a, x]) => ({ account: agentAccount(a), amount: x })),
      ],
    });
  }
  const rejected = await tx
    .update(submissions)
    .set({ status: "rejected", reason: "mission_voided", decidedAt: opts.now, updatedAt: opts.now, nextCheckAt: null })
    .where(and(eq(submissions.missionId, m.id), eq(submissions.status, "pending")))
    .returning({ id: submissions.id, submitter: submissions.submitter });
  await tx
    .update(missions)
    .set({
      status: "voided",
      phase: "closed",
      resolutionReason: opts.reason,
      voidedAt: opts.now,
      nextActionAt: null,
      updatedAt: opts.now,
    })
    .where(eq(missions.id, m.id));
  // A pending_escrow mission was never public: its end is nobody's event (webhooks).
  if (m.status !== "pending_escrow") {
    await emitEvents(tx, [
      ...rejected
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((r) =>
          submissionDecided(m, opts.now, { id: r.id, submitter: r.submitter, reason: "mission_voided" }, false),
        ),
      missionVoided(m, opts.now, opts.reason),
    ]);
  }
}
