import { keccak256, toBytes, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { signedAward } from "../helpers/award-sign";
import {
  createBaseMission,
  escrowTick,
  POLL_MS,
  RELEASE_DELAY,
  useEscrowApp,
  type EscrowChain,
} from "../helpers/escrow-chain";
import { acceptedSubmission } from "../helpers/mission-flow";

// A top-up on the base rail on anvil, paid out in full at resolution. The
// contract keeps one slot per (key, funder) and releases a key once, so a top-up is a new slot
// with its own key (keccak256(bytes(amendment id))), found by the watcher and applied only at the
// confirmation depth; at resolution every slot is released to the winners.

const REWARD = 100_000_000n; // 100 USDC
const TOP_UP = 50_000_000n; // 50 USDC
const SPAM_FEE = 5_000_000n;
const fee = (x: bigint) => (x * 50n) / 10_000n; // OABP_FEE_BPS default 50

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const tick = () => escrowTick(t);
const mission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;

async function openFunded() {
  const c = await createBaseMission(t, REWARD);
  const hash = await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE);
  await t.call("POST", `/missions/${c.m.id}/escrow`, { token: c.creator.token, body: { tx_hash: hash } });
  await chain.mine(2);
  await tick();
  expect((await mission(c.m.id)).status).toBe("open");
  return c;
}

