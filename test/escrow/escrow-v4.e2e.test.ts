import { eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainPayouts } from "../../src/db/schema/index";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { makeTestApp, type TestApp } from "../helpers/app";
import { authorizationUsed, signReceiveAuthorization } from "../helpers/usdc-sign";
import { signIn } from "../helpers/agents";
import { signedAward, type TypedRelease } from "../helpers/award-sign";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import {
  createBaseMission,
  escrowTick,
  settleMission,
  startEscrowChain,
  type EscrowChain,
} from "../helpers/escrow-chain";
import { expectRevert } from "../helpers/escrow-v3";

// The server on contract v4 (docs/base-rail.md "Trust model (contract v4)", "Migrating to a new
// escrow"), HTTP + the worker's tick + anvil: a creator_judges mission is funded signed-only until
// its judging window ends, so the resolver key alone cannot propose it; the creator's v4 signature
// (token, slot instance, deadline) pays at once. And a switch from v3 to v4 with v3 retired: a
// v3 slot's signed and delayed payouts still pay, once, on the v3 contract; new missions fund v4.

const REWARD = 100_000_000n;
const SPAM_FEE = 5_000_000n;
const FEE = (REWARD * 50n) / 10_000n; // OABP_FEE_BPS default 50

let chain: EscrowChain;
let db: TestDatabase;
const apps: TestApp[] = [];
beforeAll(async () => {
  chain = await startEscrowChain({ version: "3" });
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await db?.dispose();
  await chain?.stop();
});

const seconds = (iso: string) => BigInt(Math.ceil(Date.parse(iso) / 1000));
const mission = async (t: TestApp, id: string) => (await t.call("GET", `/missions/${id}`)).body;
const payoutOf = async (t: TestApp, missionId: string) =>
  (await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, missionId)))[0]!;

/** Funds a mission as its escrow instructions say (v4: with the signed-only time), attaches it, and opens it. */
async function fundAndOpen(t: TestApp, c: Awaited<ReturnType<typeof createBaseMission>>, escrow: Address) {
  const e = c.m.escrow;
  const hash = await chain.fund(
    c.creator.account,
    c.key,
    REWARD,
    SPAM_FEE,
    e.signed_only_until
      ? { escrow, refundAfter: seconds(e.refund_after), signedOnlyUntil: seconds(e.signed_only_until), version: "4" }
      : { escrow, version: chain.version }, // v3: fund(), refund-after a year on
  );
  const r = await t.call("POST", `/missions/${c.m.id}/escrow`, { token: c.creator.token, body: { tx_hash: hash } });
  expect(r.status, r.text).toBe(202);
  await chain.mine(2);
  await escrowTick(t);
  expect((await mission(t, c.m.id)).status).toBe("open");
  const solver = await signIn(t);
  const sub = await t.call("POST", `/missions/${c.m.id}/submissions`, { token: solver.token, body: { content: "x" } });
  expect(sub.status, sub.text).toBe(201);
  return { solver, subId: sub.body.id as string };
}

async function untilConfirmed(t: TestApp, ids: string[]) {
  for (let i = 0; i < 40; i++) {
    const states = await Promise.all(ids.map(async (id) => (await mission(t, id)).payout_status));
    if (states.every((s) => s === "confirmed")) return;
    await escrowTick(t);
    await chain.mine(1);
    t.clock.advance(30_000);
  }
  throw new Error("payouts not confirmed within 40 rounds");
}

const released = async (escrow: Address, key: Hex) =>
  (
    await chain.anvil.publicClient.getContractEvents({
      address: escrow,
      abi: missionEscrowAbi,
      eventName: "Released",
      args: { missionKey: key },
      fromBlock: 0n,
    })
  ).length;

