import type { FeeMarket } from "../../lib/base-chain";

// Pricing of settlement transactions (docs/base-rail.md "Fees and replacement"). Pure, so every
// rule is unit-tested without a chain.
//
// A first send pays   maxFee = 2 × baseFee + tip   (survives a few full blocks of base-fee rise).
// A replacement (stuck, or evicted) reuses the stored gas limit — never a re-estimate against the
// pending state, where the payout itself may already have happened — and pays
//   tip'    = max(1.125 × tip, market tip)
//   maxFee' = max(1.125 × maxFee, 2 × baseFee + tip')   (nodes need ≥ +10 % on both to replace)
// bounded by `maxMultiplier` × the current base fee + tip': past that bound it waits (a spike
// passes; the operator sees `fee_bump_capped`) rather than paying any price.

export interface Price {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

const up = (v: bigint) => (v * 1125n) / 1000n + 1n;
const max = (a: bigint, b: bigint) => (a > b ? a : b);

export function firstPrice(m: FeeMarket): Price {
  return { maxFeePerGas: 2n * m.baseFee + m.priority, maxPriorityFeePerGas: m.priority };
}

/** The replacement's price, or null when it would exceed the bound. */
export function replacementPrice(
  prev: Price,
  { market: m, maxMultiplier }: { market: FeeMarket; maxMultiplier: number },
): Price | null {
  const tip = max(up(prev.maxPriorityFeePerGas), m.priority);
  const maxFee = max(max(up(prev.maxFeePerGas), 2n * m.baseFee + tip), tip);
  const bound = BigInt(maxMultiplier) * m.baseFee + tip;
  if (maxFee > bound) return null;
  return { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip };
}

/** An evicted (unknown to the node) transaction priced below the current base fee is re-priced; otherwise re-sent as is. */
export const priceTooLow = (prev: Price, m: FeeMarket): boolean => prev.maxFeePerGas < m.baseFee + m.priority;
