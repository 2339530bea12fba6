import { describe, expect, it } from "vitest";
import { firstPrice, priceTooLow, replacementPrice } from "../../src/features/payouts/payouts.fees";

// Pricing rules of settlement transactions (src/features/payouts/payouts.fees.ts).
const gwei = (n: number) => BigInt(Math.round(n * 1e9));

describe("payout pricing", () => {
  it("a first send pays 2 × base fee + tip", () => {
    expect(firstPrice({ baseFee: gwei(1), priority: gwei(0.1) })).toEqual({
      maxFeePerGas: gwei(2.1),
      maxPriorityFeePerGas: gwei(0.1),
    });
  });

  it("a replacement raises both fees by more than the 10 % nodes require, and follows a risen base fee", () => {
    const prev = firstPrice({ baseFee: gwei(1), priority: gwei(0.1) });
    const same = replacementPrice(prev, { market: { baseFee: gwei(1), priority: gwei(0.1) }, maxMultiplier: 4 })!;
    expect(same.maxFeePerGas * 100n).toBeGreaterThan(prev.maxFeePerGas * 110n);
    expect(same.maxPriorityFeePerGas * 100n).toBeGreaterThan(prev.maxPriorityFeePerGas * 110n);
    const risen = replacementPrice(prev, { market: { baseFee: gwei(3), priority: gwei(0.1) }, maxMultiplier: 4 })!;
    expect(risen.maxFeePerGas).toBe(2n * gwei(3) + risen.maxPriorityFeePerGas);
  });

  it("is bounded: past maxMultiplier × base fee + tip it waits (null)", () => {
    let price = firstPrice({ baseFee: gwei(1), priority: gwei(0.1) });
    let bumps = 0;
    for (;;) {
      const next = replacementPrice(price, { market: { baseFee: gwei(1), priority: gwei(0.1) }, maxMultiplier: 4 });
      if (!next) break;
      expect(next.maxFeePerGas).toBeLessThanOrEqual(4n * gwei(1) + next.maxPriorityFeePerGas);
      price = next;
      bumps++;
      expect(bumps).toBeLessThan(20);
    }
    expect(bumps).toBeGreaterThan(2);
  });

  it("an evicted transaction is re-priced only when its max fee no longer covers base fee + tip", () => {
    const p = firstPrice({ baseFee: gwei(1), priority: gwei(0.1) });
    expect(priceTooLow(p, { baseFee: gwei(1.5), priority: gwei(0.1) })).toBe(false);
    expect(priceTooLow(p, { baseFee: gwei(5), priority: gwei(0.1) })).toBe(true);
  });
});
