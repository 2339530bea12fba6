import type { AssetConfig } from "../../env";

// AIP-1 §5 and docs/design.md "Reputation" — pure functions.
export const START_RATING = 1400;
const K_LOW = 32;
const K_HIGH = 64;
/** Rewards worth at least this many USD use K_HIGH. */
const K_THRESHOLD_USD = 100;

/** expected = 1 / (1 + 10^((opponent − own) / 400)) */
export function expectedScore(own: number, opponent: number): number {
  return 1 / (1 + 10 ** ((opponent - own) / 400));
}

/**
 * K = 32 below 100 USD-equivalent, 64 at or above. The comparison is done in integers:
 * amount × price_micro ≥ 100 × 10^decimals × 10^6 (price in millionths of a USD).
 */
export function kFactor(amount: bigint, asset: Pick<AssetConfig, "decimals" | "usd_price">): number {
  const priceMicro = BigInt(Math.round(asset.usd_price * 1_000_000));
  return amount * priceMicro >= BigInt(K_THRESHOLD_USD) * 10n ** BigInt(asset.decimals) * 1_000_000n ? K_HIGH : K_LOW;
}

export interface Participant {
  agentId: string;
  rating: number; // current (decayed) rating
  outcome: 1 | 0.5 | 0;
}

export interface EloChange {
  agentId: string;
  outcome: 1 | 0.5 | 0;
  expected: number;
  opponent: number;
  k: number;
  before: number;
  after: number;
  delta: number;
}

/**
 * One resolved mission: every distinct submitter gets one outcome; the opponent rating is the
 * mean current rating of the OTHER submitters (1400 when alone). All updates use the ratings
 * before the mission (simultaneous), and new ratings are rounded to integers.
 */
export function eloUpdates(participants: Participant[], k: number): EloChange[] {
  const total = participants.reduce((a, p) => a + p.rating, 0);
  return participants.map((p) => {
    const others = participants.length - 1;
    const opponent = others === 0 ? START_RATING : (total - p.rating) / others;
    const expected = expectedScore(p.rating, opponent);
    const after = Math.round(p.rating + k * (p.outcome - expected));
    return {
      agentId: p.agentId,
      outcome: p.outcome,
      expected,
      opponent,
      k,
      before: p.rating,
      after,
      delta: after - p.rating,
    };
  });
}
