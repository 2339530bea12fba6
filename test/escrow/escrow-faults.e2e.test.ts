import { encodeFunctionData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { ADMIN_TOKEN, makeTestApp, type TestApp } from "../helpers/app";
import { signedAward } from "../helpers/award-sign";
import { missionBody, signIn } from "../helpers/agents";
import {
  createBaseMission as createMission,
  escrowTick,
  RELEASE_DELAY,
  useEscrowApp,
  type EscrowChain,
} from "../helpers/escrow-chain";
import { awardedBaseMission, FEE, openBaseMission, REWARD, SPAM_FEE } from "../helpers/base-rail-mission";
import { startRpcProxy, type RpcProxy } from "../helpers/rpc-proxy";

// Faults of the base rail on anvil: reused, wrong and failed deposits; an unreachable RPC; reorgs
// of a deposit and of a payout (anvil snapshot/revert); a resolver out of gas; a deposit that
// arrives after its mission expired. Tests run in file order; each builds its own missions.

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const ticker = (app: TestApp) => () => escrowTick(app);
const mission = async (id: string, token?: string, app = t) =>
  (await app.call("GET", `/missions/${id}`, { token })).body;

const createBaseMission = (app = t) => createMission(app, REWARD);
const attach = (app: TestApp, id: string, token: string, tx_hash: string) =>
  app.call("POST", `/missions/${id}/escrow`, { token, body: { tx_hash } });

/** A mission awarded with the creator's signature: released at once (releaseSigned). */
const resolvedMission = () => awardedBaseMission({ t, chain });
// `t` is assigned in beforeAll: bind the ticker lazily.
const tick2 = () => ticker(t)();

describe("deposits that must not open a mission", () => {
  it("reused deposit → 409; wrong token, short amount, short spam fee, wrong contract, failed or unknown tx → 422 with a reason", async () => {
    const a = await createBaseMission();
    const hashA = await chain.fund(a.creator.account, a.key, REWARD, SPAM_FEE);
    expect((await attach(t, a.m.id, a.creator.token, hashA)).status).toBe(202);

    // The same creator tries to back a second mission with the first one's deposit.
    const b = await t.call("POST", "/missions", {
      token: a.creator.token,
      body: missionBody(t, { reward: { asset: "USDC", amount: REWARD.toString(), chain: "base" } }),
    });
    const reuse = await attach(t, b.body.id, a.creator.token, hashA);
    expect(reuse.status, reuse.text).toBe(409);
    expect(reuse.body).toMatchObject({ error: "CONFLICT", details: { reason: "deposit_already_used" } });

    const reason = async (hash: string, id: string, token: string) => {
      const r = await attach(t, id, token, hash);
      expect(r.status, r.text).toBe(422);
      return r.body.details.reason as string;
    };
    const otherToken = await chain.anvil.deploy("TestUSDC");
    const otherEscrow = await chain.deployEscrow();
    type Created = Awaited<ReturnType<typeof createBaseMission>>;
    // Each deposit below is wrong in one way only; its mission is created for it and stays pending.
    const wrongDeposits: [string, (c: Created) => Promise<string>][] = [
      ["token_not_allowed", (c) => chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE, { token: otherToken })],
      ["amount_short", (c) => chain.fund(c.creator.account, c.key, REWARD - 1n, SPAM_FEE)],
      ["spam_fee_short", (c) => chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE - 1n)],
      ["wrong_contract", (c) => chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE, { escrow: otherEscrow })],
    ];
    const created: Created[] = [];
    for (const [expected, deposit] of wrongDeposits) {
      const c = await createBaseMission();
      created.push(c);
      expect(await reason(await deposit(c), c.m.id, c.creator.token), expected).toBe(expected);
    }
    // In the order above; the wrong-contract one (c4) is where the deposits below are tried.
    const [c1, c2, c3, c4] = created as [Created, Created, Created, Created];
    const d = await createBaseMission(); // funded, never attached: its log names d's key, not c4's
    expect(await reason(await chain.fund(d.creator.account, d.key, REWARD, SPAM_FEE), c4.m.id, c4.creator.token)).toBe(
      "wrong_mission_key",
    );
    // A reverted funding transaction (no allowance): sent with an explicit gas limit so it is mined.
    await chain.setEth(c4.creator.address, 10n ** 18n);
    const failed = await chain.anvil.walletClient.sendTransaction({
      account: c4.creator.account,
      to: chain.escrow,
      gas: 300_000n,
      data: encodeFunctionData({
        abi: missionEscrowAbi,
        functionName: "fund",
        args: [c4.key, chain.usdc, REWARD, SPAM_FEE],
      }),
    });
    await chain.anvil.publicClient.waitForTransactionReceipt({ hash: failed });
    expect(await reason(failed, c4.m.id, c4.creator.token)).toBe("tx_failed");
    expect(await reason(`0x${"ab".repeat(32)}`, c4.m.id, c4.creator.token)).toBe("tx_not_found");

    // None of them opened; every rejected slot that holds money is refunded to its funder.
    for (const c of created) expect((await mission(c.m.id, c.creator.token)).status).toBe("pending_escrow");
    await tick2();
    await chain.mine(2);
    await tick2();
    expect(await chain.usdcBalance(c2.creator.address)).toBe(REWARD - 1n); // the slot came back, the spam fee did not
    // Spam fee short: junk costs the operator nothing — no refund by the resolver (docs/base-rail.md).
    expect(await chain.usdcBalance(c3.creator.address)).toBe(0n);
    // Others: not the creator → 403; a ledger mission has nothing to attach.
    expect((await attach(t, c1.m.id, a.creator.token, hashA)).status).toBe(404); // pending missions are the creator's alone
    const ledger = await t.call("POST", "/missions", { token: a.creator.token, body: missionBody(t) });
    expect(ledger.status).toBe(409); // no ledger balance: INSUFFICIENT_BALANCE, nothing created
  });

  it("the refunded funder can fund the same mission again from the same address", async () => {
    const c = await createBaseMission();
    const short = await chain.fund(c.creator.account, c.key, REWARD - 1n, SPAM_FEE);
    expect((await attach(t, c.m.id, c.creator.token, short)).status).toBe(422);
    await tick2(); // refund sent
    await chain.mine(2);
    await tick2(); // refund confirmed: the slot is empty again
    const good = await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE);
    expect((await attach(t, c.m.id, c.creator.token, good)).status).toBe(202);
    await chain.mine(2);
    await tick2();
    expect((await mission(c.m.id)).status).toBe("open");
  });
});

