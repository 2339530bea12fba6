import { and, eq, sql } from "drizzle-orm";
import type { Hex } from "viem";
import type { Tx } from "../../db/client";
import { chainAccounts, chainPayouts, escrowDeposits, missions, type PayoutAttempt } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { ChainCtx, TxCtx } from "../../lib/context";
import { RpcUnavailableError, type BaseChain, type Heads, type TxReceipt } from "../../lib/base-chain";
import { firstPrice, priceTooLow, replacementPrice, type Price } from "./payouts.fees";
import { lockMission } from "../../db/mission-visibility";
import { markRoleMissing } from "../rail";
import { emitEvents, payoutConfirmed } from "../../db/outbox";
import { MISSION_COLUMNS, type PayoutRow } from "../../db/rows";
import { adoptionJudged, decisionGate } from "./payouts.decided";
import { callOf, delayedPreflight, proposalConfirmed, releaseRevert, stepLabel, stepOf } from "./payouts.paths";

/** A replaced payout's max fee per gas never exceeds this many times the current base fee (plus the tip). */
const FEE_BUMP_MAX_MULTIPLIER = 4;
/** A broadcast payout not mined after this long is re-sent (dropped) or replaced with higher fees (stuck). */
export const PAYOUT_REBROADCAST_SECONDS = 120;

// The settlement worker (docs/design.md "Escrow and settlement"): sends each queued payout with the
// resolver key and walks it through a crash-safe state machine,
//   queued → broadcast → confirmed → final,  pending_gas (resolver ETH short),  failed (reason).
// A release without the funder's signature takes the delayed path (payouts.paths.ts): the same
// machine runs twice, step propose (its confirmation moves the row back to queued, step execute,
// executable_at set) then step execute; each transaction is stored before it is sent.
// Crash safety: a transaction is signed and stored (raw bytes, hash, nonce) in the same database
// transaction that moves the payout to `broadcast`, and only sent after that commits. A crash
// before the send leaves a stored transaction that the next tick re-sends — the same bytes, so
// the same hash — never a second signature for new work. Nonces come from one locked row per
// (chain, resolver). Never paying twice: one payout row per deposit, the state machine, a
// pre-flight check for an earlier payout already on chain, and the contract's once-per-key rule.

/** pending_gas and retryable outcomes are looked at again after this long, doubling per retry. */
const RETRY_MS = 15_000;
const MAX_BACKOFF_MS = 10 * 60_000;
/** This row's own backoff after `retries` checks that changed nothing. */
export const backoffMs = (retries: number, base = RETRY_MS) =>
  Math.min(base * 2 ** Math.min(retries, 12), MAX_BACKOFF_MS);
/**
 * Outcomes that may clear by themselves: a deposit reorged out and mined again (NotFunded), the
 * node refusing the call (a misconfigured or lagging RPC: `rejected:…`). Every contract rule
 * (FeeTooHigh, BadRecipients, ExceedsDeposit, AlreadyReleased …) is final: the payout is failed
 * with the decoded reason, and the operator retries it (POST /admin/payouts/{id}/retry) once fixed.
 */
const retryable = (revert: string) => revert === "NotFunded" || revert.startsWith("rejected:");
/** …for this long after the payout was queued; then it is failed for the operator. */
const RETRYABLE_FOR_MS = 24 * 3600_000;

export const payoutStatusOf = (state: string): "queued" | "pending_gas" | "broadcast" | "confirmed" | "failed" =>
  state === "final" ? "confirmed" : (state as "queued" | "pending_gas" | "broadcast" | "confirmed" | "failed");

/** One payout step's context: the dependencies, the step's instant, and the chain port. */

export async function stepPayout(
  ctx: ChainCtx,
  { payout: p, heads }: { payout: PayoutRow; heads: Heads },
): Promise<void> {
  switch (p.state) {
    case "queued":
    case "pending_gas":
      return p.rawTx ? resend(ctx, p) : sendNew(ctx, p);
    case "broadcast":
      return watchBroadcast(ctx, p, heads);
    case "confirmed":
      return watchConfirmed(ctx, { payout: p, heads });
    default:
      return; // final, failed: nothing to do
  }
}

/**
 * Moves a payout from `expect` (state and tx hash as read) to new values, with the mission's
 * payout_status in step, under the mission then payout row locks. False when the row changed
 * meanwhile (another server, or the previous tick): the caller drops its stale view.
 */
export async function transition(
  { deps }: Pick<ChainCtx, "deps">,
  {
    payout: p,
    values,
    extra,
  }: {
    payout: PayoutRow;
    values: Partial<typeof chainPayouts.$inferInsert>;
    extra?: (tx: Tx) => Promise<void>;
  },
): Promise<boolean> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const m = await lockMission(tx, p.missionId);
    const [cur] = await tx.select().from(chainPayouts).where(eq(chainPayouts.id, p.id)).for("update");
    if (!m || !cur || cur.state !== p.state || cur.txHash !== p.txHash || cur.rawTx !== p.rawTx || cur.step !== p.step)
      return false;
    // A new state starts its own backoff afresh.
    const next = { ...(values.state && values.state !== cur.state ? { retries: 0 } : {}), ...values, updatedAt: now };
    await tx.update(chainPayouts).set(next).where(eq(chainPayouts.id, p.id));
    // A rejected deposit's refund is not the mission's settlement: only the mission's own payout
    // (its release, or the refund of its live deposit) drives payout_status.
    if (m.escrow?.deposit?.id === p.depositId && (p.kind === "release" || m.status === "voided"))
      await tx.update(missions).set(missionPayoutStatus({ p, cur, values, now })).where(eq(missions.id, m.id));
    if (extra) await extra(tx);
    return true;
  });
}

