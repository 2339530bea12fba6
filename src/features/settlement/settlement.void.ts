import { eq } from "drizzle-orm";
import type { TxCtx } from "../../lib/context";
import { missions, submissions } from "../../db/schema/index";
import { escrowSlots } from "../deposits";
import { queueRefund } from "../payouts";
import { agentAccount, escrowAccount, transfer } from "../ledger";
import type { ResolutionReason } from "../../lib/reasons";
import { emitEvents, missionVoided, submissionDecided } from "../../db/outbox";
import type { MissionRow } from "../../db/rows";
import { pendingOf } from "../../db/mission-parts";
import { ledgerFunders } from "./settlement.split";

/** Each funded slot goes back to its funder on chain (the mission's own deposit and every applied top-up's). */
async function refundOnChain(ctx: TxCtx, m: MissionRow): Promise<void> {
  for (const sl of await escrowSlots(ctx.tx, m)) {
    const d = sl.deposit;
    if (d.status !== "confirmed" && d.status !== "final") continue; // unfunded: nothing to return
    await queueRefund(ctx, {
      mission: m,
      deposit: d,
      reason: "refund_queued",
      touchMission: d.amendmentId === null,
      missionKey: sl.missionKey,
    });
  }
}

/** Back to whoever funded the escrow: the creator, and each top-up's caller its top-up. */
async function refundOnLedger(ctx: TxCtx, m: MissionRow): Promise<void> {
  const funders = await ledgerFunders(ctx.tx, m);
  await transfer(ctx.tx, {
    asset: m.rewardAsset,
    kind: "mission_refund",
    ref: m.id,
    at: ctx.now,
    postings: [
      { account: escrowAccount(m.id), amount: -BigInt(m.rewardAmount) },
      ...[...funders].map(([a, x]) => ({ account: agentAccount(a), amount: x })),
    ],
  });
}

/**
 * Voids a mission and refunds its reward to its funders (the spam fee stays with the treasury).
 * Same contract as resolveAndPay: the context's transaction, mission row locked and still live.
 */
export async function voidAndRefund(
  ctx: TxCtx,
  input: { mission: MissionRow; reason: ResolutionReason },
): Promise<void> {
  const { tx, now } = ctx;
  const { mission: m, reason } = input;
  await (m.rewardChain === "base" ? refundOnChain(ctx, m) : refundOnLedger(ctx, m));
  const rejected = await tx
    .update(submissions)
    .set({ status: "rejected", reason: "mission_voided", decidedAt: now, updatedAt: now, nextCheckAt: null })
    .where(pendingOf(m.id))
    .returning({ id: submissions.id, submitter: submissions.submitter });
  await tx
    .update(missions)
    .set({
      status: "voided",
      phase: "closed",
      resolutionReason: reason,
      voidedAt: now,
      nextActionAt: null,
      updatedAt: now,
    })
    .where(eq(missions.id, m.id));
  // A pending_escrow mission was never public: its end is nobody's event (webhooks).
  if (m.status === "pending_escrow") return;
  await emitEvents(tx, [
    ...rejected
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((x) => submissionDecided(m, now, { id: x.id, submitter: x.submitter, reason: "mission_voided" }, false)),
    missionVoided(m, now, reason),
  ]);
}
