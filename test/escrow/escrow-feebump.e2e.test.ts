import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/app";
import { awardedBaseMission, FEE, payoutOf as payoutRow, REWARD } from "../helpers/base-rail-mission";
import { escrowTick, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";
import { PAYOUT_REBROADCAST_SECONDS } from "../../src/features/payouts/payouts.watch";

// "Fee bump that works" on anvil with mining paused: a payout stuck
// behind a base-fee spike (anvil_setNextBlockBaseFeePerGas) is replaced — same nonce, stored gas,
// priced from the current base fee — and confirms once; one evicted from the mempool
// (anvil_dropTransaction) is re-priced instead of re-sent with the same bytes.

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const mission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;
const payoutOf = (missionId: string) => payoutRow(t, missionId);

const awarded = () => awardedBaseMission({ t, chain });

/** The base fee jumps to `gwei` in the next block, mined empty of our payout (its max fee is below it). */
async function spike(gwei: bigint) {
  await chain.anvil.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: gwei * 10n ** 9n });
  await chain.mine(1);
}

describe("fee bump", () => {
  it("a payout stuck in the mempool (mining paused) is replaced with a higher fee and confirms once", async () => {
    const { m, key, winner } = await awarded();
    await chain.anvil.testClient.setAutomine(false);
    try {
      await escrowTick(t); // signed and sent: pending in the mempool
      const first = await payoutOf(m.id);
      expect(first.state).toBe("broadcast");
      expect(first.attempts).toHaveLength(1);
      const block = await chain.anvil.publicClient.getBlock({ blockTag: "latest" });

      t.clock.advance(PAYOUT_REBROADCAST_SECONDS * 1000); // past the rebroadcast wait
      await escrowTick(t);
      const bumped = await payoutOf(m.id);
      expect(bumped.reason).toBe("fee_bumped");
      expect(bumped.attempts).toHaveLength(2);
      const [a0, a1] = bumped.attempts as [(typeof bumped.attempts)[0], (typeof bumped.attempts)[0]];
      expect(a1.nonce).toBe(a0.nonce); // a replacement, not a second payment
      expect(a1.gas).toBe(a0.gas); // the stored gas: no re-estimate against the pending state
      expect(BigInt(a1.max_fee_per_gas)).toBeGreaterThanOrEqual(2n * block.baseFeePerGas!); // priced from the current base fee
      expect(BigInt(a1.max_fee_per_gas) * 100n).toBeGreaterThanOrEqual(BigInt(a0.max_fee_per_gas) * 110n); // enough to replace
      expect(BigInt(a1.max_fee_per_gas)).toBeLessThanOrEqual(
        4n * block.baseFeePerGas! + BigInt(a1.max_priority_fee_per_gas),
      ); // bounded
      expect(BigInt(a1.max_priority_fee_per_gas) * 100n).toBeGreaterThanOrEqual(
        BigInt(a0.max_priority_fee_per_gas) * 110n,
      );

      await chain.mine(1); // mining resumes: the replacement is mined (the node dropped the original)
      for (let i = 0; i < 3; i++) {
        await escrowTick(t);
        await chain.mine(1);
      }
    } finally {
      await chain.anvil.testClient.setAutomine(true);
    }
    const after = await mission(m.id);
    expect(after.payout_status).toBe("confirmed");
    const p = await payoutOf(m.id);
    expect(p.minedTxHash).toBe(p.attempts[1]!.tx_hash);
    expect(await chain.releasedLogs(key)).toBe(1);
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
  });

  it("a base-fee spike: a payout evicted from the mempool below the current base fee is re-priced, not re-sent with the same bytes", async () => {
    const { m, key, winner } = await awarded();
    await chain.anvil.testClient.setAutomine(false);
    try {
      await escrowTick(t);
      const first = await payoutOf(m.id);
      expect(first.state).toBe("broadcast");
      await spike(800n); // the base fee jumps above the payout's max fee: anvil evicts it
      await chain.anvil.testClient.dropTransaction({ hash: first.txHash as Hex }); // (and so would any node, eventually)
      expect(await chain.anvil.publicClient.getTransaction({ hash: first.txHash as Hex }).catch(() => null)).toBeNull();
      await escrowTick(t); // unknown to the node, priced below the base fee: re-priced at once
      const repriced = await payoutOf(m.id);
      expect(repriced.reason).toBe("evicted_repriced");
      expect(repriced.attempts).toHaveLength(2);
      expect(repriced.attempts[1]!.nonce).toBe(first.attempts[0]!.nonce);
      expect(BigInt(repriced.attempts[1]!.max_fee_per_gas)).toBeGreaterThan(800n * 10n ** 9n);
      expect(repriced.txHash).not.toBe(first.txHash);
      await chain.mine(1);
      for (let i = 0; i < 3; i++) {
        await escrowTick(t);
        await chain.mine(1);
      }
    } finally {
      await chain.anvil.testClient.setAutomine(true);
    }
    expect((await mission(m.id)).payout_status).toBe("confirmed");
    expect(await chain.releasedLogs(key)).toBe(1);
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
  });
});
