import { describe, expect, it } from "vitest";
import { formatAmount, minRewardBaseUnits, parseAmount, wholeUnits } from "../../src/lib/money";

// Amounts as people write them (docs/decisions.md): whole units in, base units on the wire.
const USDC = { symbol: "USDC", decimals: 6 };
const base = (text: string, asset = USDC) => {
  const r = parseAmount(text, asset);
  return r.ok ? r.base.toString() : r.reason;
};

describe("parseAmount", () => {
  it("25, 25 USDC, 0.5, .5 and 1_000 are whole units", () => {
    const read: [string, string][] = [
      ["25", "25000000"],
      ["25 USDC", "25000000"],
      ["25 usdc", "25000000"],
      ["25USDC", "25000000"],
      ["0.5", "500000"],
      [".5", "500000"],
      ["1_000", "1000000000"],
      ["0.000001", "1"],
      ["12.340000", "12340000"],
    ];
    for (const [text, units] of read) expect(base(text), text).toBe(units);
    expect(base("1", { symbol: "WETH", decimals: 18 })).toBe("1000000000000000000");
  });

  it("refuses what cannot be read exactly, with a reason", () => {
    const refused: Record<string, string[]> = {
      empty: [""],
      not_a_number: ["ten", "1,5", "-1", "1e6"],
      too_many_decimals: ["0.0000001"],
      wrong_asset: ["25 DAI"],
      not_positive: ["0"],
    };
    for (const [reason, texts] of Object.entries(refused))
      for (const text of texts) expect(base(text), text).toBe(reason);
    const r = parseAmount("25 DAI", USDC);
    expect(r.ok || r.message).toContain("the reward asset is USDC");
  });
});

describe("formatAmount and wholeUnits", () => {
  it("print base units exactly, with the symbol, without trailing zeros", () => {
    expect(formatAmount(25_000_000n, USDC)).toBe("25 USDC");
    expect(formatAmount("25", USDC)).toBe("0.000025 USDC");
    expect(formatAmount("500000", USDC)).toBe("0.5 USDC");
    expect(wholeUnits("0", 6)).toBe("0");
    expect(wholeUnits(-1_500_000n, 6)).toBe("-1.5");
    expect(wholeUnits("123456789012345678901234567890", 18)).toBe("123456789012.34567890123456789");
  });

  it("round-trips every parsed amount", () => {
    for (const t of ["1", "0.5", "1234.567891", "100000"]) {
      const r = parseAmount(t, USDC);
      expect(r.ok && formatAmount(r.base, USDC)).toBe(`${t} USDC`);
    }
  });
});

describe("minRewardBaseUnits", () => {
  it("is one dollar of the asset, rounded up; none without a price", () => {
    expect(minRewardBaseUnits({ decimals: 6, usd_price: 1 })).toBe(1_000_000n);
    expect(minRewardBaseUnits({ decimals: 18, usd_price: 3000 })).toBe(333_333_333_333_334n);
    expect(minRewardBaseUnits({ decimals: 6, usd_price: 0 })).toBeNull();
  });
});