describe("an unreachable RPC", () => {
  let proxy: RpcProxy;
  let p: TestApp;
  beforeAll(async () => {
    proxy = await startRpcProxy(chain.anvil.rpcUrl);
    p = await makeTestApp(chain.env({ OABP_RPC_URL: proxy.url }));
  });
  afterAll(async () => {
    await p?.close();
    await proxy?.close();
  });

  it("keeps the mission pending (503 on attach, the jobs wait) and recovers when the RPC is back; a payout waits too", async () => {
    const c = await createBaseMission(p);
    const hash = await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE);
    proxy.down = true;
    const r = await attach(p, c.m.id, c.creator.token, hash);
    expect(r.status, r.text).toBe(503);
    expect(r.body).toMatchObject({ error: "SERVICE_UNAVAILABLE", details: { reason: "rpc_unavailable" } });
    await chain.mine(2);
    await ticker(p)();
    expect((await mission(c.m.id, c.creator.token, p)).status).toBe("pending_escrow");
    const view = await p.call("GET", "/treasury", { token: ADMIN_TOKEN });
    expect(view.status).toBe(200);
    expect(view.body.base_rail).toMatchObject({ rpc: "unavailable", resolver: { gas_balance_wei: null } });

    proxy.down = false;
    await ticker(p)();
    expect((await mission(c.m.id, undefined, p)).status).toBe("open");

    const winner = await signIn(p);
    const sub = await p.call("POST", `/missions/${c.m.id}/submissions`, {
      token: winner.token,
      body: { content: "x" },
    });
    expect((await signedAward(p, c.creator, c.m.id, { winners: [{ submission_id: sub.body.id }] })).award.status).toBe(
      200,
    );
    proxy.down = true;
    await ticker(p)();
    expect((await mission(c.m.id, undefined, p)).payout_status).toBe("queued");
    proxy.down = false;
    await ticker(p)();
    await chain.mine(2);
    await ticker(p)();
    expect((await mission(c.m.id, undefined, p)).payout_status).toBe("confirmed");
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
  });
});

