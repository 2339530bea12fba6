import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import type { Tx } from "../../db/client";
import { missions, type PayoutAttempt } from "../../db/schema/index";
import type { ChainCtx } from "../../lib/context";
import type { BaseChain, Heads, TxReceipt } from "../../lib/base-chain";
import { firstPrice, priceTooLow, replacementPrice, type Price } from "./payouts.fees";
import { emitEvents, payoutConfirmed } from "../../db/outbox";
import { MISSION_COLUMNS, type PayoutRow } from "../../db/rows";
import { decisionGate } from "./payouts.decided";
import { callOf, proposalConfirmed, stepOf } from "./payouts.paths";
import { RETRY_MS, transition } from "./payouts.transition";
import { attemptOf } from "./payouts.send";

// Watching a sent payout (the settlement worker, payouts.steps.ts): mined, confirmed at the depth,
// final; or dropped, stuck (a fee bump) or reorged out (sent again).

/** A replaced payout's max fee per gas never exceeds this many times the current base fee (plus the tip). */
const FEE_BUMP_MAX_MULTIPLIER = 4;
/** A broadcast payout not mined after this long is re-sent (dropped) or replaced with higher fees (stuck). */
export const PAYOUT_REBROADCAST_SECONDS = 120;

/** Receipts of every attempt of the current step (a replacement may have won); the first mined one counts. */
async function minedAttempt(chain: BaseChain, p: PayoutRow): Promise<TxReceipt | null> {
  const step = stepOf(p) ?? undefined;
  const mine = p.attempts.filter((a) => a.step === step);
  const hashes = [
    ...new Set([p.txHash, ...mine.map((a) => a.tx_hash).reverse()].filter((h): h is string => Boolean(h))),
  ];
  for (const h of hashes) {
    const r = await chain.receipt(h);
    if (r) return r;
  }
  return null;
}

export async function watchBroadcast(
  ctx: ChainCtx,
  { payout: p, heads }: { payout: PayoutRow; heads: Heads },
): Promise<void> {
  const { deps, chain, now } = ctx;
  const receipt = await minedAttempt(chain, p);
  if (receipt) return mined(ctx, p, { receipt, heads });
  if (!p.txHash) return;
  if (!p.rawTx) {
    // An adopted on-chain payout whose receipt is gone (reorged): back to the pre-flight check.
    await transition(
      { deps },
      { payout: p, values: { state: "queued", txHash: null, reason: "adopted_payout_reorged", nextCheckAt: now } },
    );
    return;
  }
  const last = p.attempts[p.attempts.length - 1];
  const signed = last && p.nonce !== null ? { last, nonce: p.nonce } : null;
  if (!(await chain.knowsTransaction(p.txHash))) return dropped(ctx, p, signed);
  const waitedMs = now.getTime() - (p.broadcastAt?.getTime() ?? now.getTime());
  if (waitedMs >= PAYOUT_REBROADCAST_SECONDS * 1000 && signed) await bumpFee(ctx, p, signed);
}

/** Pending too long: the same nonce with a higher price from the current base fee (payouts.fees.ts), within the bound. */
async function bumpFee(ctx: ChainCtx, p: PayoutRow, signed: Signed): Promise<void> {
  const { deps, chain, now } = ctx;
  const market = await chain.fees();
  const price = replacementPrice(priceOf(signed.last), { market, maxMultiplier: FEE_BUMP_MAX_MULTIPLIER });
  if (price) await replace(ctx, p, { ...signed, price, reason: "fee_bumped" });
  else {
    deps.logger.warn(
      { payout: p.id, base_fee: market.baseFee.toString() },
      "settlement: a stuck payout's fee bump would exceed the bound; waiting",
    );
    await transition(
      { deps },
      { payout: p, values: { reason: "fee_bump_capped", broadcastAt: now, nextCheckAt: now } },
    );
  }
}

/** The last attempt and the nonce of a payout signed here: what a replacement reuses. */
interface Signed {
  last: PayoutAttempt;
  nonce: number;
}

/** One of the current step's attempts is mined: requeued if it reverted, else confirmed at the depth. */
async function mined(ctx: ChainCtx, p: PayoutRow, { receipt, heads }: { receipt: TxReceipt; heads: Heads }) {
  const { deps, now } = ctx;
  if (receipt.status === "reverted") {
    deps.logger.error(
      { payout: p.id, tx: receipt.txHash },
      "settlement: payout transaction reverted; requeued for a pre-flight check",
    );
    // The nonce is spent; whether the payout already happened is for the pre-flight check to say.
    await transition(
      { deps },
      {
        payout: p,
        values: {
          state: "queued",
          reason: "reverted_onchain",
          rawTx: null,
          txHash: null,
          nextCheckAt: new Date(now.getTime() + RETRY_MS),
        },
      },
    );
    return;
  }
  if (receipt.blockNumber > heads.confirmed) return; // mined, not deep enough yet
  // A confirmed proposal: the same row goes on to its execution (payouts.paths.ts).
  if (stepOf(p) === "propose") return proposalConfirmed({ deps, chain: ctx.chain }, { payout: p, receipt });
  const credited = receipt.credited.length ? `credited_pull:${receipt.credited.map((c) => c.to).join(",")}` : null;
  await transition(
    { deps },
    {
      payout: p,
      values: {
        state: "confirmed",
        minedTxHash: receipt.txHash,
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash,
        confirmedAt: now,
        gasSpentWei: receipt.gasSpentWei?.toString() ?? null,
        reason: credited,
        nextCheckAt: now,
      },
      extra: (tx) => announcePaid(tx, p, { receipt, now }),
    },
  );
}

