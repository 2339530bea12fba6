import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client";
import type { Deps } from "../../deps";
import { applyResolution } from "../reputation";
import { escrowDeposits, missions, submissions } from "../../db/schema/index";
import { queueRefund, queueRelease } from "../escrow";
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

type Mission = Omit<MissionRow, "search">;

export interface Winner {
  submissionId: string;
  submitter: string;
  /** Relative weight of this winner's share of the reward net of the fee (share_bps, or 1 each). */
  weight: number;
}

/**
 * Integer split of the reward: fee = floor(reward × fee_bps / 10 000) to the treasury, then
 * net × weight / Σweights to each winner, rounding dust to the first winner (design.md).
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
 * Resolves a mission and pays its winners on the ledger rail, in the caller's transaction, which
 * must hold the mission row lock and have checked the mission is still open/escrowed. One
 * transfer moves the whole escrow: reward − fee to the winners, fee to the treasury (AIP-1 §6).
 */
export async function resolveAndPay(
  tx: Tx,
  m: Mission,
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
  const { fee, amounts } = splitReward(
    reward - refund,
    opts.feeBps,
    winners.map((w) => w.weight),
  );
  // base rail: the reward is on chain; the release is queued here (an outbox row, committed with
  // the resolution) and sent by the settlement worker. Stakes stay on the ledger either way.
  const onChain = m.rewardChain === "base";
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
            ...(refund > 0n ? [{ account: agentAccount(m.creator), asset: m.rewardAsset }] : []),
          ]),
      ...(opts.alsoLock ?? []),
    ],
    opts.now,
  );
  if (onChain) {
    await queueRelease(
      tx,
      m,
      winners.map((w, i) => ({ address: w.submitter, amount: amounts[i]!, submissionId: w.submissionId })),
      fee,
      opts.now,
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
        ...(refund > 0n ? [{ account: agentAccount(m.creator), amount: refund }] : []),
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
export async function voidAndRefund(tx: Tx, m: Mission, opts: { now: Date; reason: ResolutionReason }): Promise<void> {
  if (m.rewardChain === "base") {
    // The deposit's slot goes back to its funder on chain; an unfunded mission has nothing to return.
    const live = m.escrow?.deposit;
    if (live && (live.status === "confirmed" || live.status === "final")) {
      const [d] = await tx.select().from(escrowDeposits).where(eq(escrowDeposits.id, live.id));
      if (d) await queueRefund(tx, m, d, opts.now, "refund_queued", { touchMission: true });
    }
  } else
    await transfer(tx, {
      asset: m.rewardAsset,
      kind: "mission_refund",
      ref: m.id,
      at: opts.now,
      postings: [
        { account: escrowAccount(m.id), amount: -BigInt(m.rewardAmount) },
        { account: agentAccount(m.creator), amount: BigInt(m.rewardAmount) },
      ],
    });
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
