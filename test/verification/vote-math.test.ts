import { describe, expect, it } from "vitest";
import { pickWinner, settleBallots, type Ballot } from "../../src/features/verification/vote-math";

const b = (id: string, submissionId: string, amount: bigint, seq: number): Ballot => ({
  id,
  submissionId,
  amount,
  seq,
});
const sum = (m: Map<string, { payout: bigint }>) => [...m.values()].reduce((a, x) => a + x.payout, 0n);

describe("peer_vote arithmetic", () => {
  it("the most-staked submission wins; a tie goes to the earliest submission", () => {
    expect(pickWinner([b("1", "s2", 5n, 2), b("2", "s1", 3n, 1), b("3", "s1", 2n, 1)])!.submissionId).toBe("s1");
    expect(pickWinner([b("1", "s2", 5n, 2), b("2", "s1", 4n, 1)])!.submissionId).toBe("s2");
    expect(pickWinner([])).toBeNull();
  });

  it("slashes losers, rewards winners pro rata, and accounts for every base unit", () => {
    const ballots = [b("w1", "A", 300n, 1), b("w2", "A", 100n, 1), b("l1", "B", 999n, 2), b("l2", "C", 7n, 3)];
    const r = settleBallots(ballots, { winner: "A", slashBps: 1000 }); // 10 %
    expect(r.get("l1")).toEqual({ outcome: "lost", payout: 900n }); // slash 99
    expect(r.get("l2")).toEqual({ outcome: "lost", payout: 7n }); // slash floor(0.7) = 0
    // pool 99 → w1 gets floor(99·300/400)=74, w2 floor(99·100/400)=24, dust 1 to the largest stake
    expect(r.get("w1")).toEqual({ outcome: "won", payout: 300n + 74n + 1n });
    expect(r.get("w2")).toEqual({ outcome: "won", payout: 100n + 24n });
    expect(sum(r)).toBe(300n + 100n + 999n + 7n);
  });

  it("conserves stakes on random ballots", () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 200; round++) {
      const ballots = Array.from({ length: 1 + rnd(12) }, (_, i) =>
        b(`v${i}`, `s${rnd(4)}`, BigInt(1 + rnd(1_000_000)), rnd(4)),
      );
      const w = pickWinner(ballots)!;
      const r = settleBallots(ballots, { winner: w.submissionId, slashBps: rnd(10_001) });
      expect(sum(r)).toBe(ballots.reduce((a, x) => a + x.amount, 0n));
      for (const x of ballots) expect(r.get(x.id)!.payout).toBeGreaterThanOrEqual(0n);
    }
  });
});