describe("reorgs (anvil snapshot / revert)", () => {
  it("a deposit reorged out before it is final moves its mission back to pending_escrow; mined again, it reopens", async () => {
    const c = await createBaseMission();
    const snap = await chain.anvil.testClient.snapshot();
    const hash = await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE);
    expect((await attach(t, c.m.id, c.creator.token, hash)).status).toBe(202);
    await chain.mine(2);
    await tick2();
    expect((await mission(c.m.id)).status).toBe("open");

    await chain.anvil.testClient.revert({ id: snap });
    // The reorg shows when the deposit's height reaches the finality depth (anvil: latest − 4):
    // confirmed rows are checked once there, not on every tick (docs/base-rail.md "Liveness").
    await chain.mine(8); // chain.fund mined three blocks (mint, approve, fund) after the snapshot
    await tick2();
    const back = await mission(c.m.id, c.creator.token);
    expect(back).toMatchObject({ status: "pending_escrow", escrow: { deposit: { status: "reorged" } } });
    expect((await t.call("GET", "/missions")).body.missions.map((x: { id: string }) => x.id)).not.toContain(c.m.id);

    await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE); // the creator's deposit lands again
    await chain.mine(2);
    await tick2();
    expect(await mission(c.m.id)).toMatchObject({ status: "open", escrow: { deposit: { status: "confirmed" } } });
  });

  it("a confirmed payout reorged out is re-sent (same signed bytes) and confirmed again, paid once", async () => {
    const { m, key, winner } = await resolvedMission();
    const snap = await chain.anvil.testClient.snapshot();
    await tick2();
    const sentHash = (await mission(m.id)).escrow.payout_tx_hash;
    await chain.mine(2);
    await tick2();
    expect((await mission(m.id)).payout_status).toBe("confirmed");
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);

    await chain.anvil.testClient.revert({ id: snap });
    expect(await chain.usdcBalance(winner.address)).toBe(0n);
    await chain.mine(5); // the payout's height reaches the finality depth: its check runs
    await tick2(); // the receipt is gone: back to broadcast
    expect((await mission(m.id)).payout_status).toBe("broadcast");
    await tick2(); // unknown to the node: the stored transaction is sent again
    await chain.mine(2);
    await tick2();
    const after = await mission(m.id);
    expect(after.payout_status).toBe("confirmed");
    expect(after.escrow.payout_tx_hash).toBe(sentHash);
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
    expect(await chain.releasedLogs(key)).toBe(1);
  });
});

