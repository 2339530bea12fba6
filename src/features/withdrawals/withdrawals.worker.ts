import { and, asc, eq, inArray, isNotNull, lte } from "drizzle-orm";
import type { Hex } from "viem";
import type { Tx } from "../../db/client";
import { withdrawals } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { RpcUnavailableError, type BaseChain, type Heads } from "../../lib/base-chain";
import { signReceipt } from "../../lib/receipt-sign";
import { allocateNonce, backoffMs, firstPrice } from "../payouts";
import { chainHeads } from "../rail";
import { releaseHeld, returnHeld, type WithdrawalRow } from "./withdrawals.service";

// The settlement worker's withdrawal pass (docs/withdrawals.md "Exactly once"): the same
// discipline as a payout (payouts.steps.ts), for an ERC-20 transfer from the resolver key.
//   queued → broadcast → confirmed (held amount → external, signed receipt)
//   failed (reverted, nonce taken by another transaction, or refused for a day: amount returned)
// The transfer is signed with a nonce from the shared `chain_accounts` row and stored (raw bytes,
// hash, nonce) in the commit that marks the row `broadcast`, and sent only after: a crash re-sends
// the same bytes, so one nonce, one transaction, one payment. Every state change is conditional on
// the state read, in the transaction that moves the money, so a ledger move happens once.

const BATCH = 20;
/** A transfer the chain keeps refusing (token balance, gas) waits this long, then fails and returns the money. */
const REFUSED_FOR_MS = 24 * 3600_000;

interface Step {
  deps: Deps;
  chain: BaseChain;
  now: Date;
  heads: Heads;
}

/** One pass over the due withdrawals; a no-op without the base rail's key in this process. */
export async function runWithdrawals(deps: Deps): Promise<number> {
  const chain = deps.chain;
  if (!chain || !chain.canSign) return 0;
  const now = deps.clock.now();
  const due = await deps.database.db
    .select()
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.chainId, chain.chainId),
        inArray(withdrawals.state, ["queued", "broadcast"]),
        isNotNull(withdrawals.nextCheckAt),
        lte(withdrawals.nextCheckAt, now),
      ),
    )
    .orderBy(asc(withdrawals.nextCheckAt), asc(withdrawals.id))
    .limit(BATCH);
  if (due.length === 0) return 0;
  const heads = await chainHeads(deps, chain).catch((err: unknown) => {
    if (err instanceof RpcUnavailableError) return null; // nothing moves; the next tick retries
    throw err;
  });
  if (!heads) return 0;
  let stepped = 0;
  for (const w of due) {
    try {
      await (w.state === "queued" ? sendNew : watch)({ deps, chain, now: deps.clock.now(), heads }, w);
      stepped++;
    } catch (err) {
      if (!(err instanceof RpcUnavailableError)) deps.logger.error({ err, withdrawal: w.id }, "withdrawal step failed");
      await move(deps, w, { retries: w.retries + 1, nextCheckAt: later(deps, w) });
      if (err instanceof RpcUnavailableError) break;
    }
  }
  return stepped;
}

const later = (deps: Deps, w: WithdrawalRow) =>
  new Date(deps.clock.now().getTime() + backoffMs(w.retries, deps.config.baseRail?.pollMs ?? 4_000));

/**
 * Moves `w` from the state and hash as read to `values` (and runs `extra` in the same
 * transaction); false when the row moved meanwhile (another worker, or a restart's replay).
 */
async function move(
  deps: Deps,
  w: WithdrawalRow,
  values: Partial<typeof withdrawals.$inferInsert>,
  extra?: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  return deps.database.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(withdrawals).where(eq(withdrawals.id, w.id)).for("update");
    if (!cur || cur.state !== w.state || cur.txHash !== w.txHash) return false;
    await tx
      .update(withdrawals)
      .set({ ...values, updatedAt: deps.clock.now() })
      .where(eq(withdrawals.id, w.id));
    if (extra) await extra(tx);
    return true;
  });
}

