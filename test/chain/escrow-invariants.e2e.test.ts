import { describe, expect, it } from "vitest";
import { runEscrowFuzz } from "../helpers/escrow-fuzz";

// Contract invariant suite, small configuration (`npm run bench:escrow-fuzz` runs the large one):
// random sequences of every entry point by random actors (resolver, guardian, admins, funders,
// strangers), seeded; after every step the token balance equals live slots + credits + surplus
// (and `held` matches), every account holds exactly what the model says it is owed, and no call
// succeeds that the model forbids (docs/base-rail.md "Trust model (contract v4)"). v4 is the
// contract new deployments use; v3 still holds slots of older deployments.

const SEED = Number(process.env.ESCROW_FUZZ_SEED ?? 24);

describe("MissionEscrow invariants under random sequences", () => {
  it("v4: hold after every step of 20 sequences × 150 steps, through its new paths", { timeout: 300_000 }, async () => {
    const r = await runEscrowFuzz({ seed: SEED, sequences: 20, steps: 150, version: "4" });
    expect(r.violations).toEqual([]);
    expect(r.disagreements).toEqual([]);
    expect(r.maxOverpaid).toBe(0n);
    expect(r.steps).toBe(3000);
    // The sequences reach the interesting states, not only refusals.
    for (const op of [
      "fundUntil",
      "fundUntilWithPermit",
      "fundWithAuthorization",
      "releaseSigned",
      "executeRelease",
      "selfRefund",
      "withdraw",
    ]) {
      expect(r.ops[op]?.ok ?? 0, `${op} never succeeded`).toBeGreaterThan(0);
    }
    for (const note of ["cap_reached", "governance_during_proposals", "signed_only_refused"]) {
      expect(r.notes[note] ?? 0, `${note} never reached`).toBeGreaterThan(0);
    }
    console.log(`escrow fuzz v4: ${r.steps} steps, ${r.transactions} txs (${r.succeeded} ok) in ${r.ms} ms`, r.notes);
  });

  it("v3 (legacy): hold after every step of 10 sequences × 150 steps", { timeout: 240_000 }, async () => {
    const r = await runEscrowFuzz({ seed: SEED, sequences: 10, steps: 150, version: "3" });
    expect(r.violations).toEqual([]);
    expect(r.disagreements).toEqual([]);
    expect(r.maxOverpaid).toBe(0n);
    for (const op of ["fundUntil", "releaseSigned", "executeRelease", "selfRefund"]) {
      expect(r.ops[op]?.ok ?? 0, `${op} never succeeded`).toBeGreaterThan(0);
    }
  });
});