describe("resolver out of gas", () => {
  it("AIP-4 §8.2: shows pending_gas and treasury_health low_gas, pauses base-rail submissions, then completes once the resolver is funded", async () => {
    const { m, winner } = await resolvedMission();
    await chain.setEth(chain.resolver.address, 0n);
    await tick2();
    expect(await mission(m.id)).toMatchObject({ payout_status: "pending_gas" });
    expect((await mission(m.id)).escrow.payout_tx_hash).toBeNull();
    const view = (await t.call("GET", "/treasury", { token: ADMIN_TOKEN })).body;
    expect(view.base_rail.resolver.gas_balance_wei).toBe("0");
    expect(view.base_rail.pending_settlements.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ mission_id: m.id, state: "pending_gas" })]),
    );
    // AIP-4 §8.2: treasury_health low_gas in /treasury and the manifest; base-rail submissions paused.
    expect(view.treasury_health).toBe("low_gas");
    t.clock.advance(5_000); // past the manifest's few-second copy
    expect((await t.call("GET", "/.well-known/oabp.json")).body.treasury_health).toBe("low_gas");
    const open = await openBaseMission({ t, chain });
    const solver = await signIn(t);
    const paused = await t.call("POST", `/missions/${open.m.id}/submissions`, {
      token: solver.token,
      body: { content: "work while the resolver is dry" },
    });
    expect(paused.status, paused.text).toBe(503);
    expect(paused.body.details.reason).toBe("treasury_low_gas");

    await chain.setEth(chain.resolver.address, 10n ** 18n);
    await tick2();
    expect((await mission(m.id)).payout_status).toBe("pending_gas"); // waits its retry delay
    t.clock.advance(16_000);
    await tick2();
    expect((await mission(m.id)).payout_status).toBe("broadcast");
    await chain.mine(2);
    await tick2();
    expect((await mission(m.id)).payout_status).toBe("confirmed");
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
    expect((await t.call("GET", "/treasury", { token: ADMIN_TOKEN })).body.treasury_health).toBe("ok");
    const resumed = await t.call("POST", `/missions/${open.m.id}/submissions`, {
      token: solver.token,
      body: { content: "work once the resolver is funded" },
    });
    expect(resumed.status, resumed.text).toBe(201);
  });
});

describe("expiry", () => {
  it("an unfunded mission voids at its deadline; a deposit that arrives later is refunded (spam fee kept)", async () => {
    const c = await createBaseMission();
    t.clock.advance(8 * 86_400_000);
    await sweepDueMissions(t.deps);
    expect(await mission(c.m.id)).toMatchObject({ status: "voided", resolution_reason: "expired_unfunded" });
    await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE);
    await chain.mine(2);
    await tick2(); // found, rejected (mission_not_pending), refund queued and sent
    await tick2();
    await chain.mine(2);
    await tick2();
    expect(await chain.usdcBalance(c.creator.address)).toBe(REWARD);
    expect((await mission(c.m.id)).status).toBe("voided");
  });
});

describe("a payout this database lost track of", () => {
  it("is adopted from the chain (found by a bounded log search), never sent again", async () => {
    const { m, key, winner } = await resolvedMission();
    const { chainPayouts } = await import("../../src/db/schema/index");
    const { eq } = await import("drizzle-orm");
    const { createWalletClient, http } = await import("viem");
    const [p] = await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, m.id));
    // The release already happened on chain (say, before a restore from an older backup).
    const resolverWallet = createWalletClient({
      chain: chain.anvil.chain,
      transport: http(chain.anvil.rpcUrl),
      account: chain.resolver,
    });
    const releaseArgs = [
      key,
      p!.funder as Hex,
      p!.recipients.map((r) => r.address as Hex),
      p!.recipients.map((r) => BigInt(r.amount)),
      BigInt(p!.fee),
    ] as const;
    // Contract v3: the resolver's own release is the delayed path (propose, wait, execute).
    await chain.anvil.publicClient.waitForTransactionReceipt({
      hash: await resolverWallet.writeContract({
        address: chain.escrow,
        abi: missionEscrowAbi,
        functionName: "proposeRelease",
        args: releaseArgs,
      }),
    });
    await chain.increaseTime(RELEASE_DELAY);
    const hash = await resolverWallet.writeContract({
      address: chain.escrow,
      abi: missionEscrowAbi,
      functionName: "executeRelease",
      args: releaseArgs,
    });
    await chain.anvil.publicClient.waitForTransactionReceipt({ hash });
    await tick2();
    expect((await mission(m.id)).escrow.payout_tx_hash).toBe(hash.toLowerCase());
    await chain.mine(2);
    await tick2();
    expect((await mission(m.id)).payout_status).toBe("confirmed");
    expect(await chain.releasedLogs(key)).toBe(1);
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
  });
});