describe("the server on contract v4", () => {
  it("migrates from v3 with v3 retired: v3 slots pay on v3; a v4 creator_judges slot is signed-only and pays by the v4 signature", async () => {
    const old = chain.escrow;
    const t1 = await makeTestApp(chain.env(), { database: db });
    apps.push(t1);
    // Two v3 missions: one awarded with the creator's v3 signature, one without (delayed path).
    const a = await createBaseMission(t1, REWARD);
    const b = await createBaseMission(t1, REWARD);
    expect(a.m.escrow.signed_only_until).toBeNull();
    const fa = await fundAndOpen(t1, a, old);
    const fb = await fundAndOpen(t1, b, old);
    const signedA = await signedAward(t1, a.creator, a.m.id, { winners: [{ submission_id: fa.subId }] });
    expect(signedA.award.status, signedA.award.text).toBe(200);
    const awardB = await t1.call("POST", `/missions/${b.m.id}/award`, {
      token: b.creator.token,
      body: { winners: [{ submission_id: fb.subId }] },
    });
    expect(awardB.status, awardB.text).toBe(200);
    for (const x of [a, b]) expect((await mission(t1, x.m.id)).payout_status).toBe("queued");

    // The switch: contract v4 configured (the default version), v3 retired.
    const fresh = await chain.deployEscrow({ version: "4" });
    const env = chain.env({
      OABP_ESCROW_ADDRESS: fresh,
      OABP_ESCROW_RETIRED: JSON.stringify([{ address: old, start_block: 0, version: "3" }]),
    });
    delete env.OABP_ESCROW_VERSION;
    const t2 = await makeTestApp(env, { database: db });
    apps.push(t2);
    t2.clock.advance(t1.clock.now().getTime() - t2.clock.now().getTime() + 60_000);
    await untilConfirmed(t2, [a.m.id]);
    await settleMission(t2, chain, b.m.id);
    for (const x of [a, b]) {
      expect(await released(old, x.key)).toBe(1);
      expect(await released(fresh, x.key)).toBe(0);
    }
    expect(await chain.usdcBalance(fa.solver.address)).toBe(REWARD - FEE);
    expect(await chain.usdcBalance(fb.solver.address)).toBe(REWARD - FEE);

    // A new creator_judges mission funds v4, signed-only until its judging window ends. The app's
    // clock first catches up with the chain's, so the mission's times are times on the chain.
    const chainNow = Number((await chain.anvil.publicClient.getBlock()).timestamp) * 1000;
    if (chainNow > t2.clock.now().getTime()) t2.clock.advance(chainNow - t2.clock.now().getTime());
    const n = await createBaseMission(t2, REWARD);
    expect(n.m.escrow.contract).toBe(fresh.toLowerCase());
    expect(n.m.escrow.signed_only_until).toEqual(expect.any(String));
    expect(n.m.escrow.fund_call).toBe(
      `fundUntil(${n.key}, ${chain.usdc.toLowerCase()}, ${REWARD}, ${SPAM_FEE}, ${seconds(n.m.escrow.refund_after)}, ${seconds(n.m.escrow.signed_only_until)})`,
    );
    const fn = await fundAndOpen(t2, n, fresh);
    // The resolver key alone cannot propose the slot to anyone before the judging window ends.
    const attacker = (await signIn(t2)).address as Address;
    await expectRevert(
      chain.wallet(chain.resolver).writeContract({
        address: fresh,
        abi: missionEscrowAbi,
        functionName: "proposeRelease",
        args: [n.key, n.creator.address as Address, [attacker], [REWARD], 0n],
      }),
      "SignedOnly",
    );
    // The creator's v4 signature: the typed data names the slot's token, instance and deadline.
    const typed = await t2.call("POST", `/missions/${n.m.id}/award/typed-data`, {
      token: n.creator.token,
      body: { winners: [{ submission_id: fn.subId }] },
    });
    const r = (typed.body.releases as TypedRelease[])[0]!;
    expect(r.typed_data.domain.version).toBe("4");
    expect(r.typed_data.message).toMatchObject({
      token: chain.usdc.toLowerCase(),
      fundingNonce: "1",
      deadline: String(seconds(n.m.escrow.refund_after)),
    });
    const signed = await signedAward(t2, n.creator, n.m.id, { winners: [{ submission_id: fn.subId }] });
    expect(signed.award.status, signed.award.text).toBe(200);
    expect(await payoutOf(t2, n.m.id)).toMatchObject({ releaseSignature: expect.stringMatching(/^0x/), step: null });
    await untilConfirmed(t2, [n.m.id]);
    expect(await released(fresh, n.key)).toBe(1);
    expect(await chain.usdcBalance(fn.solver.address)).toBe(REWARD - FEE);
    expect(await chain.usdcBalance(attacker)).toBe(0n);
  }, 300_000);
});

