import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { createBaseMission, escrowTick, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";

// docs/moderation.md "Refund": hiding a funded base-rail mission with refund: true voids it through
// the settlement path — a refund payout of the live deposit, sent by the worker, confirmed on chain
// (anvil, chain id 8453) — and a suspended creator's funded mission still refunds the same way.

const REWARD = 100_000_000n;
const SPAM_FEE = 5_000_000n;

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const mission = async (id: string) => (await t.call("GET", `/missions/${id}`, { token: ADMIN_TOKEN })).body;

async function openFundedMission() {
  const c = await createBaseMission(t, REWARD);
  const hash = await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE);
  const a = await t.call("POST", `/missions/${c.m.id}/escrow`, { token: c.creator.token, body: { tx_hash: hash } });
  expect(a.status, a.text).toBe(202);
  await chain.mine(2);
  await escrowTick(t);
  expect((await mission(c.m.id)).status).toBe("open");
  return c;
}

describe("hide with refund on the base rail", () => {
  it("queues the refund payout in the hide's transaction; the worker returns the deposit to the funder", async () => {
    const { creator, m, key } = await openFundedMission();
    expect(await chain.usdcBalance(creator.address)).toBe(0n);
    const h = await t.call("POST", `/admin/missions/${m.id}/hide`, {
      token: ADMIN_TOKEN,
      body: { reason: "scam", refund: true },
    });
    expect(h.status, h.text).toBe(200);
    expect(h.body.mission).toMatchObject({
      status: "voided",
      resolution_reason: "operator_hide",
      payout_status: "queued",
      hidden: true,
    });
    expect((await t.call("GET", `/missions/${m.id}`)).status).toBe(404);
    await escrowTick(t);
    expect((await mission(m.id)).payout_status).toBe("broadcast");
    await chain.mine(2);
    await escrowTick(t);
    expect(await mission(m.id)).toMatchObject({ status: "voided", payout_status: "confirmed" });
    expect(await chain.usdcBalance(creator.address)).toBe(REWARD);
    expect(await chain.released(key)).toBe(false);
  });

  it("a suspended creator's funded mission still refunds when it voids", async () => {
    const { creator, m } = await openFundedMission();
    const s = await t.call("POST", `/admin/agents/${creator.address}/suspend`, {
      token: ADMIN_TOKEN,
      body: { reason: "abuse" },
    });
    expect(s.status).toBe(200);
    const other = await signIn(t);
    const claim = await t.call("POST", `/missions/${m.id}/claims`, { token: creator.token });
    expect(claim.status).toBe(403);
    expect(claim.body.details.reason).toBe("suspended");
    expect((await t.call("POST", `/missions/${m.id}/claims`, { token: other.token })).status).toBe(201);
    const v = await t.call("POST", `/missions/${m.id}/void`, { token: creator.token });
    expect(v.status, v.text).toBe(200);
    await escrowTick(t);
    await chain.mine(2);
    await escrowTick(t);
    expect(await mission(m.id)).toMatchObject({ status: "voided", payout_status: "confirmed" });
    expect(await chain.usdcBalance(creator.address)).toBe(REWARD);
  });
});
