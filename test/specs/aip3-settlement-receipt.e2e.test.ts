import { describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/app";
import { signedAward } from "../helpers/award-sign";
import { signIn } from "../helpers/agents";
import { createBaseMission, escrowTick, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";

// AIP-3 §10 settlement receipts on the base rail (anvil, through HTTP): 202 while the payout is
// on its way (§10.3), and a payout the escrow refuses is a final receipt carrying its
// `failure_reason` (§10.1).

const REWARD = 100_000_000n;
const SPAM_FEE = 5_000_000n;
let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

describe("AIP-3 §10 settlement receipts on the base rail", () => {
  it("AIP-3 §10.1 / §10.3: 202 while the payout is queued; a refused payout answers 200 failed with its failure_reason", async () => {
    // Decided at a 2 % fee, above the contract's 1 % cap: the release reverts FeeTooHigh.
    t.deps.config.feeBps = 200;
    try {
      const c = await createBaseMission(t, REWARD);
      await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE);
      await chain.mine(2);
      await escrowTick(t);
      const solver = await signIn(t);
      const sub = await t.call("POST", `/missions/${c.m.id}/submissions`, { token: solver.token, body: { content: "the answer" } });
      expect(sub.status, sub.text).toBe(201);
      const { award } = await signedAward(t, c.creator, c.m.id, { winners: [{ submission_id: sub.body.id }] });
      expect(award.status, award.text).toBe(200);

      const queued = await t.call("GET", `/api/submissions/${sub.body.id}/receipt`);
      expect(queued.status, queued.text).toBe(202);
      expect(queued.body).toMatchObject({ settlement_chain: "base", settlement_status: "queued", settlement_tx: null });
      expect(queued.body).not.toHaveProperty("failure_reason");

      for (let i = 0; i < 3; i++) {
        await escrowTick(t);
        await chain.mine(1);
      }
      const failed = await t.call("GET", `/api/submissions/${sub.body.id}/receipt`);
      expect(failed.status, failed.text).toBe(200);
      expect(failed.body).toMatchObject({
        settlement_chain: "base",
        settlement_status: "failed",
        failure_reason: "reverted:FeeTooHigh",
        signature_algo: "eth_personal_sign",
      });
    } finally {
      t.deps.config.feeBps = 50;
    }
  });
});
