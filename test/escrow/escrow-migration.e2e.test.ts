import { readFileSync } from "node:fs";
import path from "node:path";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionEscrowV3Abi as missionEscrowAbi } from "../../src/lib/abi/mission-escrow-v3";
import { makeTestApp, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { ROOT } from "../helpers/process";
import {
  ADMIN_DELAY,
  FEE_CAP_BPS,
  createBaseMission,
  escrowTick,
  startEscrowChain,
  type EscrowChain,
} from "../helpers/escrow-chain";

// docs/base-rail.md "Migrating to a new escrow" on anvil: payouts in flight on the old contract —
// broadcast (signed, sent, mined but not confirmed) and queued (not signed yet) — when the server
// is rebuilt on a new contract with the old one in OABP_ESCROW_RETIRED. Every old payout is paid
// exactly once, by the old contract (Released / Refunded logs counted); a new mission funds the
// new contract; GET /transparency reconciles on both.

type Funded = Awaited<ReturnType<typeof createBaseMission>>;
const REWARD = 20_000_000n;
const SPAM_FEE = 5_000_000n;

let chain: EscrowChain;
let db: TestDatabase;
const apps: TestApp[] = [];
beforeAll(async () => {
  chain = await startEscrowChain({ version: "3" }); // v2 → v3 (v3 → v4: escrow-v4.e2e.test.ts)
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await db?.dispose();
  await chain?.stop();
});

/** This build's MissionEscrow, with the constructor its artifact has (v2: 5 arguments; v3: 10). */
async function deployCurrent(): Promise<Address> {
  const artifact = JSON.parse(readFileSync(path.join(ROOT, "contracts/artifacts/MissionEscrow.json"), "utf8")) as {
    abi: { type: string; inputs?: unknown[] }[];
  };
  const arity = artifact.abi.find((e) => e.type === "constructor")?.inputs?.length ?? 5;
  const v2 = [chain.admin.address, chain.resolver.address, chain.treasury, FEE_CAP_BPS, ADMIN_DELAY];
  // contract-spec v3: admin, resolver, guardian, treasury, feeCapBps, adminDelay, releaseDelay,
  // capPeriod, capTokens, caps.
  const v3 = [
    chain.admin.address,
    chain.resolver.address,
    chain.admin.address,
    chain.treasury,
    FEE_CAP_BPS,
    ADMIN_DELAY,
    86_400,
    86_400,
    [chain.usdc],
    [10n ** 15n],
  ];
  return chain.anvil.deploy("MissionEscrowV3", arity === 5 ? v2 : v3);
}

async function logs(escrow: Address, eventName: "Released" | "Refunded", key: Hex) {
  return (
    await chain.anvil.publicClient.getContractEvents({
      address: escrow,
      abi: missionEscrowAbi,
      eventName,
      args: { missionKey: key },
      fromBlock: 0n,
      toBlock: "latest",
    })
  ).length;
}

describe("migrating to a new escrow with payouts in flight (anvil)", () => {
  it("pays every old payout exactly once on the old contract; new missions fund the new one; both reconcile", async () => {
    // The old contract is a v2 (its frozen artifact); the new one is this build's MissionEscrow.
    const old = await chain.anvil.deploy("MissionEscrowV2", [
      chain.admin.address,
      chain.resolver.address,
      chain.treasury,
      FEE_CAP_BPS,
      ADMIN_DELAY,
    ]);
    const t1 = await makeTestApp(chain.env({ OABP_ESCROW_ADDRESS: old, OABP_ESCROW_VERSION: "2" }), {
      database: db,
    });
    apps.push(t1);
    const mission = async (t: TestApp, id: string) => (await t.call("GET", `/missions/${id}`)).body;
    const funded: Awaited<ReturnType<typeof createBaseMission>>[] = [];
    for (let i = 0; i < 4; i++) {
      const c = await createBaseMission(t1, REWARD);
      await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE, { escrow: old });
      funded.push(c);
    }
    await chain.mine(2);
    await escrowTick(t1);
    for (const c of funded) expect((await mission(t1, c.m.id)).status).toBe("open");
    const award = async (c: Funded) => {
      const solver = await signIn(t1);
      const sub = await t1.call("POST", `/missions/${c.m.id}/submissions`, {
        token: solver.token,
        body: { content: "done" },
      });
      const r = await t1.call("POST", `/missions/${c.m.id}/award`, {
        token: c.creator.token,
        body: { winners: [{ submission_id: sub.body.id }] },
      });
      expect(r.status, r.text).toBe(200);
      return solver;
    };
    const [a, b, c, d] = funded as [Funded, Funded, Funded, Funded];
    const winners = [await award(a), await award(b)];
    await escrowTick(t1); // a and b: signed, stored, sent (mined at the head, short of the confirmation depth)
    for (const x of [a, b]) expect((await mission(t1, x.m.id)).payout_status).toBe("broadcast");
    winners.push(await award(c)); // c: queued
    expect((await t1.call("POST", `/missions/${d.m.id}/void`, { token: d.creator.token })).status).toBe(200); // d: refund queued
    for (const x of [c, d]) expect((await mission(t1, x.m.id)).payout_status).toBe("queued");

    // The switch: a new contract; the server rebuilt with the old one retired.
    const fresh = await deployCurrent();
    const t2 = await makeTestApp(
      chain.env({
        OABP_ESCROW_ADDRESS: fresh,
        OABP_ESCROW_RETIRED: JSON.stringify([{ address: old, start_block: 0, version: "2" }]),
      }),
      { database: db },
    );
    apps.push(t2);
    t2.clock.advance(t1.clock.now().getTime() - t2.clock.now().getTime() + 60_000); // time goes on
    for (let i = 0; i < 30; i++) {
      const states = await Promise.all(funded.map(async (x) => (await mission(t2, x.m.id)).payout_status));
      if (states.every((s) => s === "confirmed")) break;
      await escrowTick(t2);
      await chain.mine(1);
      t2.clock.advance(30_000);
    }
    for (const x of funded) expect((await mission(t2, x.m.id)).payout_status).toBe("confirmed");
    // Exactly once, by the old contract; nothing on the new one.
    for (const x of [a, b, c]) {
      expect(await logs(old, "Released", x.key)).toBe(1);
      expect(await logs(fresh, "Released", x.key)).toBe(0);
    }
    expect(await logs(old, "Refunded", d.key)).toBe(1);
    expect(await logs(fresh, "Refunded", d.key)).toBe(0);
    for (const w of winners) expect(await chain.usdcBalance(w.address)).toBe(REWARD - (REWARD * 50n) / 10_000n);
    expect(await chain.usdcBalance(d.creator.address)).toBe(REWARD);

    // A new mission funds the new contract.
    const n = await createBaseMission(t2, REWARD);
    expect(n.m.escrow.contract).toBe(fresh.toLowerCase());
    await chain.fund(n.creator.account, n.key, REWARD, SPAM_FEE, { escrow: fresh });
    await chain.mine(2);
    await escrowTick(t2);
    expect((await mission(t2, n.m.id)).status).toBe("open");

    // More rounds change nothing; /transparency reconciles on both contracts.
    await chain.mine(3);
    await escrowTick(t2);
    await escrowTick(t2);
    for (const x of [a, b, c]) expect(await logs(old, "Released", x.key)).toBe(1);
    t2.clock.advance(11_000);
    const base = (await t2.call("GET", "/transparency")).body.base;
    const usdc = (assets: { token: string }[]) => assets.find((x) => x.token === chain.usdc.toLowerCase());
    const byAddress = new Map(base.contracts.map((k: { address: string }) => [k.address, k]));
    expect(byAddress.get(old.toLowerCase())).toMatchObject({ current: false, version: "2", reconciled: true });
    expect(byAddress.get(fresh.toLowerCase())).toMatchObject({ current: true, reconciled: true });
    const oldUsdc = usdc((byAddress.get(old.toLowerCase()) as { assets: { token: string }[] }).assets);
    const newUsdc = usdc((byAddress.get(fresh.toLowerCase()) as { assets: { token: string }[] }).assets);
    expect(oldUsdc).toMatchObject({ held: "0", on_chain: "0", reconciled: true });
    expect(newUsdc).toMatchObject({ held: REWARD.toString(), on_chain: REWARD.toString(), reconciled: true });
    expect(usdc(base.assets)).toMatchObject({ held: REWARD.toString(), reconciled: true });
    const treasury = await t2.call("GET", "/treasury", { token: (await import("../helpers/app")).ADMIN_TOKEN });
    expect(treasury.body.base_rail.escrowed).toEqual(
      expect.arrayContaining([expect.objectContaining({ contract: fresh.toLowerCase(), amount: REWARD.toString() })]),
    );
  }, 300_000);
});
