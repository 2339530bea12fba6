import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { escrowDeposits, missions } from "../../db/schema/index";
import type { PayoutStep } from "../../db/schema/escrow";
import type { Tx } from "../../db/client";
import type { EscrowCall, Proposal, TxReceipt } from "../../lib/base-chain";
import type { ChainCtx, Ctx } from "../../lib/context";
import { proposalHashOf, type ReleasePlan } from "../../lib/release-typed-data";
import { emitEvents, payoutReleaseEvent } from "../../db/outbox";
import { MISSION_COLUMNS, type PayoutRow } from "../../db/rows";
import { backoffMs, transition } from "./payouts.transition";
import { raiseForeignProposal } from "../custody";

// The two release paths of MissionEscrow v3 (docs/base-rail.md "Release paths").
//  1. releaseSigned: the payout row carries the funder's EIP-712 signature (a creator_judges award
//     the creator signed); one transaction, as before.
//  2. The delayed path, for every release the server decides on its own: proposeRelease, then —
//     once the proposal is confirmed and chain time ≥ executable_at — executeRelease. A proposal
//     already on chain under this payout's hash is adopted, never sent twice; a `Released` by
//     anyone else is adopted (payouts.steps.ts pre-flight). A guardian's cancel parks the payout
//     (waiting:release_cancelled, no next check) until the operator retries it: never a refund.
// CapExceeded, ReleaseNotReady, EnforcedPause and v4's SignedOnly are waits with their own backoff, never failures
// (a missing resolver role too: payouts.steps.ts, which also marks the rail unavailable).

const ZERO_HASH = `0x${"0".repeat(64)}`;
/** Base of the backoff of the cap, pause and role waits (doubling, at most 10 min). */
const RELEASE_WAIT_MS = 60_000;
/** A pending proposal is read again at most this many poll intervals apart (a cancel shows within it). */
const WATCH_POLLS = 15;

/**
 * The delayed path's current step; null for a refund, a signed release, or a release of a slot
 * held by a v2 contract (one transaction: v2's instant `release`; queueRelease sets no step for
 * it, docs/base-rail.md "Migrating to a new escrow").
 */
export function stepOf(p: Pick<PayoutRow, "kind" | "releaseSignature" | "step">): PayoutStep | null {
  if (p.kind !== "release" || p.releaseSignature) return null;
  return p.step;
}

/** What a payout's transaction is called in payout_status_reason: release_proposal / release / refund. */
export const stepLabel = (p: Pick<PayoutRow, "kind" | "releaseSignature" | "step">): string =>
  stepOf(p) === "propose" ? "release_proposal" : p.kind;

const planOf = (p: PayoutRow): ReleasePlan => ({
  missionKey: p.missionKey as Hex,
  funder: p.funder,
  recipients: p.recipients.map((r) => r.address),
  amounts: p.recipients.map((r) => BigInt(r.amount)),
  fee: BigInt(p.fee),
});

/** The transaction a payout sends next, to the row's own contract. */
export function callOf(p: PayoutRow): EscrowCall {
  const escrow = p.escrowAddress ?? undefined; // null: the configured contract
  if (p.kind === "refund") return { kind: "refund", missionKey: p.missionKey as Hex, funder: p.funder, escrow };
  if (p.releaseSignature) return { kind: "releaseSigned", signature: p.releaseSignature as Hex, ...planOf(p), escrow };
  const step = stepOf(p);
  // A slot on a v2 contract: v2's instant release (no signature, no delay there).
  if (!step) return { kind: "releaseV2", ...planOf(p), escrow };
  return { kind: step, ...planOf(p), escrow };
}

/** The release path fields of a payout row (GET /treasury, /admin/payouts). */
export const releasePathWire = (p: PayoutRow) => ({
  release_path: p.kind !== "release" ? null : p.releaseSignature ? ("signed" as const) : ("delayed" as const),
  step: stepOf(p),
  proposal_tx_hash: p.proposalTxHash,
  executable_at: p.executableAt?.toISOString() ?? null,
});

const later = (now: Date, ms: number) => new Date(now.getTime() + ms);
/** The reason of a proposed release (payout and mission): when anyone may execute it. */
const proposedReason = (at: Date | null) => (at ? `release_proposed:${at.toISOString()}` : "release_proposed");

