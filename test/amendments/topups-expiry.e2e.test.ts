import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { expirePendingTopUps } from "../../src/features/amendments";
import type { TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { createBaseMission, escrowTick, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";
import { TOP_UP_PENDING_TTL_SECONDS } from "../../src/features/amendments/amendments.expiry";

// docs/amendments.md "Slots": a base-rail top-up nobody funds expires after
// TOP_UP_PENDING_TTL_SECONDS (the job runner's expire_pending_top_ups) and frees its slot of
// others' top-ups; one whose deposit the watcher has seen is left to confirm; a deposit that lands
// on an expired top-up's key anyway is refunded to its funder. On anvil, with a ManualClock.

const REWARD = 100_000_000n;
const TOP_UP = 10_000_000n;

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]), {
  env: { OABP_SESSION_TTL_SECONDS: String(30 * 86_400) },
  limits: { topUpsMaxPerMission: 1 },
});

const tick = () => escrowTick(t);
const topUp = (id: string, token: string) =>
  t.call("POST", `/missions/${id}/amendments`, { token, body: { kind: "top_up", amount: TOP_UP.toString() } });
const amendments = async (id: string) => (await t.call("GET", `/missions/${id}/amendments`)).body.amendments;

describe("unfunded base-rail top-ups expire", () => {
  it("a pending top-up nobody funds expires after the TTL and frees its slot; a seen deposit is kept", async () => {
    const ttl = TOP_UP_PENDING_TTL_SECONDS;
    const { creator, m, key } = await createBaseMission(t, REWARD);
    const hash = await chain.fund(creator.account, key, REWARD, 5_000_000n);
    await t.call("POST", `/missions/${m.id}/escrow`, { token: creator.token, body: { tx_hash: hash } });
    await chain.mine(2);
    await tick();
    expect((await t.call("GET", `/missions/${m.id}`)).body.status).toBe("open");

    const [a, b] = [await signIn(t), await signIn(t)];
    const first = await topUp(m.id, a.token);
    expect(first.status, first.text).toBe(202);
    const full = await topUp(m.id, b.token);
    expectError(full, 409, "CONFLICT");
    expect(full.body.details).toMatchObject({ reason: "too_many_top_ups", max: 1 });

    // Not yet due: nothing expires.
    t.clock.advance((ttl - 60) * 1000);
    expect(await expirePendingTopUps(t.deps)).toBe(0);
    expect((await topUp(m.id, b.token)).status).toBe(409);
    t.clock.advance(120_000);
    expect(await expirePendingTopUps(t.deps)).toBe(1);
    expect((await amendments(m.id))[0]).toMatchObject({ id: first.body.id, status: "rejected", reason: "expired" });
    expect(await expirePendingTopUps(t.deps)).toBe(0);

    // The slot is free again.
    const second = await topUp(m.id, b.token);
    expect(second.status, second.text).toBe(202);
    // Its deposit is seen (not yet at depth) before the TTL: it does not expire, and applies at depth.
    await chain.fund(b.account, second.body.escrow.mission_key as Hex, TOP_UP, 0n);
    await tick();
    t.clock.advance((ttl + 60) * 1000);
    expect(await expirePendingTopUps(t.deps)).toBe(0);
    await chain.mine(2);
    await tick();
    expect((await amendments(m.id))[1]).toMatchObject({ id: second.body.id, status: "applied" });
    expect((await t.call("GET", `/missions/${m.id}`)).body.reward.amount).toBe((REWARD + TOP_UP).toString());

    // A late deposit on the expired top-up's key is rejected and refunded to its funder.
    await chain.fund(a.account, first.body.escrow.mission_key as Hex, TOP_UP, 0n);
    await chain.mine(2);
    await tick();
    expect((await amendments(m.id))[0]).toMatchObject({ status: "rejected", reason: "expired" });
    expect((await t.call("GET", `/missions/${m.id}`)).body.reward.amount).toBe((REWARD + TOP_UP).toString());
    await tick();
    await chain.mine(2);
    await tick();
    expect(await chain.usdcBalance(a.address)).toBe(TOP_UP);
  });
});
