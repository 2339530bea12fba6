import { asc, eq } from "drizzle-orm";
import { createWalletClient, http, parseAbi, type Address, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { chainEvents, webhookEvents } from "../../src/db/schema/index";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { signedAward } from "../helpers/award-sign";
import { awardUnsigned, openBaseMission, REWARD } from "../helpers/base-rail-mission";
import { escrowTick, settleMission, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";

// docs/base-rail.md "Exits and governance" on anvil, through HTTP and the real watcher job: a
// funder's self-refund, a reclaim and a withdraw show in mission state, mission events and
// GET /transparency within ONE watcher tick once mined to the confirmation depth — no false
// shortfall; governance actions (a resolver proposal) show as pending changes with their time.

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const usdcAdmin = parseAbi(["function setBlacklisted(address account, bool value)"]);

async function send(
  account: PrivateKeyAccount,
  address: Address,
  functionName: string,
  args: unknown[],
  abi = missionEscrowAbi,
) {
  const w = createWalletClient({ chain: chain.anvil.chain, transport: http(chain.anvil.rpcUrl), account });
  const hash = await w.writeContract({ address, abi, functionName, args } as Parameters<typeof w.writeContract>[0]);
  expect((await chain.anvil.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
  return hash;
}
const mission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;
/** A fresh reading (past the 10 s per-instance cache). */
async function transparency() {
  t.clock.advance(11_000);
  const r = await t.call("GET", "/transparency");
  expect(r.status, r.text).toBe(200);
  return r.body.base;
}
const usdcOf = (b: { assets: { token: string }[] }) =>
  b.assets.find((a) => a.token === chain.usdc.toLowerCase()) as Record<string, unknown>;
const eventsOf = async (missionId: string) =>
  (
    await t.db.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.missionId, missionId))
      .orderBy(asc(webhookEvents.id))
  ).map((e) => ({ type: e.type, data: JSON.parse(e.data) }));

const openFunded = () => openBaseMission({ t, chain });

describe("exits and governance indexed (anvil, the real watcher job)", () => {
  it("a self-refund before the payout is mined fails it as funder_exited at once, with an event; no false shortfall", async () => {
    const { creator, m, key } = await openFunded();
    const winner = await signIn(t);
    const sub = await t.call("POST", `/missions/${m.id}/submissions`, { token: winner.token, body: { content: "x" } });
    expect(sub.status, sub.text).toBe(201);
    await awardUnsigned(t, { token: creator.token, missionId: m.id, subId: sub.body.id });
    expect((await mission(m.id)).payout_status).toBe("queued");

    // The funder's own exit (a plain fund: refund-after one year on).
    await chain.anvil.testClient.increaseTime({ seconds: 366 * 86_400 });
    await send(creator.account, chain.escrow, "selfRefund", [key]);
    expect(await chain.usdcBalance(creator.address)).toBe(REWARD);
    await chain.mine(2); // at the confirmation depth

    await escrowTick(t); // ONE watcher tick
    expect(await mission(m.id)).toMatchObject({
      status: "resolved",
      payout_status: "failed",
      payout_status_reason: "funder_exited",
    });
    const exited = (await eventsOf(m.id)).filter((e) => e.type === "mission.funder_exited");
    expect(exited).toHaveLength(1);
    expect(exited[0]!.data).toMatchObject({ exit: "SelfRefunded", funder: creator.address, amount: REWARD.toString() });
    const items = (await t.call("GET", "/treasury", { token: ADMIN_TOKEN })).body.base_rail.pending_settlements.items;
    expect(items.find((p: { mission_id: string }) => p.mission_id === m.id)).toMatchObject({
      state: "failed",
      reason: "funder_exited",
    });
    const base = await transparency();
    expect(usdcOf(base)).toMatchObject({ reconciled: true, exited_slots: 1, exited_amount: REWARD.toString() });
    expect(base.contracts[0]).toMatchObject({ address: chain.escrow.toLowerCase(), current: true, reconciled: true });

    // More ticks: nothing more happens (the event was applied once), nothing is sent.
    await escrowTick(t);
    await escrowTick(t);
    expect((await eventsOf(m.id)).filter((e) => e.type === "mission.funder_exited")).toHaveLength(1);
    expect(await chain.releasedLogs(key)).toBe(0);
  });

  it("a credited winner's withdraw and a stray funder's reclaim are indexed within one tick", async () => {
    const { creator, m, key } = await openFunded();
    // A stray deposit on the same key with a short spam fee: rejected, left for its funder's exit.
    const stray = await signIn(t);
    await chain.fund(stray.account, key, 1_000_000n, 0n);
    const winner = await signIn(t);
    await send(chain.anvil.account, chain.usdc, "setBlacklisted", [winner.address, true], usdcAdmin as never);
    const sub = await t.call("POST", `/missions/${m.id}/submissions`, { token: winner.token, body: { content: "y" } });
    // The creator signs its award (releaseSigned): paid at once, the blacklisted winner credited.
    const { award } = await signedAward(t, creator, m.id, { winners: [{ submission_id: sub.body.id }] });
    expect(award.status, award.text).toBe(200);
    await settleMission(t, chain, m.id);
    const paid = await mission(m.id);
    expect(paid.payout_status_reason).toMatch(/^credited_pull:/);
    await chain.mine(2);
    await escrowTick(t);
    const before = usdcOf(await transparency());
    const share = BigInt(before.credits_outstanding as string);
    expect(share).toBeGreaterThan(0n);
    expect(before.reconciled).toBe(true);

    await send(chain.anvil.account, chain.usdc, "setBlacklisted", [winner.address, false], usdcAdmin as never);
    await chain.setEth(winner.address, 10n ** 18n);
    await send(winner.account, chain.escrow, "withdraw", [chain.usdc]);
    await send(stray.account, chain.escrow, "reclaim", [key]);
    await chain.mine(2);
    await escrowTick(t); // ONE watcher tick
    const after = usdcOf(await transparency());
    expect(after).toMatchObject({ reconciled: true, credits_outstanding: "0" });
    expect(BigInt(after.credits_withdrawn as string)).toBeGreaterThanOrEqual(share);
    expect((await mission(m.id)).payout_status_reason).toContain(`;withdrawn:${winner.address}`);
    expect(Number(after.exited_slots)).toBeGreaterThanOrEqual(2); // the earlier self-refund + this reclaim
    const reclaimed = (await eventsOf(m.id)).filter((e) => e.type === "mission.funder_exited");
    expect(reclaimed.map((e) => e.data.exit)).toEqual(["Reclaimed"]);
    expect(reclaimed[0]!.data.funder).toBe(stray.address);
    const items = (await t.call("GET", "/treasury", { token: ADMIN_TOKEN })).body.base_rail.pending_settlements;
    expect(items).toBeDefined();
    const names = (await t.db.database.db.select().from(chainEvents)).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(["SelfRefunded", "Credited", "Withdrawn", "Reclaimed"]));
  });

  it("a resolver proposal shows as a pending governance change with its effect time, and in /metrics", async () => {
    const proposed = privateKeyAccountAddress();
    await send(chain.anvil.account, chain.escrow, "proposeResolver", [proposed]);
    await chain.mine(2);
    await escrowTick(t);
    const base = await transparency();
    const pending = base.governance.pending.find((p: { kind: string }) => p.kind === "resolver");
    expect(pending).toMatchObject({ event: "ResolverProposed", contract: chain.escrow.toLowerCase() });
    expect(pending.args.resolver).toBe(proposed.toLowerCase());
    expect(pending.effective_at).toBeGreaterThan(0);
    expect(base.governance.recent[0]).toMatchObject({ event: "ResolverProposed" });
    const metrics = await t.call("GET", "/metrics", { token: ADMIN_TOKEN });
    expect(metrics.text).toMatch(/oabp_escrow_governance_events_total\{[^}]*event="ResolverProposed"[^}]*\} 1/);
    expect(metrics.text).toMatch(/oabp_escrow_governance_pending\{[^}]*kind="resolver"[^}]*\} 1/);
    expect(metrics.text).toMatch(/oabp_payouts_failed\{[^}]*reason="funder_exited"[^}]*\} 1/);
  });
});

function privateKeyAccountAddress(): Hex {
  return `0x${"5".repeat(40)}` as Hex;
}