/**
 * Before a delayed-path transaction is signed (the slot is known funded): reads proposalOf.
 * True: go on and send this step's transaction. False: the row moved (adopted, waiting, parked).
 */
export async function delayedPreflight({ deps, chain, now }: ChainCtx, p: PayoutRow): Promise<boolean> {
  const plan = planOf(p);
  const ours = proposalHashOf(plan);
  const onChain = await chain.proposal(plan.missionKey, plan.funder, p.escrowAddress ?? undefined);
  if (onChain.hash === ours) return oursProposed({ deps, chain, now }, p, onChain);
  if (onChain.hash !== ZERO_HASH) {
    // Another plan is proposed for this slot (an older decision, or a stolen resolver key): only
    // the guardian can cancel it. Loud, and waiting; it is never executed for this payout.
    deps.logger.error(
      { payout: p.id, mission: p.missionId, proposal: onChain.hash, ours },
      "settlement: a different release is proposed for this slot; the guardian should cancel it",
    );
    // A custody alert (docs/custody.md), listed until the guardian cancels it or the slot empties.
    await transition(
      { deps },
      {
        payout: p,
        values: {
          reason: "waiting:foreign_proposal",
          retries: p.retries + 1,
          nextCheckAt: later(now, backoffMs(p.retries, RELEASE_WAIT_MS)),
        },
        extra: (tx) =>
          raiseForeignProposal(
            { tx, deps, chain, now },
            {
              contract: p.escrowAddress ?? chain.escrow,
              missionId: p.missionId,
              missionKey: p.missionKey.toLowerCase(),
              funder: p.funder.toLowerCase(),
              proposalHash: onChain.hash,
              executableAt: onChain.executableAt,
              payoutId: p.id,
            },
          ).then(() => undefined),
      },
    );
    return false;
  }
  if (stepOf(p) === "propose") return true;
  await proposalGone({ deps, chain, now }, p);
  return false;
}

/**
 * Our proposal is on chain: adopted by a propose step (a stored proposal mined after a crash, a
 * re-queued row); an execute step goes on once chain time reaches executable_at, else waits.
 */
async function oursProposed(ctx: ChainCtx, p: PayoutRow, onChain: Proposal): Promise<boolean> {
  const { deps, chain, now } = ctx;
  const executableAt = new Date(onChain.executableAt * 1000);
  if (stepOf(p) === "propose") {
    await transition(
      { deps },
      {
        payout: p,
        values: { step: "execute", executableAt, reason: proposedReason(executableAt), nextCheckAt: now },
        extra: (tx) =>
          announce(tx, p, { type: "payout.proposed", now, data: { executable_at: executableAt.toISOString() } }),
      },
    );
    return false;
  }
  const chainNow = await chain.chainTime();
  if (chainNow >= onChain.executableAt) return true;
  const left = (onChain.executableAt - chainNow) * 1000;
  const pollMs = deps.config.baseRail?.pollMs ?? 4_000;
  await transition(
    { deps },
    {
      payout: p,
      values: {
        reason: proposedReason(executableAt),
        executableAt,
        nextCheckAt: later(now, Math.min(left, WATCH_POLLS * pollMs)),
      },
    },
  );
  return false;
}

/**
 * Step execute, the slot still funded, no proposal: a guardian cancelled it (the payout is parked
 * for the operator), or its block was reorged away (proposed again).
 */
async function proposalGone({ deps, chain, now }: ChainCtx, p: PayoutRow): Promise<void> {
  const from = p.proposalTxHash ? await chain.receipt(p.proposalTxHash) : null;
  const [d] = await deps.database.db
    .select({ blockNumber: escrowDeposits.blockNumber })
    .from(escrowDeposits)
    .where(eq(escrowDeposits.id, p.depositId));
  const cancel = await chain.cancelledTx({
    missionKey: planOf(p).missionKey,
    funder: p.funder,
    fromBlock: from?.blockNumber ?? d?.blockNumber ?? 0,
    contract: p.escrowAddress ?? undefined,
  });
  const again = { step: "propose" as const, proposalTxHash: null, executableAt: null };
  if (!cancel) {
    await transition({ deps }, { payout: p, values: { ...again, reason: "proposal_reorged", nextCheckAt: now } });
    return;
  }
  deps.logger.warn(
    { payout: p.id, mission: p.missionId, cancel },
    "settlement: the guardian cancelled this release; waiting for the operator (POST /admin/payouts/{id}/retry)",
  );
  await transition(
    { deps },
    {
      payout: p,
      values: { ...again, reason: "waiting:release_cancelled", nextCheckAt: null },
      extra: (tx) =>
        announce(tx, p, {
          type: "payout.cancelled",
          now,
          data: { cancel_tx_hash: cancel, reason: "release_cancelled" },
        }),
    },
  );
}

