import { eq, sql } from "drizzle-orm";
import { chainPayouts, escrowDeposits, missions } from "../../db/schema/index";
import { withTx, type Ctx, type TxCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { emitEvents, missionVoided } from "../../db/outbox";
import { lockPayout, payoutToAdminWire, trimAdminActions } from "./payouts.admin";
import { signDecision } from "../../lib/decision-sign";
import { appendAudit } from "../../db/audit";

// POST /admin/payouts/{id}/convert (docs/base-rail.md "Operator routes"): a release the escrow
// will never pay (e.g. reverted:BadRecipients) becomes the refund of the whole deposit to its
// funder, and the mission is voided (resolution_reason payout_converted_to_refund): the winners
// were not paid, so the mission no longer shows a resolution, issues no receipts, and announces
// mission.voided like any void.
//
// The payout row is converted in place rather than a second row queued: chain_payouts allows one
// payout per deposit (chain_payouts_deposit_uq, the first line against paying twice), and the
// row's admin_actions keep the audit trail of the whole story. Safety on chain: only a `failed`
// release with no signed transaction and none mined can be converted, its earlier attempts (all
// reverted or never sent: their nonces are spent) are dropped so no old receipt is read as the
// refund's, and the refund goes through the worker's pre-flight slot check like any payout.

const CONVERTIBLE_STATES = ["failed"] as const;

export async function convertPayout(ctx: Ctx, { id, reason }: { id: string; reason: string }) {
  const { deps, now } = ctx;
  const { row, dropped } = await withTx(ctx, async (tx) => {
    const { m, p } = await lockPayout(tx, id);
    assertConvertible(p, m);
    const [d] = await tx.select().from(escrowDeposits).where(eq(escrowDeposits.id, p.depositId));
    if (!d) throw new AppError("CONFLICT", `deposit ${p.depositId} is missing`, { reason: "deposit_missing" });
    const why = `admin_convert:${reason}`;
    await appendAudit(tx, {
      at: now,
      action: "payout.convert",
      target: id,
      detail: { reason, mission_id: m.id, from_state: p.state },
    });
    const updated = await refundInPlace({ tx, now, deps }, { p, d, reason });
    // The winners were not paid: the mission reads as voided, with no resolution and no fee taken.
    await tx
      .update(missions)
      .set({
        status: "voided",
        phase: "closed",
        resolutionReason: "payout_converted_to_refund",
        voidedAt: now,
        winnerSubmissionId: null,
        winnerAgentId: null,
        payouts: null,
        feeAmount: null,
        resolvedAt: null,
        nextActionAt: null,
        payoutStatus: "queued",
        payoutStatusReason: why,
        payoutStatusUpdatedAt: now,
        payoutTxHash: null,
        updatedAt: now,
      })
      .where(eq(missions.id, m.id));
    await emitEvents(tx, [missionVoided(m, now, "payout_converted_to_refund")]);
    return { row: updated, dropped: p.attempts.map((a) => a.tx_hash) };
  });
  await trimAdminActions(ctx, row);
  deps.logger.warn(
    { payout: id, mission: row.missionId, action: "convert", reason, dropped_attempts: dropped },
    "admin: release converted into a refund; mission voided",
  );
  return payoutToAdminWire(row);
}

type Locked = Awaited<ReturnType<typeof lockPayout>>;

/** Only a failed release of the mission's live deposit, with no transaction that may have reached the chain. */
function assertConvertible(p: Locked["p"], m: Locked["m"]): void {
  if (!(CONVERTIBLE_STATES as readonly string[]).includes(p.state)) {
    throw new AppError("CONFLICT", `a ${p.state} payout cannot be converted into a refund`, {
      reason: "payout_state",
      state: p.state,
      allowed: CONVERTIBLE_STATES,
    });
  }
  if (p.kind !== "release")
    throw new AppError("CONFLICT", "only a release can be converted into a refund", {
      reason: "payout_kind",
      kind: p.kind,
    });
  if (p.rawTx || p.minedTxHash) {
    throw new AppError("CONFLICT", "this payout has a transaction that may have reached the chain", {
      reason: "payout_in_flight",
      state: p.state,
    });
  }
  if (m.status !== "resolved" || m.escrow?.deposit?.id !== p.depositId) {
    throw new AppError("CONFLICT", "the payout is not the settlement of its mission's live deposit", {
      reason: "mission_state",
      status: m.status,
    });
  }
}

/** The release row becomes the refund of the whole deposit to its funder, queued afresh (attempts dropped). */
async function refundInPlace(
  { tx, now, deps }: TxCtx,
  { p, d, reason }: { p: Locked["p"]; d: typeof escrowDeposits.$inferSelect; reason: string },
) {
  // The operator's conversion is a new decision of the server: signed like any (docs/custody.md).
  const decision = signDecision(
    {
      payout_id: p.id,
      mission_id: p.missionId,
      kind: "refund",
      chain_id: p.chainId,
      escrow: p.escrowAddress ?? deps.config.baseRail?.escrow ?? "",
      mission_key: p.missionKey,
      funder: p.funder,
      token: p.token,
      recipients: [{ address: d.funder, amount: d.amount }],
      fee: "0",
    },
    deps.receiptKeys,
    now,
  );
  const entry = { action: "convert" as const, reason, from_state: p.state, at: now.toISOString() };
  const [updated] = await tx
    .update(chainPayouts)
    .set({
      kind: "refund",
      decision: decision as unknown as Record<string, unknown>,
      recipients: [{ address: d.funder, amount: d.amount }],
      fee: "0",
      amount: d.amount,
      state: "queued",
      reason: `admin_convert:${reason}`,
      nonce: null,
      txHash: null,
      rawTx: null,
      attempts: [],
      // A refund is one transaction: no release path (docs/base-rail.md "Release paths").
      releaseSignature: null,
      step: null,
      proposalTxHash: null,
      executableAt: null,
      retries: 0,
      nextCheckAt: now,
      updatedAt: now,
      adminActions: sql`(${chainPayouts.adminActions} || ${JSON.stringify([entry])}::jsonb)`,
    })
    .where(eq(chainPayouts.id, p.id))
    .returning();
  if (!updated) throw new AppError("NOT_FOUND", `payout ${p.id} not found`);
  return updated;
}
