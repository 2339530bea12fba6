// Pure arithmetic of a peer_vote tally (AIP-1 §4.3; docs/design.md): every base unit accounted for.

export interface Ballot {
  id: string;
  submissionId: string;
  amount: bigint;
  seq: number; // the voted submission's arrival order (for ties)
}

/** Most-staked submission; a tie goes to the earliest submission. */
export function pickWinner(
  ballots: Ballot[],
): { submissionId: string; stake: bigint; stakes: Map<string, bigint> } | null {
  const stakes = new Map<string, bigint>();
  const seqOf = new Map<string, number>();
  for (const b of ballots) {
    stakes.set(b.submissionId, (stakes.get(b.submissionId) ?? 0n) + b.amount);
    seqOf.set(b.submissionId, b.seq);
  }
  let best: string | null = null;
  for (const [sub, stake] of stakes) {
    const cur = best === null ? -1n : stakes.get(best)!;
    if (stake > cur || (stake === cur && seqOf.get(sub)! < seqOf.get(best!)!)) best = sub;
  }
  return best === null ? null : { submissionId: best, stake: stakes.get(best)!, stakes };
}

/** peer_vote and appeals: the share of a losing voter's stake slashed to the winning voters, basis points. */
export const VOTE_SLASH_BPS = 1000;

/**
 * Losing voters are slashed floor(stake × slash_bps / 10 000); the slashed pool goes to the
 * winning voters pro rata to their stakes (floor), and the rounding dust to the winning voter
 * with the largest stake (earliest ballot on a tie). Returns what each ballot gets back.
 * Σ payouts = Σ stakes, always.
 */
export function settleBallots(
  ballots: Ballot[],
  { winner, slashBps }: { winner: string; slashBps: number },
): Map<string, { outcome: "won" | "lost"; payout: bigint }> {
  const out = new Map<string, { outcome: "won" | "lost"; payout: bigint }>();
  const winners = ballots.filter((b) => b.submissionId === winner);
  let pool = 0n;
  for (const b of ballots) {
    if (b.submissionId === winner) continue;
    const slash = winners.length === 0 ? 0n : (b.amount * BigInt(slashBps)) / 10_000n;
    pool += slash;
    out.set(b.id, { outcome: "lost", payout: b.amount - slash });
  }
  const winStake = winners.reduce((a, b) => a + b.amount, 0n);
  let paid = 0n;
  for (const b of winners) {
    const share = winStake === 0n ? 0n : (pool * b.amount) / winStake;
    paid += share;
    out.set(b.id, { outcome: "won", payout: b.amount + share });
  }
  if (winners.length > 0 && pool > paid) {
    const top = winners.reduce((a, b) => (b.amount > a.amount ? b : a));
    out.get(top.id)!.payout += pool - paid;
  }
  return out;
}