/**
 * A release path's revert at estimation: a wait (cap, window, pause, role), a signature the
 * contract refuses (the release falls back to the delayed path), or a proposal that changed.
 * True when handled here.
 */
export async function releaseRevert(
  { deps, now }: Pick<Ctx, "deps" | "now">,
  { payout: p, revert }: { payout: PayoutRow; revert: string },
): Promise<boolean> {
  const pollMs = deps.config.baseRail?.pollMs ?? 4_000;
  const wait = (reason: string, base: number) =>
    transition(
      { deps },
      { payout: p, values: { reason, retries: p.retries + 1, nextCheckAt: later(now, backoffMs(p.retries, base)) } },
    );
  switch (revert) {
    case "CapExceeded":
      return (await wait("waiting:CapExceeded", RELEASE_WAIT_MS), true);
    case "EnforcedPause":
      return (await wait("waiting:paused", RELEASE_WAIT_MS), true);
    case "ReleaseNotReady":
    case "ReleasePending":
      return (await wait(`waiting:${revert}`, pollMs), true);
    case "SignedOnly":
      // v4: the funder asked for signed releases until its judging window ends; the delayed
      // path waits for that time (docs/base-rail.md "Trust model (contract v4)").
      return (await wait("waiting:signed_only", RELEASE_WAIT_MS), true);
    case "NoProposal":
    case "ProposalMismatch":
    case "ProposalRevoked": // v4: the resolver's office changed; the current resolver proposes again
      if (stepOf(p) !== "execute") return false;
      await transition(
        { deps },
        {
          payout: p,
          values: {
            step: "propose",
            proposalTxHash: null,
            executableAt: null,
            reason: revert,
            nextCheckAt: now,
          },
        },
      );
      return true;
    case "BadFunderSignature":
    case "SignatureExpired": // v4: past its deadline the signature is dead; the delayed path pays
      if (!p.releaseSignature) return false;
      // The signed plan is not this payout's (it changed after signing): the delayed path pays it.
      deps.logger.warn({ payout: p.id, mission: p.missionId }, "settlement: funder signature refused; delayed path");
      await transition(
        { deps },
        {
          payout: p,
          values: {
            releaseSignature: null,
            step: "propose",
            reason: "signature_rejected",
            nextCheckAt: now,
          },
        },
      );
      return true;
    default:
      return false;
  }
}

/** A mined proposal at the confirmation depth: the row goes back to queued, step execute. */
export async function proposalConfirmed(
  { deps, chain }: Pick<ChainCtx, "deps" | "chain">,
  { payout: p, receipt }: { payout: PayoutRow; receipt: TxReceipt },
): Promise<void> {
  const now = deps.clock.now();
  const onChain = await chain.proposal(p.missionKey as Hex, p.funder, p.escrowAddress ?? undefined);
  const executableAt = onChain.hash === proposalHashOf(planOf(p)) ? new Date(onChain.executableAt * 1000) : null;
  await transition(
    { deps },
    {
      payout: p,
      values: {
        state: "queued",
        step: "execute",
        proposalTxHash: receipt.txHash,
        executableAt,
        txHash: null,
        rawTx: null,
        nonce: null,
        reason: proposedReason(executableAt),
        nextCheckAt: now,
      },
      extra: (tx) =>
        announce(tx, p, {
          type: "payout.proposed",
          now,
          data: { proposal_tx_hash: receipt.txHash, executable_at: executableAt?.toISOString() ?? null },
        }),
    },
  );
}

async function announce(
  tx: Tx,
  p: PayoutRow,
  { type, now, data }: { type: "payout.proposed" | "payout.cancelled"; now: Date; data: Record<string, unknown> },
): Promise<void> {
  const [m] = await tx.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, p.missionId));
  if (!m) return;
  await emitEvents(tx, [
    payoutReleaseEvent(m, now, type, {
      payout_id: p.id,
      chain_id: p.chainId,
      mission_key: p.missionKey,
      funder: p.funder,
      amount: p.amount,
      ...data,
    }),
  ]);
}
