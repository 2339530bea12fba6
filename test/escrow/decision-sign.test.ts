import { describe, expect, it } from "vitest";
import { checkDecision, signDecision, type DecisionPlan } from "../../src/lib/decision-sign";
import { generateKeyring } from "../../src/lib/receipt-keys";
import { proposalHashOf } from "../../src/lib/release-typed-data";

// Signed payout decisions (docs/custody.md "Signed decisions"), pure: what verifies, and every
// reason a decision is refused.

const at = new Date("2026-06-01T00:00:00Z");
const keyring = generateKeyring(at);
const plan: DecisionPlan = {
  payout_id: "pay_01JZ0000000000000000000000",
  mission_id: "mis_01JZ0000000000000000000000",
  kind: "release",
  chain_id: 8453,
  escrow: "0x00000000000000000000000000000000000000E5",
  mission_key: `0x${"ab".repeat(32)}`,
  funder: "0x00000000000000000000000000000000000000F1",
  token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  recipients: [{ address: "0x00000000000000000000000000000000000000A1", amount: "99500000" }],
  fee: "500000",
};

describe("payout decisions", () => {
  it("verifies against the configured key and carries the proposal hash the contract stores", () => {
    const d = signDecision(plan, keyring, at);
    const v = checkDecision(d, keyring.published, plan);
    expect(v.ok).toBe(true);
    expect(d.proposal_hash).toBe(
      proposalHashOf({ recipients: [plan.recipients[0]!.address], amounts: [99_500_000n], fee: 500_000n }),
    );
    expect(d.escrow).toBe(plan.escrow.toLowerCase());
  });

  it("refuses a missing, re-keyed, tampered or other plan's decision, each with its reason", () => {
    const d = signDecision(plan, keyring, at);
    const other = generateKeyring(at);
    expect(checkDecision(null, keyring.published, plan)).toEqual({ ok: false, reason: "decision_missing" });
    expect(checkDecision({ ...d, type: "x" }, keyring.published)).toEqual({ ok: false, reason: "decision_malformed" });
    expect(
      checkDecision(
        d,
        other.published.map((k) => ({ ...k, key_id: "nope" })),
      ),
    ).toEqual({
      ok: false,
      reason: "decision_unknown_key",
    });
    // The same key id, another key (a key read from the database would be this): refused.
    const impostor = other.published.map((k) => ({ ...k, key_id: d.signature.key_id }));
    expect(checkDecision(d, impostor)).toEqual({ ok: false, reason: "decision_bad_signature" });
    const redirected = {
      ...d,
      recipients: [{ address: "0x00000000000000000000000000000000000000bb", amount: "99500000" }],
    };
    expect(checkDecision(redirected, keyring.published)).toEqual({ ok: false, reason: "decision_bad_signature" });
    const moreFee = { ...plan, fee: "600000" };
    expect(checkDecision(d, keyring.published, moreFee)).toEqual({ ok: false, reason: "decision_plan_mismatch" });
    const otherPayout = { ...plan, payout_id: "pay_01JZ0000000000000000000001" };
    expect(checkDecision(d, keyring.published, otherPayout)).toEqual({ ok: false, reason: "decision_plan_mismatch" });
  });
});
