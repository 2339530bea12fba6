import { describe, expect, it } from "vitest";
import { runEscrowFuzz } from "../helpers/escrow-fuzz";

// Contract v3 invariant suite, small configuration (`npm run bench:escrow-fuzz` runs the large one):
// random sequences of every entry point by random actors (resolver, guardian, admins, funders,
// strangers), seeded; after every step the token balance equals live slots + credits + surplus
// (and `held` matches), every account holds exactly what the model says it is owed, and no call
// succeeds that the model forbids (docs/base-rail.md "Trust model").

const SEED = Number(process.env.ESCROW_FUZZ_SEED ?? 24);

describe("MissionEscrow v3 invariants under random sequences", () => {
  it("hold after every step of 20 sequences × 150 steps", { timeout: 240_000 }, async () => {
    const r = await runEscrowFuzz({ seed: SEED, sequences: 20, steps: 150 });
    expect(r.violations).toEqual([]);
    expect(r.disagreements).toEqual([]);
    expect(r.maxOverpaid).toBe(0n);
    expect(r.steps).toBe(3000);
    // The sequences reach the interesting states, not only refusals.
    for (const op of [
      "fundUntil",
      "fundUntilWithPermit",
      "releaseSigned",
      "executeRelease",
      "selfRefund",
      "withdraw",
    ]) {
      expect(r.ops[op]?.ok ?? 0, `${op} never succeeded`).toBeGreaterThan(0);
    }
    console.log(`escrow fuzz: ${r.steps} steps, ${r.transactions} txs (${r.succeeded} ok) in ${r.ms} ms`);
  });
});
