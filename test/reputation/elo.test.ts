import { describe, expect, it } from "vitest";
import { effectiveRating, decayWeeks } from "../../src/features/reputation/decay";
import { eloUpdates, expectedScore, kFactor } from "../../src/features/reputation/elo";

const USDC = { decimals: 6, usd_price: 1 };
type Row = [agentId: string, rating: number, outcome: 1 | 0.5 | 0];
/** New ratings by agent id, from [agentId, rating, outcome] rows, at K = k. */
const afterAtK = (k: number, ...rows: Row[]) =>
  Object.fromEntries(
    eloUpdates(
      rows.map(([agentId, rating, outcome]) => ({ agentId, rating, outcome })),
      k,
    ).map((c) => [c.agentId, c.after]),
  );
const after = (...rows: Row[]) => afterAtK(32, ...rows);

// Hand-computed AIP-1 §5 updates: new = old + K × (outcome − 1/(1 + 10^((opp − own)/400))),
// opp = mean current rating of the OTHER submitters (1400 when alone), rounded to an integer.
describe("ELO (AIP-1 §5)", () => {
  it("two agents of equal rating, K=32: the winner gains 16, the loser loses 16", () => {
    expect(after(["w", 1400, 1], ["l", 1400, 0])).toEqual({ w: 1416, l: 1384 });
  });

  it("an upset win against a stronger field", () => {
    // A 1400 vs mean(1600, 1800) = 1700: expected = 1/(1+10^(300/400)) = 0.15098 → +27.17 → 1427
    // B 1600 vs mean(1400, 1800) = 1600: expected 0.5 → −16 → 1584
    // C 1800 vs mean(1400, 1600) = 1500: expected 0.84902 → −27.17 → 1773
    expect(expectedScore(1400, 1700)).toBeCloseTo(0.15098, 5);
    expect(after(["A", 1400, 1], ["B", 1600, 0], ["C", 1800, 0])).toEqual({ A: 1427, B: 1584, C: 1773 });
  });

  it("K = 64 at or above 100 USD-equivalent, 32 below", () => {
    expect(kFactor(100_000_000n, USDC)).toBe(64);
    expect(kFactor(99_999_999n, USDC)).toBe(32);
    expect(kFactor(50n * 10n ** 18n, { decimals: 18, usd_price: 2 })).toBe(64); // 50 tokens at $2
    expect(kFactor(49n * 10n ** 18n, { decimals: 18, usd_price: 2 })).toBe(32);
    expect(afterAtK(64, ["w", 1400, 1], ["l", 1400, 0])).toEqual({ w: 1432, l: 1368 });
  });

  it("partial credit (0.5)", () => {
    // 1400 vs 1400 partial: expected 0.5 → ±0; 1400 vs 1500 partial: expected 0.35993 → +4.48 → 1404
    expect(after(["p", 1400, 0.5], ["w", 1400, 1])).toEqual({ p: 1400, w: 1416 });
    expect(after(["p", 1400, 0.5], ["w", 1500, 1])).toEqual({ p: 1404, w: 1512 });
  });

  it("a lone submitter plays against 1400", () => {
    expect(after(["solo", 1400, 1])).toEqual({ solo: 1416 });
    // 1500 vs 1400: expected 0.64006 → +11.52 → 1512; a lone loser at 1400 → 1384
    expect(after(["solo", 1500, 1])).toEqual({ solo: 1512 });
    expect(after(["solo", 1400, 0])).toEqual({ solo: 1384 });
  });

  it("a voided mission has no participants and changes nothing", () => {
    expect(eloUpdates([], 32)).toEqual([]);
  });
});

describe("decay (AIP-1 §5): −2 per full week idle after a 7-day grace, never below 1000", () => {
  const t0 = new Date("2026-01-01T00:00:00Z");
  const days = (n: number) => new Date(t0.getTime() + n * 86_400_000);
  const s = (rating: number) => ({ rating, lastActiveAt: t0, decayWeeksApplied: 0 });
  it("6 days idle: no change; 13 days: still none (grace + less than a week)", () => {
    expect(effectiveRating({ now: days(6) }, s(1500))).toBe(1500);
    expect(effectiveRating({ now: days(13) }, s(1500))).toBe(1500);
    expect(effectiveRating({ now: days(14) }, s(1500))).toBe(1498);
  });
  it("7 weeks idle from 1500 → 1488 (7 days grace + 6 full weeks × 2)", () => {
    expect(decayWeeks({ now: days(49) }, t0)).toBe(6);
    expect(effectiveRating({ now: days(49) }, s(1500))).toBe(1488);
  });
  it("long idle never decays below 1000, and never decays a rating already below 1000", () => {
    expect(effectiveRating({ now: days(7 * 1000) }, s(1500))).toBe(1000);
    expect(effectiveRating({ now: days(7 * 100) }, s(990))).toBe(990);
    expect(effectiveRating({ now: days(7 * 100) }, s(1001))).toBe(1000);
  });
  it("decay already written is not taken twice", () => {
    expect(effectiveRating({ now: days(49) }, { rating: 1494, lastActiveAt: t0, decayWeeksApplied: 3 })).toBe(1488);
  });
});
