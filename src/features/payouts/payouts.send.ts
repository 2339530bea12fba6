import { and, eq, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { chainPayouts, escrowDeposits, missions, type PayoutAttempt } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { ChainCtx } from "../../lib/context";
import { RpcUnavailableError } from "../../lib/base-chain";
import { firstPrice, type Price } from "./payouts.fees";
import { markRoleMissing } from "../rail";
import type { PayoutRow } from "../../db/rows";
import { adoptionJudged, decisionGate } from "./payouts.decided";
import { callOf, delayedPreflight, releaseRevert, stepLabel, stepOf } from "./payouts.paths";
import { allocateNonce, retryLater, RETRY_MS, transition } from "./payouts.transition";

// Sending a payout's transaction (the settlement worker, payouts.steps.ts): the pre-flight checks,
// the signature stored before anything leaves, and a stored transaction sent again.

/**
 * Outcomes that may clear by themselves: a deposit reorged out and mined again (NotFunded), the
 * node refusing the call (a misconfigured or lagging RPC: `rejected:…`). Every contract rule
 * (FeeTooHigh, BadRecipients, ExceedsDeposit, AlreadyReleased …) is final: the payout is failed
 * with the decoded reason, and the operator retries it (POST /admin/payouts/{id}/retry) once fixed.
 */
const retryable = (revert: string) => revert === "NotFunded" || revert.startsWith("rejected:");
/** …for this long after the payout was queued; then it is failed for the operator. */
const RETRYABLE_FOR_MS = 24 * 3600_000;

export async function sendNew(ctx: ChainCtx, p: PayoutRow): Promise<void> {
  const { deps, chain } = ctx;
  // Nothing is signed for a plan its signed decision does not cover (payouts.decided.ts).
  if (!(await decisionGate(ctx, p))) return;
  const call = callOf(p);
  // Pre-flight: the slot already emptied on chain (a payout this database lost track of, e.g.
  // after a restore from backup)? Then never send another. One state read in the common case.
  if ((await chain.slotAmount(call)) === 0n) return slotEmpty(ctx, p);
  // The delayed path: adopt a proposal already on chain, wait for its window, see a guardian's cancel.
  if (stepOf(p) && !(await delayedPreflight(ctx, p))) return;
  const est = await chain.estimate(call);
  if (!est.ok) return estimateRefused(ctx, p, est.revert);
  const price = firstPrice(await chain.fees());
  if (await gasShort(ctx, p, est.gas * price.maxFeePerGas)) return;
  const signed = await signAndStore(ctx, p, { gas: est.gas, price });
  if (!signed) return;
  // Committed: now it may leave. Whatever happens from here, the stored bytes are re-sent.
  await afterSend(
    deps,
    p.id,
    await chain
      .sendRaw(signed.raw)
      .catch((err) => (err instanceof RpcUnavailableError ? ("unavailable" as const) : Promise.reject(err))),
  );
}

/**
 * The slot is empty on chain: adopt our payout's transaction if the bounded log search finds it,
 * else wait a while (a deposit reorged out may be mined again), then stop for the operator.
 */
async function slotEmpty({ deps, chain, now }: ChainCtx, p: PayoutRow): Promise<void> {
  const [d] = await deps.database.db
    .select({ blockNumber: escrowDeposits.blockNumber })
    .from(escrowDeposits)
    .where(eq(escrowDeposits.id, p.depositId));
  const earlier = await chain.settledTx(callOf(p), d?.blockNumber ?? 0);
  // A release someone else executed is adopted only if it paid a decided plan (payouts.decided.ts).
  if (earlier && p.kind === "release" && !(await adoptionJudged({ deps, chain, now }, { payout: p, txHash: earlier })))
    return;
  if (earlier)
    await transition(
      { deps },
      {
        payout: p,
        values: {
          state: "broadcast",
          txHash: earlier,
          // A Released log by anyone (executeRelease is open to all) is this slot's release.
          ...(stepOf(p) ? { step: "execute" as const } : {}),
          reason: "adopted_onchain_payout",
          broadcastAt: now,
          nextCheckAt: now,
        },
      },
    );
  // Empty with no payout of ours found: moved by a transaction beyond the search, or reorged out.
  else if (now.getTime() - p.createdAt.getTime() < RETRYABLE_FOR_MS)
    await transition({ deps }, { payout: p, values: { reason: "waiting:slot_empty", ...retryLater({ now }, p) } });
  else
    await transition(
      { deps },
      { payout: p, values: { state: "failed", reason: "slot_already_empty", nextCheckAt: null } },
    );
}

/** The escrow refuses the payout at estimation: a wait (gas, role, a retryable revert), or failed for the operator. */
async function estimateRefused(ctx: ChainCtx, p: PayoutRow, revert: string): Promise<void> {
  const { deps, chain, now } = ctx;
  if (await releaseRevert(ctx, { payout: p, revert })) return; // a release path's wait, not a failure
  if (revert === "insufficient_funds") {
    await transition(
      { deps },
      { payout: p, values: { state: "pending_gas", reason: "resolver_balance_low", ...retryLater({ now }, p) } },
    );
  } else if (revert === "AccessControlUnauthorizedAccount") {
    // The role was revoked (a key rotation): a waiting state, never failed (docs/base-rail.md "Degrade, never exit").
    if ((p.escrowAddress ?? chain.escrow) === chain.escrow)
      markRoleMissing(deps, `${chain.resolver} does not hold RESOLVER_ROLE on ${chain.escrow}`);
    await transition(
      { deps },
      { payout: p, values: { reason: "waiting:resolver_role_missing", ...retryLater({ now }, p) } },
    );
  } else if (retryable(revert) && now.getTime() - p.createdAt.getTime() < RETRYABLE_FOR_MS) {
    await transition({ deps }, { payout: p, values: { reason: `waiting:${revert}`, ...retryLater({ now }, p) } });
  } else {
    deps.logger.error(
      { payout: p.id, mission: p.missionId, revert },
      "settlement: the escrow refuses this payout; marked failed for the operator",
    );
    await transition(
      { deps },
      { payout: p, values: { state: "failed", reason: `reverted:${revert}`, nextCheckAt: null } },
    );
  }
}

/** The resolver cannot pay `needed` wei of gas: the payout waits in pending_gas (true). */
async function gasShort({ deps, chain, now }: ChainCtx, p: PayoutRow, needed: bigint): Promise<boolean> {
  const balance = await chain.balance(chain.resolver);
  if (balance >= needed) return false;
  deps.logger.warn(
    { payout: p.id, resolver: chain.resolver, balance: balance.toString(), needed: needed.toString() },
    "settlement: resolver gas balance too low; payout waits (pending_gas)",
  );
  await transition(
    { deps },
    {
      payout: p,
      values: {
        state: "pending_gas",
        reason: `resolver_balance_low:${balance}<${needed}`,
        ...retryLater({ now }, p),
      },
    },
  );
  return true;
}

/**
 * Signs the payout with the next nonce and stores it (raw bytes, hash, the attempt) with the move
 * to broadcast, in one transaction. Undefined when the row changed meanwhile.
 */
async function signAndStore(
  { deps, chain, now }: ChainCtx,
  p: PayoutRow,
  { gas, price }: { gas: bigint; price: Price },
): Promise<{ raw: Hex; hash: string } | undefined> {
  const chainNonce = await chain.pendingNonce();
  const step = stepOf(p);
  let signed: { raw: Hex; hash: string } | undefined;
  const ok = await transition(
    { deps },
    {
      payout: p,
      values: {},
      extra: async (tx) => {
        const nonce = await allocateNonce({ tx, now }, { chain, chainNonce });
        signed = await chain.sign(callOf(p), { nonce, gas, ...price });
        const attempt: PayoutAttempt = {
          ...attemptOf({ hash: signed.hash, nonce, gas: gas.toString(), price, now }),
          ...(step ? { step } : {}),
        };
        await tx
          .update(chainPayouts)
          .set({
            state: "broadcast",
            reason: null,
            nonce,
            txHash: signed.hash,
            rawTx: signed.raw,
            attempts: sql`${chainPayouts.attempts} || ${JSON.stringify([{ ...attempt, raw: signed.raw }])}::jsonb`,
            broadcastAt: now,
            nextCheckAt: now,
            updatedAt: now,
          })
          .where(eq(chainPayouts.id, p.id));
        await tx
          .update(missions)
          .set({
            payoutStatus: "broadcast",
            payoutStatusReason: `${stepLabel(p)}_broadcast`,
            payoutTxHash: signed.hash,
            payoutStatusUpdatedAt: now,
          })
          .where(and(eq(missions.id, p.missionId), sql`${missions.escrow}->'deposit'->>'id' = ${p.depositId}`));
      },
    },
  );
  return ok ? signed : undefined;
}

/** One signed attempt as stored in the payout's attempts (the step is added by the caller). */
export const attemptOf = (a: { hash: string; nonce: number; gas: string; price: Price; now: Date }): PayoutAttempt => ({
  tx_hash: a.hash,
  nonce: a.nonce,
  gas: a.gas,
  max_fee_per_gas: a.price.maxFeePerGas.toString(),
  max_priority_fee_per_gas: a.price.maxPriorityFeePerGas.toString(),
  at: a.now.toISOString(),
});

/** A stored, signed transaction that has not made it into the node yet (crash, pending_gas). */
export async function resend({ deps, chain, now }: ChainCtx, p: PayoutRow): Promise<void> {
  const result = await chain.sendRaw(p.rawTx as Hex);
  if (result === "sent" || result === "known") {
    await transition(
      { deps },
      { payout: p, values: { state: "broadcast", reason: null, broadcastAt: now, nextCheckAt: now } },
    );
  } else if (result === "insufficient_funds") {
    await transition(
      { deps },
      {
        payout: p,
        values: {
          state: "pending_gas",
          reason: "resolver_balance_low",
          nextCheckAt: new Date(now.getTime() + RETRY_MS),
        },
      },
    );
  } else {
    // nonce_too_low: that nonce was used — by one of our attempts (watchBroadcast finds its receipt).
    await transition({ deps }, { payout: p, values: { state: "broadcast", nextCheckAt: now } });
  }
}

async function afterSend(deps: Deps, payoutId: string, result: string): Promise<void> {
  const now = deps.clock.now();
  if (result === "insufficient_funds") {
    await deps.database.db
      .update(chainPayouts)
      .set({
        state: "pending_gas",
        reason: "resolver_balance_low",
        nextCheckAt: new Date(now.getTime() + RETRY_MS),
        updatedAt: now,
      })
      .where(and(eq(chainPayouts.id, payoutId), eq(chainPayouts.state, "broadcast")));
  }
  // sent / known / unavailable / nonce_too_low: watchBroadcast decides from the chain next tick.
}
