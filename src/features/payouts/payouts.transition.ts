import { and, eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { chainAccounts, chainPayouts, missions } from "../../db/schema/index";
import type { ChainCtx, TxCtx } from "../../lib/context";
import type { BaseChain } from "../../lib/base-chain";
import { lockMission } from "../../db/mission-visibility";
import type { PayoutRow } from "../../db/rows";
import { stepLabel } from "./payouts.paths";

// A payout row's moves (docs/base-rail.md "Liveness"): each under the mission then payout row locks,
// with the mission's payout_status in step; the resolver's nonces; every wait's own backoff.

/** pending_gas and retryable outcomes are looked at again after this long, doubling per retry. */
export const RETRY_MS = 15_000;
const MAX_BACKOFF_MS = 10 * 60_000;
/** This row's own backoff after `retries` checks that changed nothing. */
export const backoffMs = (retries: number, base = RETRY_MS) =>
  Math.min(base * 2 ** Math.min(retries, 12), MAX_BACKOFF_MS);

export const payoutStatusOf = (state: string): "queued" | "pending_gas" | "broadcast" | "confirmed" | "failed" =>
  state === "final" ? "confirmed" : (state as "queued" | "pending_gas" | "broadcast" | "confirmed" | "failed");

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
export const retryLater = ({ now }: { now: Date }, p: PayoutRow) => ({
  retries: p.retries + 1,
  nextCheckAt: new Date(now.getTime() + backoffMs(p.retries)),
});
