import { and, eq } from "drizzle-orm";
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { chainPayouts, custodyAlerts, webhookEvents } from "../../src/db/schema/index";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { signIn } from "../helpers/agents";
import { signedAward, signTyped, type TypedRelease } from "../helpers/award-sign";
import { awardUnsigned, baseMissionWithSubmission, proposalsOf as proposals } from "../helpers/base-rail-mission";
import { POLL_MS, RELEASE_DELAY, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";
import { escrowReads } from "../helpers/escrow-reads";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";

// Custody (docs/custody.md), end to end on anvil with the HTTP API and the settlement worker's
// rounds, on contract v4 with slots funded without a signed-only time: what a stolen resolver key
// can still propose on v4 (a default award after the judging window) and all it could on v3.
// Every release, refund and proposal of a slot is judged against the server's signed decisions; a
// movement none explains is never shown as a payout, raises a `custody.alert` event and the
// oabp_custody_alerts_total metric, and keeps /transparency from saying reconciled; a payout row
// rewritten in the database is refused, never sent.

const STOLEN = 99_000_000n;

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const { tick, mission, payoutOf } = escrowReads(() => t);
const alertsOf = (missionId: string) =>
  t.deps.database.db.select().from(custodyAlerts).where(eq(custodyAlerts.missionId, missionId));
async function alertEvents(missionId: string) {
  const rows = await t.deps.database.db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.missionId, missionId), eq(webhookEvents.type, "custody.alert")));
  return rows.map((e) => JSON.parse(e.data) as Record<string, unknown>);
}
async function metric(name: string, kind: string): Promise<number> {
  const r = await t.call("GET", "/metrics", { token: ADMIN_TOKEN });
  const line = r.text.split("\n").find((l) => l.startsWith(`${name}{`) && l.includes(`kind="${kind}"`));
  return line ? Number(line.split(" ").pop()) : 0;
}
async function transparency() {
  t.clock.advance(11_000); // past the per-instance reading cache
  return (await t.call("GET", "/transparency")).body.base;
}

/** A funded, open creator_judges mission with one submission. */
const missionWithSubmission = () => baseMissionWithSubmission({ t, chain }, { attach: true });

/** The resolver key, in a thief's hands: a release of the slot to `to`. */
async function steal(fn: "proposeRelease" | "executeRelease", key: Hex, funder: string, to: string) {
  const hash = await chain.wallet(chain.resolver).writeContract({
    address: chain.escrow,
    abi: missionEscrowAbi,
    functionName: fn,
    args: [key, funder as Hex, [to as Hex], [STOLEN], 0n],
    chain: chain.anvil.chain,
    account: chain.resolver,
  });
  return chain.anvil.publicClient.waitForTransactionReceipt({ hash });
}

const proposalsOf = (key: Hex) => proposals(chain, key);

