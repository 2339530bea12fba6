import { and, eq, isNull } from "drizzle-orm";
import type { TxCtx } from "../../lib/context";
import { applyResolution } from "../reputation";
import { missions, submissions } from "../../db/schema/index";
import { escrowSlots } from "../deposits";
import { escrowVersionOf } from "../rail";
import { queueRelease } from "../payouts";
import { agentAccount, escrowAccount, lockAccounts, transfer, treasuryAccount, type AccountKey } from "../ledger";
import type { ResolutionReason, SubmissionReason } from "../../lib/reasons";
import { emitEvents, missionResolved, payoutConfirmed, submissionDecided, type OutboxEvent } from "../../db/outbox";
import { pendingOf } from "../../db/mission-parts";
import type { MissionRow } from "../../db/rows";
import { itemAt } from "../../lib/item-at";
import { ledgerFunders, splitOverSlots, splitReward, type SlotSplit, type Winner } from "./settlement.split";

/** A decided resolution: who is paid and why (the verification method, a dispute, a default). */
interface Resolution {
  mission: MissionRow;
  winners: Winner[];
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
}

/** Where a resolution's reward goes: the fee, each winner's amount, and the rail's own parts. */
interface Split {
  /** base rail: the reward is on chain and each slot's release is queued (an outbox row). */
  onChain: boolean;
  fee: bigint;
  amounts: bigint[];
  perSlot: SlotSplit[];
  /** ledger rail: a refund goes back to whoever funded the escrow (creator, top-up callers), pro rata. */
  refunds: Map<string, bigint>;
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

async function splitResolution(ctx: TxCtx, r: Resolution): Promise<Split> {
  const m = r.mission;
  const reward = BigInt(m.rewardAmount);
  const refund = r.creatorRefund ?? 0n;
  const feeBps = ctx.deps.config.feeBps;
  const weights = r.winners.map((w) => w.weight);
  if (m.rewardChain === "base") {
    // One release per escrow slot (the mission's own, and each applied top-up's).
    const slots = await escrowSlots(ctx.tx, m);
    return { onChain: true, ...splitOverSlots(slots, { reward, refund, feeBps, weights }), refunds: new Map() };
  }
  const refunds = refund > 0n ? proRata(refund, await ledgerFunders(ctx.tx, m), reward, m.creator) : new Map();
  return { onChain: false, ...splitReward({ reward: reward - refund, feeBps, weights }), perSlot: [], refunds };
}

/** Every ledger row of the resolution, locked in one sorted pass (after the agent rows). */
async function lockResolution(ctx: TxCtx, r: Resolution, split: Split): Promise<void> {
  const m = r.mission;
  const at = (account: string) => ({ account, asset: m.rewardAsset });
  const ledgerRows = split.onChain
    ? []
    : [
        at(escrowAccount(m.id)),
        at(treasuryAccount(m.id)),
        ...r.winners.map((w) => at(agentAccount(w.submitter))),
        ...[...split.refunds.keys()].map((a) => at(agentAccount(a))),
      ];
  await lockAccounts(ctx, [...ledgerRows, ...(r.alsoLock ?? [])]);
}

/**
 * Moves the reward. Ledger rail: one transfer moves the whole escrow (reward − fee to the winners,
 * fee to the treasury, AIP-1 §6). Base rail: one release per slot is queued, committed with the
 * resolution and sent by the settlement worker.
 */
async function moveReward(ctx: TxCtx, r: Resolution, split: Split): Promise<void> {
  const { tx, now } = ctx;
  const m = r.mission;
  if (!split.onChain) {
    await transfer(tx, {
      asset: m.rewardAsset,
      kind: "mission_payout",
      ref: m.id,
      at: now,
      postings: [
        { account: escrowAccount(m.id), amount: -BigInt(m.rewardAmount) },
        { account: treasuryAccount(m.id), amount: split.fee },
        ...r.winners.map((w, i) => ({
          account: agentAccount(w.submitter),
          amount: itemAt(split.amounts, i, "winner amounts"),
        })),
        ...[...split.refunds].map(([a, x]) => ({ account: agentAccount(a), amount: x })),
      ],
    });
    return;
  }
  if (split.perSlot.length === 0) throw new Error(`resolveAndPay: base-rail mission ${m.id} has no deposit`);
  for (const p of split.perSlot)
    await queueRelease(ctx, {
      mission: m,
      slot: p.slot,
      recipients: r.winners.map((w, i) => ({
        address: w.submitter,
        amount: itemAt(p.amounts, i, "winner amounts"),
        submissionId: w.submissionId,
      })),
      fee: p.fee,
      signature: r.releaseSignatures?.[p.slot.missionKey] ?? null,
      version: escrowVersionOf(ctx.deps.config.baseRail, p.slot.deposit.escrowAddress),
    });
}

/** The winners' submissions accepted with their payout. */
async function acceptWinners(ctx: TxCtx, r: Resolution, amounts: bigint[]): Promise<OutboxEvent[]> {
  const { tx, now } = ctx;
  const events: OutboxEvent[] = [];
  for (const [i, w] of r.winners.entries()) {
    const payoutAmount = itemAt(amounts, i, "winner amounts").toString();
    await tx
      .update(submissions)
      .set({
        status: "accepted",
        reason: r.winnerReason,
        payoutAmount,
        outcome: r.outcome,
        decidedAt: now,
        updatedAt: now,
        nextCheckAt: null,
      })
      .where(eq(submissions.id, w.submissionId));
    events.push(
      submissionDecided(
        r.mission,
        now,
        { id: w.submissionId, submitter: w.submitter, reason: r.winnerReason, payoutAmount },
        true,
      ),
    );
  }
  return events;
}

/** Every other pending submission rejected (`loserReasons` first, then `loserReason`), counted as a loss. */
async function rejectLosers(ctx: TxCtx, r: Resolution): Promise<OutboxEvent[]> {
  const { tx, now } = ctx;
  const m = r.mission;
  const events: OutboxEvent[] = [];
  const lose = (reason: SubmissionReason) =>
    ({ status: "rejected", reason, outcome: "loss", decidedAt: now, updatedAt: now, nextCheckAt: null }) as const;
  const pending = pendingOf(m.id);
  const returning = { id: submissions.id, submitter: submissions.submitter };
  for (const [id, reason] of Object.entries(r.loserReasons ?? {})) {
    const lost = await tx
      .update(submissions)
      .set(lose(reason))
      .where(and(eq(submissions.id, id), pending))
      .returning(returning);
    for (const l of lost) events.push(submissionDecided(m, now, { id: l.id, submitter: l.submitter, reason }, false));
  }
  const losers = await tx.update(submissions).set(lose(r.loserReason)).where(pending).returning(returning);
  // Returned rows come in no set order; events go out in arrival order (ids are time-ordered).
  for (const l of losers.sort((a, b) => (a.id < b.id ? -1 : 1)))
    events.push(submissionDecided(m, now, { id: l.id, submitter: l.submitter, reason: r.loserReason }, false));
  // Submissions rejected by their check earlier still count as losses for reputation.
  await tx
    .update(submissions)
    .set({ outcome: "loss" })
    .where(and(eq(submissions.missionId, m.id), eq(submissions.status, "rejected"), isNull(submissions.outcome)));
  return events;
}

/** The mission row resolved, and its mission.resolved (and ledger-rail payout.confirmed) events. */
async function markResolved(ctx: TxCtx, r: Resolution, split: Split): Promise<OutboxEvent[]> {
  const { tx, now } = ctx;
  const m = r.mission;
  const payoutStatus = split.onChain ? "queued" : "confirmed";
  const payouts = r.winners.map((w, i) => ({
    submission_id: w.submissionId,
    agent_id: w.submitter,
    amount: itemAt(split.amounts, i, "winner amounts").toString(),
  }));
  await tx
    .update(missions)
    .set({
      status: "resolved",
      // base rail: "settling" until the release is final on chain (payouts.steps.ts).
      phase: split.onChain ? "settling" : "settled",
      payoutStatus,
      payoutStatusReason: split.onChain ? "release_queued" : "ledger_credited",
      payoutStatusUpdatedAt: now,
      winnerSubmissionId: itemAt(r.winners, 0, "winners").submissionId,
      winnerAgentId: itemAt(r.winners, 0, "winners").submitter,
      resolutionReason: r.reason,
      feeAmount: split.fee.toString(),
      payouts,
      resolvedAt: now,
      nextActionAt: null,
      updatedAt: now,
    })
    .where(eq(missions.id, m.id));
  const resolved = missionResolved(m, now, {
    reason: r.reason,
    feeAmount: split.fee.toString(),
    payouts,
    payoutStatus,
  });
  // The ledger rail has paid in this very transaction: each payout is final now. On the base rail
  // the settlement worker emits payout.confirmed when the release reaches the confirmation depth.
  return [resolved, ...(split.onChain ? [] : payouts.map((p) => payoutConfirmed(m, now, p)))];
}

/**
 * Resolves a mission and pays its winners, in the context's transaction, which must hold the
 * mission row lock and have checked the mission is still open/escrowed (AIP-1 §6). The webhook
 * events of the resolution are written with it (transactional outbox).
 */
export async function resolveAndPay(ctx: TxCtx, r: Resolution): Promise<void> {
  // Reputation first: agent rows are locked before ledger rows on every path (no deadlock with
  // a mission creation, which touches its creator's agent row before the ledger).
  await applyResolution(ctx, {
    mission: r.mission,
    winners: r.winners.map((w) => w.submissionId),
    winnerOutcome: r.outcome === "win" ? 1 : 0.5,
    partialSubmissionIds: r.partialSubmissionIds ?? [],
    paid: r.winners.map((w) => w.submitter),
  });
  const split = await splitResolution(ctx, r);
  await lockResolution(ctx, r, split);
  await moveReward(ctx, r, split);
  const events = [
    ...(await acceptWinners(ctx, r, split.amounts)),
    ...(await rejectLosers(ctx, r)),
    ...(await markResolved(ctx, r, split)),
  ];
  await emitEvents(ctx.tx, events);
}

/** The resolutions in which one winner takes the whole reward, and what they tell the submissions. */
const ONE_WINNER = {
  first_valid_match: { winnerReason: "first_valid_match", loserReason: "another_submission_won" },
  oracle_attested: { winnerReason: "oracle_attested", loserReason: "not_selected" },
  creator_award_overturned: { winnerReason: "appeal_winner", loserReason: "not_selected" },
} satisfies Partial<Record<ResolutionReason, Pick<Resolution, "winnerReason" | "loserReason">>>;

/**
 * resolveAndPay for one winner taking the whole reward (reward − fee, outcome `win`), with the
 * submission reasons its resolution reason fixes (ONE_WINNER). Same contract as resolveAndPay.
 */
export async function payOneWinner(
  ctx: TxCtx,
  {
    winner,
    reason,
    ...rest
  }: Pick<Resolution, "mission" | "alsoLock" | "loserReasons"> & {
    winner: { id: string; submitter: string };
    reason: keyof typeof ONE_WINNER;
  },
): Promise<void> {
  await resolveAndPay(ctx, {
    ...rest,
    winners: [{ submissionId: winner.id, submitter: winner.submitter, weight: 1 }],
    reason,
    ...ONE_WINNER[reason],
    outcome: "win",
  });
}
