const DAY = 86_400_000;

/**
 * The mission body fields of a peer_vote mission (AIP-1 §4.3): due at `deadline`, votes staked in
 * USDC until `votingMs` later (a day unless given); `reward` in USDC base units when given.
 */
export function peerVote(deadline: Date, o: { minVote: string; quorum: string; votingMs?: number; reward?: string }) {
  return {
    deadline: deadline.toISOString(),
    ...(o.reward !== undefined && { reward: { asset: "USDC", amount: o.reward } }),
    verification: {
      type: "peer_vote",
      params: {
        voting_deadline: new Date(deadline.getTime() + (o.votingMs ?? DAY)).toISOString(),
        vote_token: "USDC",
        min_vote: o.minVote,
        quorum: o.quorum,
      },
    },
  };
}