/** The transfer fails for good: the held amount goes back to the agent, once. */
const fail = (s: Step, w: WithdrawalRow, reason: string) =>
  move(s.deps, w, { state: "failed", reason, nextCheckAt: null }, (tx) => returnHeld({ tx, now: s.now }, w));

async function sendNew(s: Step, w: WithdrawalRow): Promise<void> {
  const { deps, chain, now } = s;
  const t = { token: w.token, to: w.toAddress, amount: BigInt(w.amount) };
  const est = await chain.estimateTransfer(t);
  if (!est.ok) {
    // The hot key lacks the token or gas, or the token refuses: a wait the operator can fix, for a day.
    if (now.getTime() - w.createdAt.getTime() >= REFUSED_FOR_MS)
      return void (await fail(s, w, `refused:${est.revert}`));
    await move(deps, w, { reason: `waiting:${est.revert}`, retries: w.retries + 1, nextCheckAt: later(deps, w) });
    return;
  }
  const price = firstPrice(await chain.fees());
  const chainNonce = await chain.pendingNonce();
  let signed: { raw: Hex; hash: string } | undefined;
  const ok = await move(deps, w, {}, async (tx) => {
    const nonce = await allocateNonce({ tx, now }, { chain, chainNonce });
    signed = await chain.signTransfer(t, { nonce, gas: est.gas, ...price });
    await tx
      .update(withdrawals)
      .set({
        state: "broadcast",
        reason: null,
        nonce,
        txHash: signed.hash,
        rawTx: signed.raw,
        broadcastAt: now,
        retries: 0,
        nextCheckAt: now,
      })
      .where(eq(withdrawals.id, w.id));
  });
  // Committed: now it may leave. Whatever happens from here, the stored bytes are re-sent.
  if (ok && signed) await chain.sendRaw(signed.raw);
}

/** A broadcast transfer: mined (confirmed at depth, or failed if reverted), else sent again. */
async function watch(s: Step, w: WithdrawalRow): Promise<void> {
  const { deps, chain, heads } = s;
  if (!w.txHash || !w.rawTx) throw new Error(`withdrawal ${w.id} is broadcast without a transaction`);
  const receipt = await chain.receipt(w.txHash);
  if (receipt?.status === "reverted") return void (await fail(s, w, `reverted:${receipt.txHash}`));
  if (receipt && receipt.blockNumber <= heads.confirmed)
    return void (await confirm(s, w, { txHash: receipt.txHash, blockNumber: receipt.blockNumber }));
  if (receipt) return void (await move(deps, w, { nextCheckAt: later(deps, w), retries: w.retries + 1 }));
  // Not mined: the same bytes again (a crash before the send, a dropped transaction).
  const sent = await chain.sendRaw(w.rawTx as Hex);
  if (sent === "nonce_too_low" && w.nonce !== null && (await chain.minedNonce()) > w.nonce) {
    // Its nonce is spent and its own receipt absent: another transaction took the nonce; this one never pays.
    if (!(await chain.receipt(w.txHash))) return void (await fail(s, w, "nonce_consumed"));
  }
  await move(deps, w, {
    reason: sent === "sent" || sent === "known" ? null : `resend:${sent}`,
    nextCheckAt: later(deps, w),
  });
}

/** Mined at the confirmation depth: the held amount leaves the ledger and the receipt is signed, once. */
async function confirm(s: Step, w: WithdrawalRow, { txHash, blockNumber }: { txHash: string; blockNumber: number }) {
  const { deps, now } = s;
  const receipt = signReceipt(
    {
      type: "oabp.withdrawal" as const,
      withdrawal_id: w.id,
      agent_id: w.agentId,
      to: w.toAddress,
      asset: w.asset,
      amount: w.amount,
      chain_id: w.chainId,
      token: w.token,
      tx_hash: txHash,
      block_number: blockNumber,
      issued_at: now.toISOString(),
    },
    deps.receiptKeys,
  );
  await move(
    deps,
    w,
    { state: "confirmed", reason: null, blockNumber, confirmedAt: now, receipt, nextCheckAt: null },
    (tx) => releaseHeld({ tx, now }, w),
  );
}
