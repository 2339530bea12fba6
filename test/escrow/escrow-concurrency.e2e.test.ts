import type { Hex } from "viem";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainPayouts, escrowDeposits } from "../../src/db/schema/index";
import { runPayouts } from "../../src/features/payouts/payouts.worker";
import { watchEscrow } from "../../src/features/deposits/deposits.watcher";
import { makeTestApp, type TestApp } from "../helpers/app";
import { missionBody, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { signedAward } from "../helpers/award-sign";
import { awardUnsigned, openBaseMission, proposalsOf, submitAnswer } from "../helpers/base-rail-mission";
import { POLL_MS, RELEASE_DELAY, startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";

// Two servers on one Postgres and one chain, racing on the same money: concurrent attaches of
// one deposit, concurrent watchers, and concurrent settlement workers on one payout. Exactly one
// deposit row, one signed transaction (one nonce), one release on chain.
describe.runIf(onRealPostgres)("base rail under concurrency (real Postgres)", () => {
  const REWARD = 100_000_000n;
  let chain: EscrowChain;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    chain = await startEscrowChain();
    a = await makeTestApp(chain.env(), { poolMax: 20 });
    b = await makeTestApp(chain.env(), { database: a.db });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await chain?.stop();
  });

  /** A funded mission opened by `a`'s watcher (both servers' clocks one poll interval on), with one submission. */
  async function openWithSubmission() {
    const c = await openBaseMission({ t: a, chain }, { reward: REWARD });
    b.clock.set(a.clock.now());
    return { ...c, ...(await submitAnswer(a, { missionId: c.m.id })) };
  }

  it("20 concurrent attaches of one deposit and two watchers: one deposit, the mission opens once", async () => {
    const creator = await signIn(a);
    const m = (
      await a.call("POST", "/missions", {
        token: creator.token,
        body: missionBody(a, { reward: { asset: "USDC", amount: REWARD.toString(), chain: "base" } }),
      })
    ).body;
    const hash = await chain.fund(creator.account, m.escrow.mission_key as Hex, REWARD, 5_000_000n);
    await chain.mine(2);
    const results = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).call("POST", `/missions/${m.id}/escrow`, { token: creator.token, body: { tx_hash: hash } }),
      ),
      watchEscrow(a.deps).then(() => null),
      watchEscrow(b.deps).then(() => null),
    ]);
    for (const r of results) if (r) expect(r.status, r.text).toBe(200);
    const rows = await a.deps.database.db.select().from(escrowDeposits).where(eq(escrowDeposits.missionId, m.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "confirmed", txHash: hash.toLowerCase() });
    expect((await a.call("GET", `/missions/${m.id}`)).body.status).toBe("open");
  });

  it("two settlement workers racing on one release sign once and pay once", async () => {
    const { creator, m, key, winner, subId } = await openWithSubmission();
    // Signed by the creator: one transaction (releaseSigned, docs/base-rail.md "Release paths").
    expect((await signedAward(a, creator, m.id, { winners: [{ submission_id: subId }] })).award.status).toBe(200);

    await Promise.all([runPayouts(a.deps), runPayouts(b.deps), runPayouts(a.deps), runPayouts(b.deps)]);
    const [p] = await a.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, m.id));
    expect(p!.attempts).toHaveLength(1); // one signature, one nonce
    await chain.mine(2);
    a.clock.advance(POLL_MS); // the next poll: the payout is due again, the heads are read anew
    b.clock.advance(POLL_MS);
    await Promise.all([runPayouts(a.deps), runPayouts(b.deps)]);
    expect((await a.call("GET", `/missions/${m.id}`)).body.payout_status).toBe("confirmed");
    expect(await chain.releasedLogs(key)).toBe(1);
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - (REWARD * 50n) / 10_000n);
  });

  it("two settlement workers racing on a delayed release propose once, execute once and pay once", async () => {
    const { creator, m, key, winner, subId } = await openWithSubmission();
    await awardUnsigned(a, { token: creator.token, missionId: m.id, subId });
    const row = async () =>
      (await a.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, m.id)))[0]!;
    const race = async (advanceMs: number) => {
      a.clock.advance(advanceMs);
      b.clock.set(a.clock.now());
      await Promise.all([runPayouts(a.deps), runPayouts(b.deps), runPayouts(a.deps), runPayouts(b.deps)]);
    };
    await race(0);
    expect((await row()).attempts).toHaveLength(1); // one proposal signed, one nonce
    for (let i = 0; i < 5 && (await row()).step !== "execute"; i++) {
      await chain.mine(2);
      await race(POLL_MS);
    }
    expect(await row()).toMatchObject({ step: "execute", state: "queued" });
    await chain.increaseTime(RELEASE_DELAY);
    await race(15 * POLL_MS);
    expect((await row()).attempts).toHaveLength(2); // …and one execution
    for (let i = 0; i < 5 && (await a.call("GET", `/missions/${m.id}`)).body.payout_status !== "confirmed"; i++) {
      await chain.mine(2);
      await race(POLL_MS);
    }
    expect((await a.call("GET", `/missions/${m.id}`)).body.payout_status).toBe("confirmed");
    expect(await proposalsOf(chain, key)).toHaveLength(1);
    expect(await chain.releasedLogs(key)).toBe(1);
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - (REWARD * 50n) / 10_000n);
  });
});