describe("funding by authorization (contract v4 fundWithAuthorization)", () => {
  it("a creator with USDC and no gas funds its mission from an EIP-3009 authorization a third party relays; it opens; the authorization cannot be used twice", async () => {
    const escrow = await chain.deployEscrow({ version: "4" });
    const env = chain.env({ OABP_ESCROW_ADDRESS: escrow });
    delete env.OABP_ESCROW_VERSION;
    const t = await makeTestApp(env, { database: await createTestDatabase() });
    apps.push(t);
    const chainNow = Number((await chain.anvil.publicClient.getBlock()).timestamp) * 1000;
    if (chainNow > t.clock.now().getTime()) t.clock.advance(chainNow - t.clock.now().getTime());
    const c = await createBaseMission(t, REWARD);
    const e = c.m.escrow;
    const funder = c.creator.account;
    await chain.mint(funder.address, REWARD + SPAM_FEE);
    await chain.setEth(funder.address, 0n);
    const refundAfter = seconds(e.refund_after);
    const signedOnlyUntil = seconds(e.signed_only_until);
    const read = { address: escrow, abi: missionEscrowAbi } as const;
    const salt = `0x${"ab".repeat(32)}` as Hex;
    const nonce = await chain.anvil.publicClient.readContract({
      ...read,
      functionName: "fundingAuthorizationNonce",
      args: [c.key, REWARD, SPAM_FEE, refundAfter, signedOnlyUntil, salt],
    });
    const validBefore = BigInt(Math.floor(chainNow / 1000)) + 3600n;
    const { v, r, s } = await signReceiveAuthorization(funder, {
      chainId: chain.anvil.chainId,
      token: chain.usdc,
      to: escrow,
      value: REWARD + SPAM_FEE,
      validBefore,
      nonce,
    });
    const auth = { from: funder.address, validAfter: 0n, validBefore, salt, v, r, s };
    const args = [c.key, chain.usdc, REWARD, SPAM_FEE, refundAfter, signedOnlyUntil, auth] as const;
    const relayer = chain.wallet(chain.admin);
    const hash = await relayer.writeContract({ ...read, functionName: "fundWithAuthorization", args });
    expect((await chain.anvil.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await chain.ethBalance(funder.address)).toBe(0n);
    const attach = await t.call("POST", `/missions/${c.m.id}/escrow`, {
      token: c.creator.token,
      body: { tx_hash: hash },
    });
    expect(attach.status, attach.text).toBe(202);
    await chain.mine(2);
    await escrowTick(t);
    expect((await mission(t, c.m.id)).status).toBe("open");
    // The token has spent the authorization (a replay after a refund is refused by the token:
    // test/chain/escrow-v4-funding.e2e.test.ts); relayed again now, the slot refuses it too.
    const spent = await authorizationUsed(chain.anvil.publicClient, chain.usdc, funder.address, nonce);
    expect(spent).toBe(true);
    await expectRevert(
      relayer.writeContract({ ...read, functionName: "fundWithAuthorization", args }),
      "AlreadyFunded",
    );
    expect(await chain.usdcBalance(funder.address)).toBe(0n);
  }, 120_000);
});