/**
 * Each winner's share has reached them (or their pull credit) at the confirmation depth. A reorg
 * and re-confirmation announces it again: receivers dedupe on the event id anyway.
 */
async function announcePaid(tx: Tx, p: PayoutRow, { receipt, now }: { receipt: TxReceipt; now: Date }) {
  if (p.kind !== "release") return;
  const [m] = await tx.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, p.missionId));
  if (!m) return;
  await emitEvents(
    tx,
    p.recipients.flatMap((r) =>
      r.submission_id
        ? [
            payoutConfirmed(
              m,
              now,
              { submission_id: r.submission_id, agent_id: r.address, amount: r.amount },
              {
                chain_id: p.chainId,
                tx_hash: receipt.txHash,
                delivery: receipt.credited.some((c) => c.to === r.address.toLowerCase()) ? "pull_credit" : "transfer",
              },
            ),
          ]
        : [],
    ),
  );
}

/**
 * Dropped from the mempool, or reorged out of a block. Evicted for a max fee below the current
 * base fee: the same bytes would be dropped again, so re-price (same nonce, stored gas).
 */
async function dropped(ctx: ChainCtx, p: PayoutRow, signed: Signed | null): Promise<void> {
  const { deps, chain, now } = ctx;
  const market = await chain.fees();
  if (signed && priceTooLow(priceOf(signed.last), market)) {
    const fresh = firstPrice(market);
    const bumped = replacementPrice(priceOf(signed.last), { market, maxMultiplier: 1_000 });
    const price = fresh.maxFeePerGas > BigInt(signed.last.max_fee_per_gas) || !bumped ? fresh : bumped;
    await replace(ctx, p, { ...signed, price, reason: "evicted_repriced" });
    return;
  }
  const r = await chain.sendRaw(p.rawTx as Hex);
  if (r === "insufficient_funds")
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
  else if (r === "underpriced" && signed) {
    const price = replacementPrice(priceOf(signed.last), { market, maxMultiplier: FEE_BUMP_MAX_MULTIPLIER });
    if (price) await replace(ctx, p, { ...signed, price, reason: "evicted_repriced" });
  } else if (r === "nonce_too_low") {
    // The nonce was consumed and none of our attempts is mined: something else used it. The
    // pre-flight check (the slot's state, then the contract's own rules) decides whether to send anew.
    await transition(
      { deps },
      {
        payout: p,
        values: {
          state: "queued",
          rawTx: null,
          txHash: null,
          reason: "nonce_consumed",
          nextCheckAt: now,
        },
      },
    );
  }
}

const priceOf = (a: PayoutAttempt): Price => ({
  maxFeePerGas: BigInt(a.max_fee_per_gas),
  maxPriorityFeePerGas: BigInt(a.max_priority_fee_per_gas),
});

/**
 * Signs the payout again with its nonce and stored gas at `price`, stores it (the previous
 * attempts stay: whichever is mined counts), then sends it.
 */
async function replace(
  { deps, chain, now }: ChainCtx,
  p: PayoutRow,
  { last, nonce, price, reason }: Signed & { price: Price; reason: string },
): Promise<void> {
  if (!(await decisionGate({ deps, chain, now }, p))) return; // a re-signature is a signature
  const signed = await chain.sign(callOf(p), { nonce, gas: BigInt(last.gas), ...price });
  const step = stepOf(p);
  const attempt = {
    ...attemptOf({ hash: signed.hash, nonce, gas: last.gas, price, now }),
    raw: signed.raw,
    ...(step ? { step } : {}),
  };
  // Bounded: a payout keeps its last 16 attempts (the older ones were outbid or evicted long ago).
  const ok = await transition(
    { deps },
    {
      payout: p,
      values: {
        txHash: signed.hash,
        rawTx: signed.raw,
        broadcastAt: now,
        reason,
        attempts: [...p.attempts, attempt].slice(-16),
        nextCheckAt: now,
      },
    },
  );
  if (ok) await chain.sendRaw(signed.raw).catch(() => undefined); // any outcome: the next check reads the chain
}

export async function watchConfirmed(
  { deps, chain, now }: ChainCtx,
  { payout: p, heads }: { payout: PayoutRow; heads: Heads },
): Promise<void> {
  const receipt = p.minedTxHash ? await chain.receipt(p.minedTxHash) : null;
  if (!receipt || receipt.status !== "success") {
    // Reorged out before it was final: back to broadcast with the mined attempt's bytes (its
    // nonce is free again on the new chain); the node usually re-includes it by itself.
    const mined = p.attempts.find((a) => a.tx_hash === p.minedTxHash) as (PayoutAttempt & { raw?: string }) | undefined;
    deps.logger.warn({ payout: p.id, tx: p.minedTxHash }, "settlement: confirmed payout reorged out; re-sending");
    await transition(
      { deps },
      {
        payout: p,
        values: {
          state: mined?.raw ? "broadcast" : "queued",
          txHash: mined?.raw ? p.minedTxHash : null,
          rawTx: mined?.raw ?? null,
          minedTxHash: null,
          blockNumber: null,
          blockHash: null,
          confirmedAt: null,
          gasSpentWei: null,
          reason: "reorged",
          broadcastAt: now,
          nextCheckAt: now,
        },
      },
    );
    return;
  }
  if (receipt.blockHash !== p.blockHash) {
    await transition(
      { deps },
      { payout: p, values: { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, nextCheckAt: now } },
    );
    return;
  }
  if (receipt.blockNumber <= heads.final)
    await transition({ deps }, { payout: p, values: { state: "final", finalAt: now, nextCheckAt: null } });
}
