import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { makeTestApp, type TestApp } from "../helpers/app";
import { balanceOf, letJudgingExpire, submitAs } from "../helpers/judging";
import { openMission, signIn } from "../helpers/agents";
import { expectEarliestFreshShare } from "../helpers/default-award";

type SignedIn = Awaited<ReturnType<typeof signIn>>;

// docs/abuse.md "Default outcomes": submitters with a track record (a decided win elsewhere) share
// the default pool before free identities, whatever arrived first. The attack: 10 junk submissions
// from fresh identities before one honest one, and the creator never judges. Runs on PGlite and
// Postgres.

const REWARD = 10_000_000n; // 10 USDC
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ OABP_SESSION_TTL_SECONDS: String(30 * 86_400) }); // the clock jumps past deadlines
});
afterAll(async () => t?.close());

describe("the default pool goes to submitters with a track record first", () => {
  it("10 junk before 1 honest: the junk gets nothing (< a tenth), the honest solver the pool", async () => {
    // The honest solver won a mission its creator judged.
    const honest = await signIn(t);
    const earlier = await openMission(t, { reward: { asset: "USDC", amount: REWARD.toString() } });
    const won = await submitAs(t, earlier.mission.id, honest, "earlier honest work");
    const award = await t.call("POST", `/missions/${earlier.mission.id}/award`, {
      token: earlier.creator.token,
      body: { winners: [{ submission_id: won }] },
    });
    expect(award.status, award.text).toBe(200);
    // One junk identity holds a default share from a silent creator: that is no track record.
    const farmer = await signIn(t);
    const silent = await openMission(t, { reward: { asset: "USDC", amount: REWARD.toString() } });
    await submitAs(t, silent.mission.id, farmer, "junk that a silent creator paid");
    await letJudgingExpire(t, silent.mission.deadline);
    const farmed = (await t.call("GET", `/missions/${silent.mission.id}`)).body;
    expect(farmed.resolution_reason).toBe("default_award_judging_expired");
    expect(farmed.resolution.winners.map((w: { agent_id: string }) => w.agent_id)).toEqual([farmer.address]);

    const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount: REWARD.toString() } });
    const junk: SignedIn[] = [farmer];
    for (let i = 1; i < 10; i++) junk.push(await signIn(t));
    for (const [i, j] of junk.entries()) await submitAs(t, mission.id, j, `junk ${i} ${j.address}`);
    const honestSub = await submitAs(t, mission.id, honest, "a careful, honest answer");
    const before = new Map<string, bigint>();
    for (const a of [creator, honest, ...junk]) before.set(a.address, await balanceOf(t, a.address));

    await letJudgingExpire(t, mission.deadline);
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ status: "resolved", resolution_reason: "default_award_judging_expired" });
    expect(m.resolution.winners.map((w: { submission_id: string }) => w.submission_id)).toEqual([honestSub]);
    let junkGain = 0n;
    for (const j of junk) junkGain += (await balanceOf(t, j.address)) - before.get(j.address)!;
    expect(junkGain).toBe(0n);
    expect(junkGain * 10n).toBeLessThan(REWARD);
    const pool = (REWARD * BigInt(t.deps.config.abuse.defaultAwardBps)) / 10_000n;
    const fee = (pool * BigInt(t.deps.config.feeBps)) / 10_000n;
    expect((await balanceOf(t, honest.address)) - before.get(honest.address)!).toBe(pool - fee);
    expect((await balanceOf(t, creator.address)) - before.get(creator.address)!).toBe(REWARD - pool);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("without anyone proven the earliest eligible share as before", async () => {
    const { mission } = await openMission(t, { reward: { asset: "USDC", amount: REWARD.toString() } });
    await expectEarliestFreshShare(t, mission);
  });
});
