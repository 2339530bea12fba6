import { keccak256, toBytes } from "viem";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookEvents } from "../../src/db/schema/index";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { signedAward } from "../helpers/award-sign";
import { FEE, openBaseMission, REWARD, SPAM_FEE } from "../helpers/base-rail-mission";
import {
  createBaseMission as createMission,
  escrowTick,
  useEscrowApp,
  type EscrowChain,
} from "../helpers/escrow-chain";

// The base rail end to end over HTTP on anvil (chain id 8453): create → fund on chain → the
// mission opens only at the confirmation depth → submit → award signed by the creator (contract
// v3 releaseSigned: paid at once) → payout_status confirmed → balances on chain; and the void path
// (refund to the funder, spam fee kept). The delayed path: escrow-release-paths.e2e.test.ts.

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const tick = () => escrowTick(t);
const mission = async (id: string, token?: string) => (await t.call("GET", `/missions/${id}`, { token })).body;

const createBaseMission = () => createMission(t, REWARD);

const openFundedMission = () => openBaseMission({ t, chain }, { attach: true });

describe("base rail end to end (anvil, chain id 8453)", () => {
  it("opens only at the confirmation depth, pays the winner reward − fee on chain, the treasury fee + spam fee", async () => {
    const treasury0 = await chain.usdcBalance(chain.treasury);
    const { creator, m, key } = await createBaseMission();
    expect(m).toMatchObject({ status: "pending_escrow", phase: "awaiting_escrow", payout_status: "not_applicable" });
    expect(m.escrow).toMatchObject({
      chain_id: 8453,
      contract: chain.escrow.toLowerCase(),
      token: chain.usdc.toLowerCase(),
      amount: REWARD.toString(),
      spam_fee: SPAM_FEE.toString(),
      deposit: null,
    });
    expect(key).toBe(keccak256(toBytes(m.id)));
    // Not listed, not visible to others, not open to submissions.
    expect((await t.call("GET", "/missions")).body.missions.map((x: { id: string }) => x.id)).not.toContain(m.id);
    expect((await t.call("GET", `/missions/${m.id}`)).status).toBe(404);

    const hash = await chain.fund(creator.account, key, REWARD, SPAM_FEE);
    expect(await chain.usdcBalance(chain.treasury)).toBe(treasury0 + SPAM_FEE); // the spam fee is paid at funding
    const attached = await t.call("POST", `/missions/${m.id}/escrow`, {
      token: creator.token,
      body: { tx_hash: hash },
    });
    expect(attached.status, attached.text).toBe(202);
    expect(attached.body).toMatchObject({
      mission_status: "pending_escrow",
      escrow: { deposit: { status: "pending", tx_hash: hash.toLowerCase(), funder: creator.address } },
    });
    // Attaching the same transaction again is idempotent.
    expect(
      (await t.call("POST", `/missions/${m.id}/escrow`, { token: creator.token, body: { tx_hash: hash } })).status,
    ).toBe(202);

    await tick();
    expect((await mission(m.id, creator.token)).status).toBe("pending_escrow");
    await chain.mine(1); // safe head = latest − 2: one block is not enough
    await tick();
    expect((await mission(m.id, creator.token)).status).toBe("pending_escrow");
    await chain.mine(1);
    await tick();
    const opened = await mission(m.id);
    expect(opened).toMatchObject({
      status: "open",
      phase: "accepting_submissions",
      escrow: { deposit: { status: "confirmed" } },
    });

    const winner = await signIn(t);
    const sub = await t.call("POST", `/missions/${m.id}/submissions`, {
      token: winner.token,
      body: { content: "the answer" },
    });
    expect(sub.status, sub.text).toBe(201);
    const { typed, award } = await signedAward(t, creator, m.id, { winners: [{ submission_id: sub.body.id }] });
    expect(typed).toEqual([
      {
        mission_key: key,
        funder: creator.address,
        typed_data: {
          domain: { name: "MissionEscrow", version: "4", chainId: 8453, verifyingContract: chain.escrow.toLowerCase() },
          types: { Release: expect.any(Array) },
          primaryType: "Release",
          message: {
            missionKey: key,
            funder: creator.address,
            recipients: [winner.address],
            amounts: [(REWARD - FEE).toString()],
            fee: FEE.toString(),
            // Contract v4: the slot's token, its instance and the deadline (the slot's refund-after).
            token: chain.usdc.toLowerCase(),
            fundingNonce: "1",
            deadline: expect.stringMatching(/^\d+$/),
          },
        },
      },
    ]);
    expect(award.status, award.text).toBe(200);
    expect(await mission(m.id)).toMatchObject({ status: "resolved", phase: "settling", payout_status: "queued" });

    await tick(); // signs, stores, sends the release
    const sent = await mission(m.id);
    expect(sent.payout_status).toBe("broadcast");
    expect(sent.escrow.payout_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const provisional = await t.call("GET", `/missions/${m.id}/receipts/${sub.body.id}`);
    expect(provisional.status).toBe(200);
    expect(provisional.body.settlement).toMatchObject({
      status: "broadcast",
      chain_id: 8453,
      tx_hash: sent.escrow.payout_tx_hash,
      amount: (REWARD - FEE).toString(),
      fee_amount: FEE.toString(),
    });
    expect((await t.call("POST", "/receipts/verify", { body: { receipt: provisional.body } })).body).toMatchObject({
      valid: true,
      provisional: true,
    });

    await chain.mine(2);
    await tick();
    expect(await mission(m.id)).toMatchObject({ payout_status: "confirmed", phase: "settling" });
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
    expect(await chain.usdcBalance(chain.treasury)).toBe(treasury0 + SPAM_FEE + FEE);

    await chain.mine(2);
    await tick();
    expect(await mission(m.id)).toMatchObject({ payout_status: "confirmed", phase: "settled" });
    const settled = await t.call("GET", `/missions/${m.id}/receipts/${sub.body.id}`);
    expect(settled.body.settlement).toMatchObject({ status: "settled", tx_hash: sent.escrow.payout_tx_hash });
    expect((await t.call("POST", "/receipts/verify", { body: { receipt: settled.body } })).body).toMatchObject({
      valid: true,
      provisional: false,
    });

    // Webhook outbox: mission.created only once the deposit opened it; payout.confirmed with the tx.
    const events = await t.deps.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.missionId, m.id))
      .orderBy(asc(webhookEvents.id));
    expect(events.map((e) => e.type)).toEqual([
      "mission.created",
      "submission.created",
      "submission.accepted",
      "mission.resolved",
      "payout.confirmed",
    ]);
    expect(JSON.parse(events[3]!.data)).toMatchObject({ payout_status: "queued" });
    expect(JSON.parse(events[4]!.data)).toMatchObject({
      submission_id: sub.body.id,
      agent_id: winner.address,
      amount: (REWARD - FEE).toString(),
      chain: "base",
      chain_id: 8453,
      tx_hash: sent.escrow.payout_tx_hash,
    });

    // More rounds change nothing: paid once.
    await chain.mine(3);
    await tick();
    await tick();
    expect(await chain.releasedLogs(key)).toBe(1);
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
  });

  it("void: the refund reaches the funder, the spam fee stays with the treasury", async () => {
    const { creator, m, key } = await openFundedMission();
    const treasury0 = await chain.usdcBalance(chain.treasury);
    expect(await chain.usdcBalance(creator.address)).toBe(0n);
    const v = await t.call("POST", `/missions/${m.id}/void`, { token: creator.token });
    expect(v.status, v.text).toBe(200);
    expect(await mission(m.id)).toMatchObject({ status: "voided", payout_status: "queued" });
    await tick();
    expect((await mission(m.id)).payout_status).toBe("broadcast");
    await chain.mine(2);
    await tick();
    expect(await mission(m.id)).toMatchObject({ status: "voided", payout_status: "confirmed" });
    expect(await chain.usdcBalance(creator.address)).toBe(REWARD);
    expect(await chain.usdcBalance(chain.treasury)).toBe(treasury0); // spam fee was paid at funding and stays
    expect(await chain.released(key)).toBe(false);
  });

  it("the watcher finds a deposit nobody attached, and the operator view shows the rail", async () => {
    const { creator, m, key } = await createBaseMission();
    await chain.fund(creator.account, key, REWARD, SPAM_FEE);
    await chain.mine(2);
    await tick();
    expect((await mission(m.id)).status).toBe("open");
    const view = await t.call("GET", "/treasury", { token: ADMIN_TOKEN });
    expect(view.status, view.text).toBe(200);
    expect(view.body.base_rail).toMatchObject({
      enabled: true,
      chain_id: 8453,
      rpc: "ok",
      resolver: { address: chain.resolver.address.toLowerCase() },
    });
    expect(BigInt(view.body.base_rail.resolver.gas_balance_wei)).toBeGreaterThan(0n);
    const usdc = view.body.base_rail.escrowed.find((e: { asset: string }) => e.asset === "USDC");
    expect(BigInt(usdc.amount)).toBeGreaterThanOrEqual(REWARD);
    expect(BigInt(usdc.contract_balance)).toBeGreaterThanOrEqual(BigInt(usdc.amount));
    expect((await t.call("GET", "/treasury", { token: creator.token })).status).toBe(403);
  });

  it("the manifest declares the rail", async () => {
    const man = (await t.call("GET", "/.well-known/oabp.json")).body;
    expect(man.payment_options.chains).toEqual(["base"]); // AIP-1 §9: EVM chains only; the ledger rail is payment_options.ledger
    expect(man.payment_options.ledger.enabled).toBe(true);
    expect(man.payment_options.base).toMatchObject({
      enabled: true,
      chain_id: 8453,
      escrow_contract: chain.escrow.toLowerCase(),
      confirmations: "safe",
      finality: "finalized",
    });
  });
});
