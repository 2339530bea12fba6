import { eq } from "drizzle-orm";
import { votes } from "../../db/schema/index";
import { agentAccount, transfer, type AccountKey } from "../ledger";
import type { TxCtx } from "../../lib/context";

// Stakes of peer_vote votes and of creator_judges appeals: held in the ledger account
// votes:<mission_id> from the vote until the tally, then paid back in one transfer.

export const votesAccount = (missionId: string) => `votes:${missionId}`;

/** What a stake may be in the mission's current phase (the refusals are thrown by whoever builds it). */
export interface BallotRules {
  token: string;
  minVote: string;
  /** Throws when the named submission cannot take a stake now. */
  check?(submissionId: string): void;
}

/** The ledger rows settleStakes will move (for lockAccounts before an earlier transfer). */
export function stakeAccounts(
  rows: { voter: string }[],
  { missionId, asset }: { missionId: string; asset: string },
): AccountKey[] {
  return rows.length === 0
    ? []
    : [{ account: votesAccount(missionId), asset }, ...rows.map((v) => ({ account: agentAccount(v.voter), asset }))];
}

/**
 * Pays every ballot its settled amount (stake, minus a slash or plus a reward, or refunded) out
 * of votes:<mission> in one transfer, and records each ballot's outcome. Σ payouts must equal
 * Σ stakes (the transfer refuses an unbalanced posting set). Caller holds the mission row lock.
 */
export async function settleStakes(
  ctx: Pick<TxCtx, "tx" | "now">,
  input: {
    missionId: string;
    asset: string;
    rows: { id: string; voter: string; amount: string }[];
    payouts: Map<string, { outcome: "won" | "lost" | "refunded"; payout: bigint }>;
  },
): Promise<void> {
  const { tx, now } = ctx;
  const { missionId, asset, rows, payouts } = input;
  if (rows.length === 0) return;
  const total = rows.reduce((a, v) => a + BigInt(v.amount), 0n);
  const merged = new Map<string, bigint>();
  for (const v of rows) merged.set(v.voter, (merged.get(v.voter) ?? 0n) + payouts.get(v.id)!.payout);
  await transfer(tx, {
    asset,
    kind: "vote_settlement",
    ref: missionId,
    at: now,
    postings: [
      { account: votesAccount(missionId), amount: -total },
      ...[...merged].map(([voter, amount]) => ({ account: agentAccount(voter), amount })),
    ],
  });
  for (const v of rows) {
    const r = payouts.get(v.id)!;
    await tx.update(votes).set({ outcome: r.outcome, payout: r.payout.toString() }).where(eq(votes.id, v.id));
  }
}