describe("top-ups on the base rail (anvil)", () => {
  it("a backer's top-up is a new slot, applied at the confirmation depth, and the winner is paid the full topped-up reward", async () => {
    const { creator, m, key } = await openFunded();
    const backer = await signIn(t);
    const r = await t.call("POST", `/missions/${m.id}/amendments`, {
      token: backer.token,
      body: { kind: "top_up", amount: TOP_UP.toString() },
    });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({ status: "pending", rail: "base", amount: TOP_UP.toString(), seq: 1 });
    const slot = r.body.escrow.mission_key as Hex;
    expect(slot).toBe(keccak256(toBytes(r.body.id)));
    expect(slot).not.toBe(key);
    expect(r.body.escrow).toMatchObject({ token: chain.usdc.toLowerCase(), spam_fee: "0" });
    expect(r.body.escrow.fund_call).toMatch(/^fundUntil\(/);
    // Nothing changes before the deposit is confirmed.
    expect(await mission(m.id)).toMatchObject({ reward: { amount: REWARD.toString() }, amendments_count: 0 });

    await chain.fund(backer.account, slot, TOP_UP, 0n);
    await tick(); // the watcher finds the Funded log of the top-up's key: pending
    expect(await mission(m.id)).toMatchObject({ reward: { amount: REWARD.toString() }, amendments_count: 0 });
    await chain.mine(2);
    await tick(); // at the confirmation depth: applied
    expect(await mission(m.id)).toMatchObject({
      reward: { amount: (REWARD + TOP_UP).toString() },
      amendments_count: 1,
    });
    const log = (await t.call("GET", `/missions/${m.id}/amendments`)).body;
    expect(log.amendments[0]).toMatchObject({
      status: "applied",
      changes: { reward: { from: REWARD.toString(), to: (REWARD + TOP_UP).toString() } },
    });
    expect(log.amendments[0].escrow.deposit_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);

    const treasury0 = await chain.usdcBalance(chain.treasury);
    const winner = await signIn(t);
    const sub = await acceptedSubmission(t, m.id, winner, "the answer");
    // The creator signs the release of the slot it funded; the backer's slot is not its to sign
    // (docs/base-rail.md "Release paths"): only the creator's slot is offered, and the top-up's
    // release takes the delayed path.
    const { typed, award } = await signedAward(t, creator, m.id, { winners: [{ submission_id: sub.body.id }] });
    expect(typed.map((r) => r.mission_key)).toEqual([key]);
    expect(award.status, award.text).toBe(200);
    const resolved = await mission(m.id);
    const total = REWARD + TOP_UP;
    const fees = fee(REWARD) + fee(TOP_UP);
    expect(resolved).toMatchObject({ status: "resolved", payout_status: "queued" });
    expect(resolved.resolution.winners[0].amount).toBe((total - fees).toString());

    await tick(); // the signed release and the top-up's proposal sent
    await chain.mine(2);
    await tick();
    await chain.mine(2);
    await tick();
    expect(await chain.released(key)).toBe(true);
    expect(await chain.released(slot)).toBe(false); // proposed: executable after the window
    await chain.increaseTime(RELEASE_DELAY);
    t.clock.advance(15 * POLL_MS); // the worker reads a pending proposal again within 15 polls
    await tick(); // executed
    await chain.mine(2);
    await tick();
    expect(await chain.released(slot)).toBe(true);
    expect(await chain.releasedLogs(slot)).toBe(1);
    expect(await chain.usdcBalance(winner.address)).toBe(total - fees);
    expect(await chain.usdcBalance(chain.treasury)).toBe(treasury0 + fees);
    expect(await chain.usdcBalance(backer.address)).toBe(0n);
    expect(await mission(m.id)).toMatchObject({ payout_status: "confirmed" });
  });

  it("a top-up whose deposit lands after the mission is decided is rejected and refunded to its funder", async () => {
    const { creator, m } = await openFunded();
    const backer = await signIn(t);
    const r = await t.call("POST", `/missions/${m.id}/amendments`, {
      token: backer.token,
      body: { kind: "top_up", amount: TOP_UP.toString() },
    });
    expect(r.status, r.text).toBe(202);
    const v = await t.call("POST", `/missions/${m.id}/void`, { token: creator.token });
    expect(v.status, v.text).toBe(200);
    await chain.fund(backer.account, r.body.escrow.mission_key as Hex, TOP_UP, 0n);
    await chain.mine(2);
    await tick(); // found and at depth: the mission is voided, so rejected and a refund queued
    const log = (await t.call("GET", `/missions/${m.id}/amendments`)).body;
    expect(log.amendments[0]).toMatchObject({ status: "rejected", reason: "mission_closed" });
    expect((await mission(m.id)).reward.amount).toBe(REWARD.toString());
    await tick();
    await chain.mine(2);
    await tick();
    expect(await chain.usdcBalance(backer.address)).toBe(TOP_UP);
  });

  it("a deadline extension stays within the deposits' refund-after; a void refunds every slot to its funder", async () => {
    const { creator, m } = await openFunded();
    const DAY = 86_400_000;
    const extend = (days: number) =>
      t.call("POST", `/missions/${m.id}/amendments`, {
        token: creator.token,
        body: { kind: "extend_deadline", deadline: new Date(Date.parse(m.deadline) + days * DAY).toISOString() },
      });
    // The deposit's refund-after was fixed at funding: deadline + windows + 7 days of grace.
    const ok = await extend(6);
    expect(ok.status, ok.text).toBe(201);
    const far = await extend(8);
    expect(far.status, far.text).toBe(422);
    expect(far.body.details).toMatchObject({ reason: "refund_after_exceeded" });

    const backer = await signIn(t);
    const r = await t.call("POST", `/missions/${m.id}/amendments`, {
      token: backer.token,
      body: { kind: "top_up", amount: TOP_UP.toString() },
    });
    expect(r.status, r.text).toBe(202);
    await chain.fund(backer.account, r.body.escrow.mission_key as Hex, TOP_UP, 0n);
    await chain.mine(2);
    await tick();
    expect((await mission(m.id)).reward.amount).toBe((REWARD + TOP_UP).toString());
    const creator0 = await chain.usdcBalance(creator.address);
    const v = await t.call("POST", `/missions/${m.id}/void`, { token: creator.token });
    expect(v.status, v.text).toBe(200);
    await tick();
    await chain.mine(2);
    await tick();
    expect(await chain.usdcBalance(backer.address)).toBe(TOP_UP);
    expect(await chain.usdcBalance(creator.address)).toBe(creator0 + REWARD);
    expect(await mission(m.id)).toMatchObject({ status: "voided", payout_status: "confirmed" });
  });
});
