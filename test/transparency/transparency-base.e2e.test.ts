import { eq } from "drizzle-orm";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { escrowDeposits } from "../../src/db/schema/index";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { signedAward } from "../helpers/award-sign";
import { createBaseMission, escrowTick, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";

// On anvil (chain id 8453): GET /transparency reconciles the database's base-rail
// escrow with the contract's balanceOf at the confirmed head — equal after a deposit, a surplus
// after a direct transfer, back to the surplus after the release, a shortfall when the database
// claims more than the contract holds. The release's gas shows in /metrics.

const REWARD = 100_000_000n;
const SPAM_FEE = 5_000_000n;

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

/** A fresh reading (past the 10 s per-instance cache). */
async function base() {
  t.clock.advance(11_000);
  const r = await t.call("GET", "/transparency");
  expect(r.status, r.text).toBe(200);
  return r.body.base;
}
interface Reconciled {
  token: string;
  held: string;
  on_chain: string;
  difference: string;
  reconciled: boolean;
}
const usdc = (b: { assets: Reconciled[] }) => b.assets.find((a) => a.token === chain.usdc.toLowerCase())!;

describe("GET /transparency: the base rail reconciled on anvil", () => {
  it("held = on-chain after a deposit; a direct transfer is a surplus; the release empties the slot; gas in /metrics", async () => {
    await chain.mine(2); // the confirmed head (latest − 2) past the token's deployment
    const start = await base();
    expect(start, JSON.stringify(start)).toMatchObject({
      enabled: true,
      rpc: "ok",
      chain_id: 8453,
      escrow_contract: chain.escrow.toLowerCase(),
    });
    expect(usdc(start)).toMatchObject({ asset: "USDC", held: "0", on_chain: "0", difference: "0", reconciled: true });

    const { creator, m, key } = await createBaseMission(t, REWARD);
    const hash = await chain.fund(creator.account, key as Hex, REWARD, SPAM_FEE);
    const attached = await t.call("POST", `/missions/${m.id}/escrow`, {
      token: creator.token,
      body: { tx_hash: hash },
    });
    expect(attached.status, attached.text).toBe(202);
    // Mined but short of the confirmed head: on neither side yet.
    const early = await base();
    expect(usdc(early)).toMatchObject({ held: "0", on_chain: "0", reconciled: true });
    await chain.mine(2);
    await escrowTick(t);
    const funded = await base();
    const safe = await chain.anvil.publicClient.getBlock({ blockTag: "safe" });
    expect(funded.block_number).toBe(Number(safe.number));
    expect(usdc(funded)).toMatchObject({
      held: REWARD.toString(),
      deposits: 1,
      on_chain: REWARD.toString(),
      difference: "0",
      reconciled: true,
    });

    // Tokens sent to the contract directly: more on chain than held, still reconciled.
    await chain.mint(chain.escrow, 7n);
    await chain.mine(2);
    expect(usdc(await base())).toMatchObject({
      held: REWARD.toString(),
      on_chain: (REWARD + 7n).toString(),
      difference: "7",
      reconciled: true,
    });

    // Award → release mined at the confirmation depth: the slot leaves both sides.
    const solver = await signIn(t);
    const sub = await t.call("POST", `/missions/${m.id}/submissions`, { token: solver.token, body: { content: "a" } });
    expect(sub.status, sub.text).toBe(201);
    // Signed by the creator: released at once (releaseSigned, docs/base-rail.md "Release paths").
    const { award } = await signedAward(t, creator, m.id, { winners: [{ submission_id: sub.body.id }] });
    expect(award.status, award.text).toBe(200);
    await escrowTick(t); // broadcast
    await chain.mine(2);
    await escrowTick(t); // confirmed
    expect((await t.call("GET", `/missions/${m.id}`)).body.payout_status).toBe("confirmed");
    expect(usdc(await base())).toMatchObject({
      held: "0",
      deposits: 0,
      on_chain: "7",
      difference: "7",
      reconciled: true,
    });

    // The payouts feed shows the release and its transaction.
    const feed = await t.call("GET", "/transparency/payouts?rail=base");
    expect(feed.status, feed.text).toBe(200);
    const txHash = (await t.call("GET", `/missions/${m.id}`)).body.escrow.payout_tx_hash;
    expect(feed.body.payouts).toEqual([
      expect.objectContaining({
        submission_id: sub.body.id,
        agent_id: solver.address,
        rail: "base",
        amount: ((REWARD * 9950n) / 10_000n).toString(),
        settlement: { status: "confirmed", chain_id: 8453, tx_hash: txHash, ledger_entry_hash: null },
      }),
    ]);

    // The resolver's gas for it: gasUsed × effectiveGasPrice of the mined receipt.
    const receipt = await chain.anvil.publicClient.getTransactionReceipt({ hash: txHash });
    const scraped = await t.call("GET", "/metrics", { token: ADMIN_TOKEN });
    expect(scraped.status).toBe(200);
    const gas = parsePrometheusTextFormat(scraped.text).find((f) => f.name === "oabp_resolver_gas_spent_wei");
    expect(gas?.type).toBe("COUNTER");
    const release = gas!.metrics.find((s) => s.labels?.kind === "release" && s.labels?.chain_id === "8453");
    expect(BigInt(release!.value!)).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    expect(BigInt(release!.value!)).toBeGreaterThan(0n);
  });

  it("a database that claims more than the contract holds is not reconciled: a negative difference", async () => {
    const { creator, m, key } = await createBaseMission(t, REWARD);
    const hash = await chain.fund(creator.account, key as Hex, REWARD, SPAM_FEE);
    expect(
      (await t.call("POST", `/missions/${m.id}/escrow`, { token: creator.token, body: { tx_hash: hash } })).status,
    ).toBe(202);
    await chain.mine(2);
    await escrowTick(t);
    const before = usdc(await base());
    expect(before.reconciled).toBe(true);
    // Tamper with the books: the deposit row now says 1 000 base units more than was funded.
    await t.deps.database.db
      .update(escrowDeposits)
      .set({ amount: (REWARD + 1000n).toString() })
      .where(eq(escrowDeposits.missionId, m.id));
    const after = usdc(await base());
    expect(BigInt(after.held)).toBe(BigInt(before.held) + 1000n);
    expect(after.on_chain).toBe(before.on_chain);
    expect(BigInt(after.difference)).toBe(BigInt(before.difference) - 1000n);
    // Whatever surplus the contract had (direct transfers), it is under 1 000: now a shortfall.
    expect(BigInt(before.difference)).toBeLessThan(1000n);
    expect(BigInt(after.difference)).toBeLessThan(0n);
    expect(after.reconciled).toBe(false);
  });
});