describe("custody: movements judged against signed decisions", () => {
  it("(a) a stolen resolver key proposes a creator_judges slot to itself and executes it: alerted at once, never shown as paid", async () => {
    const { creator, m, key, winner, subId } = await missionWithSubmission();
    const thief = await signIn(t);
    const before = await metric("oabp_custody_alerts_total", "foreign_proposal");
    await steal("proposeRelease", key, creator.address, thief.address);
    // Within one poll interval of the proposal: the alert event and the metric.
    await tick();
    const proposed = await alertsOf(m.id);
    expect(proposed).toHaveLength(1);
    expect(proposed[0]).toMatchObject({ kind: "foreign_proposal", resolvedAt: null });
    expect(await metric("oabp_custody_alerts_total", "foreign_proposal")).toBe(before + 1);
    const [ev] = await alertEvents(m.id);
    expect(ev).toMatchObject({
      kind: "foreign_proposal",
      mission_key: key,
      recipients: [{ address: thief.address.toLowerCase(), amount: STOLEN.toString() }],
    });
    // Listed by /transparency until resolved, and the contract is not reconciled meanwhile.
    const listed = await transparency();
    expect(listed.custody_alerts.map((a: { kind: string }) => a.kind)).toContain("foreign_proposal");
    expect(listed.contracts[0].reconciled).toBe(false);

    // Nobody cancels: after the window the thief executes it.
    await chain.increaseTime(RELEASE_DELAY);
    const exec = await steal("executeRelease", key, creator.address, thief.address);
    await chain.mine(2);
    await tick();
    expect(await chain.usdcBalance(thief.address)).toBe(STOLEN);
    const alerts = await alertsOf(m.id);
    expect(alerts.find((a) => a.kind === "foreign_release")).toMatchObject({
      txHash: exec.transactionHash.toLowerCase(),
      resolvedAt: null,
      detail: expect.objectContaining({ reason: "taken:unknown_recipient" }),
    });
    // The executed proposal is superseded by the theft it became.
    expect(alerts.find((a) => a.kind === "foreign_proposal")?.resolution).toBe("slot_released");
    expect(await metric("oabp_custody_alerts_total", "foreign_release")).toBeGreaterThanOrEqual(1);

    // The creator awards its winner (signed): the slot is empty, the release was someone else's.
    const { award } = await signedAward(t, creator, m.id, { winners: [{ submission_id: subId }] });
    expect(award.status, award.text).toBe(200);
    for (let i = 0; i < 4; i++) {
      t.clock.advance(15 * POLL_MS);
      await tick();
      await chain.mine(1);
    }
    const after = await mission(m.id);
    expect(after.payout_status).toBe("failed");
    expect(after.payout_status_reason).toBe("taken:unknown_recipient");
    expect(after.phase).not.toBe("settled");
    expect(await payoutOf(m.id)).toMatchObject({
      state: "failed",
      reason: "taken:unknown_recipient",
      minedTxHash: null,
    });
    expect(await chain.usdcBalance(winner.address)).toBe(0n);
    const paid = await t.deps.database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.missionId, m.id), eq(webhookEvents.type, "payout.confirmed")));
    expect(paid).toHaveLength(0);
    const base = await transparency();
    expect(base.contracts[0].reconciled).toBe(false);
    expect(base.custody_alerts.map((a: { kind: string }) => a.kind)).toContain("foreign_release");
    // The winner hears of it too (winners[] routes the event to their inbox).
    const last = (await alertEvents(m.id)).at(-1)!;
    expect(JSON.stringify(last.winners ?? [])).toContain(winner.address.toLowerCase());
  }, 120_000);

  it("(b) a payout row rewritten in the database is refused, never sent, and alarms (unsigned and creator-signed)", async () => {
    for (const signed of [false, true]) {
      const { creator, m, key, subId } = await missionWithSubmission();
      const attacker = await signIn(t);
      const body = { winners: [{ submission_id: subId }] };
      const award = signed
        ? (await signedAward(t, creator, m.id, body)).award
        : await t.call("POST", `/missions/${m.id}/award`, { token: creator.token, body });
      expect(award.status, award.text).toBe(200);
      const p = await payoutOf(m.id);
      await t.deps.database.db
        .update(chainPayouts)
        .set({ recipients: p.recipients.map((r) => ({ ...r, address: attacker.address.toLowerCase() })) })
        .where(eq(chainPayouts.id, p.id));
      for (let i = 0; i < 3; i++) {
        t.clock.advance(15 * POLL_MS);
        await tick();
        await chain.mine(1);
      }
      expect(await payoutOf(m.id)).toMatchObject({
        state: "failed",
        reason: "decision_refused:decision_plan_mismatch",
        attempts: [],
      });
      expect(await chain.usdcBalance(attacker.address)).toBe(0n);
      expect(await chain.releasedLogs(key)).toBe(0);
      expect(await proposalsOf(key)).toHaveLength(0); // no fallback to the delayed path
      expect((await alertsOf(m.id)).map((a) => a.kind)).toEqual(["decision_refused"]);
      expect((await alertEvents(m.id))[0]).toMatchObject({ kind: "decision_refused" });
      expect((await mission(m.id)).payout_status).toBe("failed");
    }
    expect(await metric("oabp_custody_alerts_total", "decision_refused")).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it("(b) a forged or removed decision is refused too: the database holds no key to sign one", async () => {
    for (const forge of ["rewrite", "remove"] as const) {
      const { creator, m, subId } = await missionWithSubmission();
      const attacker = await signIn(t);
      await awardUnsigned(t, { token: creator.token, missionId: m.id, subId });
      const p = await payoutOf(m.id);
      const recipients = p.recipients.map((r) => ({ ...r, address: attacker.address.toLowerCase() }));
      const decision =
        forge === "remove"
          ? null
          : { ...p.decision, recipients: recipients.map((r) => ({ address: r.address, amount: r.amount })) };
      await t.deps.database.db.update(chainPayouts).set({ recipients, decision }).where(eq(chainPayouts.id, p.id));
      await tick();
      expect((await payoutOf(m.id)).reason).toBe(
        forge === "remove" ? "decision_refused:decision_missing" : "decision_refused:decision_bad_signature",
      );
      expect(await chain.usdcBalance(attacker.address)).toBe(0n);
    }
  }, 120_000);

  it("(c) a high-s release signature (valid off chain, refused by the contract) is refused at the award with 422", async () => {
    const { creator, m, key, subId } = await missionWithSubmission();
    const body = { winners: [{ submission_id: subId }] };
    const typed = await t.call("POST", `/missions/${m.id}/award/typed-data`, { token: creator.token, body });
    const sig = await signTyped(creator.account, (typed.body.releases as TypedRelease[])[0]!);
    // The malleable twin: s' = n − s, v flipped. viem still recovers the creator from it.
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${sig.slice(66, 130)}`);
    const v = parseInt(sig.slice(130, 132), 16);
    const high = `${sig.slice(0, 66)}${(N - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}`;
    const refused = await t.call("POST", `/missions/${m.id}/award`, {
      token: creator.token,
      body: { ...body, release_signatures: { [key]: high } },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body).toMatchObject({
      error: "UNPROCESSABLE",
      details: { reason: "non_canonical_release_signature", field: `release_signatures.${key}` },
    });
    expect(await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, m.id))).toHaveLength(
      0,
    );
    const ok = await t.call("POST", `/missions/${m.id}/award`, {
      token: creator.token,
      body: { ...body, release_signatures: { [key]: sig } },
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it("(e) a resolver refund of an awarded slot: the payout says so, no false shortfall", async () => {
    const { creator, m, key, subId } = await missionWithSubmission();
    await awardUnsigned(t, { token: creator.token, missionId: m.id, subId });
    const hash = await chain.wallet(chain.resolver).writeContract({
      address: chain.escrow,
      abi: missionEscrowAbi,
      functionName: "refund",
      args: [key, creator.address as Hex],
      chain: chain.anvil.chain,
      account: chain.resolver,
    });
    await chain.anvil.publicClient.waitForTransactionReceipt({ hash });
    await chain.mine(2);
    await tick();
    await tick();
    const after = await mission(m.id);
    expect(after.payout_status).toBe("failed");
    expect(after.payout_status_reason).toBe("refunded_by_resolver");
    expect((await alertsOf(m.id)).map((a) => a.kind)).toContain("resolver_refund");
    const base = await transparency();
    for (const a of base.contracts[0].assets) expect(BigInt(a.difference)).toBeGreaterThanOrEqual(0n);
    expect(
      base.custody_alerts.some(
        (a: { kind: string; mission_id: string }) => a.kind === "resolver_refund" && a.mission_id === m.id,
      ),
    ).toBe(true);
  });
});