/** The mission's payout_status columns after a transition of its own payout from `cur` by `values`. */
function missionPayoutStatus(input: {
  p: PayoutRow;
  cur: PayoutRow;
  values: Partial<typeof chainPayouts.$inferInsert>;
  now: Date;
}) {
  const { p, cur, values, now } = input;
  const state = values.state ?? cur.state;
  return {
    payoutStatus: payoutStatusOf(state),
    payoutStatusReason: values.reason ?? defaultReason(p, cur, { ...cur, ...values, state }),
    payoutStatusUpdatedAt: now,
    payoutTxHash: values.minedTxHash ?? values.txHash ?? cur.minedTxHash ?? cur.txHash,
    ...(state === "final" && p.kind === "release" ? { phase: "settled" as const } : {}),
    updatedAt: now,
  };
}

/**
 * A transition's payout_status_reason when it names none. A pull credit stays visible once final
 * (receipt status "credited", docs/base-rail.md).
 */
function defaultReason(
  p: PayoutRow,
  cur: PayoutRow,
  next: Pick<PayoutRow, "kind" | "releaseSignature" | "step" | "state">,
): string {
  if (next.state !== "final") return `${stepLabel(next)}_${next.state}`;
  return cur.reason?.startsWith("credited_pull:") ? cur.reason : `${p.kind}_final`;
}

/** Allocates the next nonce for the resolver: max(stored, chain's pending count), under the row lock. */
export async function allocateNonce(
  { tx, now }: Pick<TxCtx, "tx" | "now">,
  { chain, chainNonce }: { chain: Pick<BaseChain, "chainId" | "resolver">; chainNonce: number },
): Promise<number> {
  await tx
    .insert(chainAccounts)
    .values({ chainId: chain.chainId, address: chain.resolver, nextNonce: chainNonce, updatedAt: now })
    .onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(chainAccounts)
    .where(and(eq(chainAccounts.chainId, chain.chainId), eq(chainAccounts.address, chain.resolver)))
    .for("update");
  const nonce = Math.max(row?.nextNonce ?? chainNonce, chainNonce); // the row exists: inserted above
  await tx
    .update(chainAccounts)
    .set({ nextNonce: nonce + 1, updatedAt: now })
    .where(and(eq(chainAccounts.chainId, chain.chainId), eq(chainAccounts.address, chain.resolver)));
  return nonce;
}

/** The retry fields of a wait that changed nothing: one more retry, this row's own backoff. */
const retryLater = (p: PayoutRow, now: Date) => ({
  retries: p.retries + 1,
  nextCheckAt: new Date(now.getTime() + backoffMs(p.retries)),
});

async function sendNew(ctx: ChainCtx, p: PayoutRow): Promise<void> {
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
    await transition({ deps }, { payout: p, values: { reason: "waiting:slot_empty", ...retryLater(p, now) } });
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
      { payout: p, values: { state: "pending_gas", reason: "resolver_balance_low", ...retryLater(p, now) } },
    );
  } else if (revert === "AccessControlUnauthorizedAccount") {
    // The role was revoked (a key rotation): a waiting state, never failed (docs/base-rail.md "Degrade, never exit").
    if ((p.escrowAddress ?? chain.escrow) === chain.escrow)
      markRoleMissing(deps, `${chain.resolver} does not hold RESOLVER_ROLE on ${chain.escrow}`);
    await transition(
      { deps },
      { payout: p, values: { reason: "waiting:resolver_role_missing", ...retryLater(p, now) } },
    );
  } else if (retryable(revert) && now.getTime() - p.createdAt.getTime() < RETRYABLE_FOR_MS) {
    await transition({ deps }, { payout: p, values: { reason: `waiting:${revert}`, ...retryLater(p, now) } });
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
        ...retryLater(p, now),
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
const attemptOf = (a: { hash: string; nonce: number; gas: string; price: Price; now: Date }): PayoutAttempt => ({
  tx_hash: a.hash,
  nonce: a.nonce,
  gas: a.gas,
  max_fee_per_gas: a.price.maxFeePerGas.toString(),
  max_priority_fee_per_gas: a.price.maxPriorityFeePerGas.toString(),
  at: a.now.toISOString(),
});

/** A stored, signed transaction that has not made it into the node yet (crash, pending_gas). */
async function resend({ deps, chain, now }: ChainCtx, p: PayoutRow): Promise<void> {
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

async function watchBroadcast(ctx: ChainCtx, p: PayoutRow, heads: Heads): Promise<void> {
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
