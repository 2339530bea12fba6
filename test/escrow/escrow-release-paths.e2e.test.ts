import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import type { HDAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { chainPayouts, webhookEvents } from "../../src/db/schema/index";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { signTyped, signedAward, type TypedRelease } from "../helpers/award-sign";
import { awardUnsigned, baseMissionWithSubmission, FEE, proposalsOf, REWARD } from "../helpers/base-rail-mission";
import { POLL_MS, RELEASE_DELAY, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";
import { escrowReads } from "../helpers/escrow-reads";

// The two release paths of MissionEscrow v4 end to end (HTTP, the settlement worker's tick, anvil;
// docs/base-rail.md "Release paths"): a creator_judges award the creator signed pays at once
// (releaseSigned); an unsigned one is proposed and paid only after the challenge window; a
// guardian's cancel parks the payout (never a refund) until the operator retries; and the
// resolver key alone cannot pay a creator_judges slot to anyone the creator did not sign for
// before the window ends.

/** The worker reads a pending proposal again at most 15 poll intervals apart (payouts.paths.ts). */
const WATCH_MS = 15 * POLL_MS;

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const { tick, mission, payoutOf } = escrowReads(() => t);

/** `account` calls the escrow's `functionName` with `args`; resolves once the transaction is mined. */
const sendAs = async (account: HDAccount, functionName: string, args: readonly unknown[]) =>
  chain.anvil.publicClient.waitForTransactionReceipt({
    hash: await chain.wallet(account).writeContract({
      address: chain.escrow,
      abi: missionEscrowAbi,
      functionName,
      args,
      chain: chain.anvil.chain,
      account,
    } as never),
  });

/** A funded, open creator_judges mission with one verified submission. */
const missionWithSubmission = () => baseMissionWithSubmission({ t, chain }, { attach: true });

/** Ticks (one poll interval each) until `done`, mining `mine` blocks between rounds; bounded. */
async function until(done: () => Promise<boolean>, opts: { mine?: number; advanceMs?: number } = {}) {
  for (let i = 0; i < 40; i++) {
    if (await done()) return;
    if (opts.advanceMs) t.clock.advance(opts.advanceMs);
    await tick();
    if (opts.mine) await chain.mine(opts.mine);
  }
  throw new Error("condition not reached within 40 rounds");
}

/** Proposed and confirmed: the payout waits for its window at step execute. */
async function untilProposed(missionId: string) {
  await until(async () => (await payoutOf(missionId)).step === "execute", { mine: 1 });
  return payoutOf(missionId);
}

async function eventsOf(missionId: string) {
  const rows = await t.deps.database.db.select().from(webhookEvents).where(eq(webhookEvents.missionId, missionId));
  return rows.map((e) => ({ type: e.type, data: JSON.parse(e.data) as Record<string, unknown> }));
}

describe("release paths (contract v4)", () => {
  it("(a) a creator_judges award with the creator's signature pays at once through releaseSigned", async () => {
    const { creator, m, key, winner, subId } = await missionWithSubmission();
    const { award } = await signedAward(t, creator, m.id, { winners: [{ submission_id: subId }] });
    expect(award.status, award.text).toBe(200);
    const p = await payoutOf(m.id);
    expect(p).toMatchObject({ step: null, releaseSignature: expect.stringMatching(/^0x/) });
    await until(async () => (await mission(m.id)).payout_status === "confirmed", { mine: 1 });
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
    expect(await chain.releasedLogs(key)).toBe(1);
    // No proposal was ever made for this slot.
    expect(await proposalsOf(chain, key)).toHaveLength(0);
  });

  it("(b) without a signature the release is proposed, not paid before the window, paid after it", async () => {
    const { creator, m, key, winner, subId } = await missionWithSubmission();
    await awardUnsigned(t, { token: creator.token, missionId: m.id, subId });
    const p = await untilProposed(m.id);
    expect(p.proposalTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(p.executableAt).not.toBeNull();
    const proposed = await mission(m.id);
    expect(proposed).toMatchObject({ status: "resolved", payout_status: "queued" });
    // The reason says what happens next, and from when: release_proposed:<executable_at>.
    expect(proposed.payout_status_reason).toBe(`release_proposed:${p.executableAt!.toISOString()}`);
    const ev = (await eventsOf(m.id)).find((e) => e.type === "payout.proposed");
    expect(ev?.data).toMatchObject({ mission_key: key, proposal_tx_hash: p.proposalTxHash });

    // Proposed on chain, executable by anyone after the window: the operator cannot fail it by hand.
    const fail = await t.call("POST", `/admin/payouts/${p.id}/fail`, { token: ADMIN_TOKEN, body: { reason: "try" } });
    expect(fail.status).toBe(409);
    expect(fail.body.details).toMatchObject({ reason: "payout_in_flight", step: "execute" });

    // Rounds inside the window pay nothing, whatever the server's clock says.
    for (let i = 0; i < 3; i++) {
      t.clock.advance(WATCH_MS);
      await tick();
      await chain.mine(1);
    }
    expect(await chain.usdcBalance(winner.address)).toBe(0n);
    expect(await chain.releasedLogs(key)).toBe(0);
    expect((await payoutOf(m.id)).reason).toMatch(/^release_proposed/);

    await chain.increaseTime(RELEASE_DELAY);
    await until(async () => (await mission(m.id)).payout_status === "confirmed", { mine: 1, advanceMs: WATCH_MS });
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
    expect(await chain.releasedLogs(key)).toBe(1);
    const admin = await t.call("GET", `/admin/payouts`, { token: ADMIN_TOKEN });
    expect(admin.body.payouts.find((x: { mission_id: string }) => x.mission_id === m.id)).toMatchObject({
      release_path: "delayed",
      step: "execute",
      proposal_tx_hash: p.proposalTxHash,
    });
  });

  it("(c) a guardian's cancel leaves the payout waiting (no refund); the operator's retry pays after a new window", async () => {
    const { creator, m, key, winner, subId } = await missionWithSubmission();
    await awardUnsigned(t, { token: creator.token, missionId: m.id, subId });
    const first = await untilProposed(m.id);
    await sendAs(chain.guardian, "cancelRelease", [key, creator.address as Hex]);
    await until(async () => (await payoutOf(m.id)).reason === "waiting:release_cancelled", { advanceMs: WATCH_MS });
    const parked = await payoutOf(m.id);
    expect(parked).toMatchObject({ state: "queued", step: "propose", nextCheckAt: null });
    expect((await mission(m.id)).payout_status).toBe("queued");
    expect((await eventsOf(m.id)).map((e) => e.type)).toContain("payout.cancelled");
    const treasury = await t.call("GET", "/treasury", { token: ADMIN_TOKEN });
    expect(treasury.body.base_rail.pending_settlements.items).toContainEqual(
      expect.objectContaining({ id: parked.id, reason: "waiting:release_cancelled", release_path: "delayed" }),
    );
    // Waiting, not refunded: later rounds (even past the old window) move nothing.
    await chain.increaseTime(RELEASE_DELAY);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(WATCH_MS);
      await tick();
    }
    expect(await chain.usdcBalance(creator.address)).toBe(0n);
    expect(await chain.usdcBalance(winner.address)).toBe(0n);
    expect((await payoutOf(m.id)).reason).toBe("waiting:release_cancelled");

    const retry = await t.call("POST", `/admin/payouts/${parked.id}/retry`, {
      token: ADMIN_TOKEN,
      body: { reason: "guardian cancel reviewed" },
    });
    expect(retry.status, retry.text).toBe(200);
    const second = await untilProposed(m.id);
    expect(second.proposalTxHash).not.toBe(first.proposalTxHash);
    expect(await chain.usdcBalance(winner.address)).toBe(0n);
    await chain.increaseTime(RELEASE_DELAY);
    await until(async () => (await mission(m.id)).payout_status === "confirmed", { mine: 1, advanceMs: WATCH_MS });
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
    expect(await chain.usdcBalance(creator.address)).toBe(0n);
    expect(await chain.releasedLogs(key)).toBe(1);
  });

  it("(d) the resolver key alone cannot pay a creator_judges slot to an address the creator did not sign for before the window", async () => {
    const { creator, m, key, winner, subId } = await missionWithSubmission();
    const attacker = await signIn(t);
    const body = { winners: [{ submission_id: subId }] };
    const typed = await t.call("POST", `/missions/${m.id}/award/typed-data`, { token: creator.token, body });
    const release = (typed.body.releases as TypedRelease[])[0]!;
    const sig = await signTyped(creator.account, release);
    // A signature over another plan (the attacker as recipient) is refused by the server: 422.
    const forged = await signTyped(creator.account, {
      ...release,
      typed_data: { ...release.typed_data, message: { ...release.typed_data.message, recipients: [attacker.address] } },
    });
    const refused = await t.call("POST", `/missions/${m.id}/award`, {
      token: creator.token,
      body: { ...body, release_signatures: { [key]: forged } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: "UNPROCESSABLE", details: { reason: "bad_release_signature" } });
    expect(
      (
        await t.call("POST", `/missions/${m.id}/award`, {
          token: creator.token,
          body: { ...body, release_signatures: { [key]: sig } },
        })
      ).status,
    ).toBe(200);

    // The worker's own key, redirected: the payout row now names the attacker (a compromised
    // database or process) but keeps the creator's signature.
    await t.deps.database.db
      .update(chainPayouts)
      .set({
        recipients: [{ address: attacker.address, amount: (REWARD - FEE).toString(), submission_id: subId }],
      })
      .where(eq(chainPayouts.missionId, m.id));
    // The row no longer matches the server's signed decision (docs/custody.md): the worker refuses
    // it before signing anything — no releaseSigned, and no fallback to the delayed path.
    await tick();
    expect(await payoutOf(m.id)).toMatchObject({ state: "failed", reason: "decision_refused:decision_plan_mismatch" });
    // The resolver key itself, used directly, cannot pay the attacker either: the creator's
    // signature does not cover the attacker, and a proposal waits the window.
    const resolver = chain.wallet(chain.resolver);
    const direct = resolver.writeContract({
      address: chain.escrow,
      abi: missionEscrowAbi,
      functionName: "releaseSigned",
      args: [
        key,
        creator.address as Hex,
        [attacker.address as Hex],
        [REWARD - FEE],
        FEE,
        { deadline: BigInt(release.typed_data.message.deadline!), signature: sig },
      ],
      chain: chain.anvil.chain,
      account: chain.resolver,
    });
    await expect(direct).rejects.toThrow(/BadFunderSignature/);
    const early = resolver.writeContract({
      address: chain.escrow,
      abi: missionEscrowAbi,
      functionName: "executeRelease",
      args: [key, creator.address as Hex, [attacker.address as Hex], [REWARD - FEE], FEE],
      chain: chain.anvil.chain,
      account: chain.resolver,
    });
    // Nothing was proposed for it (a proposal by the key itself waits the window and raises a
    // custody alert: test/escrow/escrow-custody.e2e.test.ts).
    await expect(early).rejects.toThrow(/NoProposal/);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(WATCH_MS);
      await tick();
      await chain.mine(1);
    }
    expect(await chain.usdcBalance(attacker.address)).toBe(0n);
    expect(await chain.usdcBalance(winner.address)).toBe(0n);
    expect(await chain.releasedLogs(key)).toBe(0);
  });

  it("(f) a proposal of this payout's plan already on chain is adopted, not sent again; an execution by anyone else is adopted", async () => {
    const { creator, m, key, winner, subId } = await missionWithSubmission();
    await awardUnsigned(t, { token: creator.token, missionId: m.id, subId });
    const queued = await payoutOf(m.id);
    const args = [
      key,
      creator.address as Hex,
      queued.recipients.map((r) => r.address as Hex),
      queued.recipients.map((r) => BigInt(r.amount)),
      BigInt(queued.fee),
    ] as const;
    // The same plan proposed outside this database (e.g. before a restore from backup).
    await sendAs(chain.resolver, "proposeRelease", args);
    await tick();
    const adopted = await payoutOf(m.id);
    expect(adopted).toMatchObject({ step: "execute", state: "queued", rawTx: null });
    expect(adopted.attempts).toHaveLength(0); // nothing signed by the worker
    // After the window a stranger executes it (anyone may): the worker adopts that Released.
    await chain.increaseTime(RELEASE_DELAY);
    const stranger = chain.wallet(chain.guardian);
    const executed = await stranger.writeContract({
      address: chain.escrow,
      abi: missionEscrowAbi,
      functionName: "executeRelease",
      args,
      chain: chain.anvil.chain,
      account: chain.guardian,
    });
    await chain.anvil.publicClient.waitForTransactionReceipt({ hash: executed });
    await until(async () => (await mission(m.id)).payout_status === "confirmed", { mine: 1, advanceMs: WATCH_MS });
    const done = await payoutOf(m.id);
    expect(done.attempts).toHaveLength(0);
    expect(done.minedTxHash).toBe(executed.toLowerCase()); // the stranger's transaction, adopted
    expect(await chain.releasedLogs(key)).toBe(1);
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
  });

  // Last in the file: the cap it lowers cannot be raised again (contract v3).
  it("(e) a pause and an exhausted cap are waits, never failures", async () => {
    const { creator, m, key, winner, subId } = await missionWithSubmission();
    const asGuardian = (functionName: "pause" | "unpause") => sendAs(chain.guardian, functionName, []);
    await asGuardian("pause");
    await awardUnsigned(t, { token: creator.token, missionId: m.id, subId });
    await tick();
    const paused = await payoutOf(m.id);
    expect(paused).toMatchObject({ state: "queued", reason: "waiting:paused", rawTx: null });
    expect(paused.nextCheckAt!.getTime()).toBeGreaterThan(t.clock.now().getTime());
    await asGuardian("unpause");
    // The cap of the delayed path is lowered below this release (admin, only ever downward).
    await chain.anvil.publicClient.waitForTransactionReceipt({
      hash: await chain.anvil.walletClient.writeContract({
        address: chain.escrow,
        abi: missionEscrowAbi,
        functionName: "lowerReleaseCap",
        args: [chain.usdc, REWARD / 2n],
      }),
    });
    await until(async () => (await payoutOf(m.id)).step === "execute", {
      mine: 1,
      advanceMs: 10 * 60_000, // past the pause's backoff
    });
    await chain.increaseTime(RELEASE_DELAY);
    await until(async () => (await payoutOf(m.id)).reason === "waiting:CapExceeded", { mine: 1, advanceMs: WATCH_MS });
    const capped = await payoutOf(m.id);
    expect(capped.state).toBe("queued");
    // Backing off on its own row, still waiting (not failed) after more rounds.
    for (let i = 0; i < 3; i++) {
      t.clock.advance(capped.nextCheckAt!.getTime() - t.clock.now().getTime());
      await tick();
    }
    expect(await payoutOf(m.id)).toMatchObject({ state: "queued", reason: "waiting:CapExceeded" });
    expect((await payoutOf(m.id)).retries).toBeGreaterThan(1);
    expect(await chain.usdcBalance(winner.address)).toBe(0n);
    expect(await chain.releasedLogs(key)).toBe(0);
  });
});
