import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { makeTestApp, type TestApp } from "../helpers/app";
import { balanceOf, letJudgingExpire, submitAs } from "../helpers/judging";
import { credit, missionBody, signIn } from "../helpers/agents";
import { awardedTo } from "../helpers/mission-flow";
import { expectEarliestFreshShare } from "../helpers/default-award";

type SignedIn = Awaited<ReturnType<typeof signIn>>;

// docs/abuse.md "Default outcomes": when nobody in the default pool has a track record, verified
// work from an identity seen well before the mission still comes before free identities minted for
// it, and identities the creator paid before are not trusted for its silent missions. The attack:
// 30 fresh identities submit distinct junk early, a copy of the honest answer arrives from one more,
// the creator's own earlier-paid identity (seen long before) submits too; one honest solver, seen
// before the mission was posted, submits last; the creator never judges. No one has a decided win
// on another creator's mission. Runs on PGlite and Postgres.

const REWARD = 10_000_000n; // 10 USDC
const DAY = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ OABP_SESSION_TTL_SECONDS: String(30 * 86_400) }); // the clock jumps days
});
afterAll(async () => t?.close());

async function open(creator: SignedIn) {
  const r = await t.call("POST", "/missions", {
    token: creator.token,
    body: missionBody(t, { reward: { asset: "USDC", amount: REWARD.toString() } }),
  });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; deadline: string };
}

describe("fresh identities' junk early, one honest solver late, nobody proven", () => {
  it("the junk together gets less than a tenth of the pool (here 0), the honest solver the rest", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    // The creator pays an identity of its own on an earlier mission (a decided award).
    const own = await signIn(t);
    const earlier = await open(creator);
    const ownWin = await submitAs(t, earlier.id, own, "the creator's own identity");
    await awardedTo(t, earlier.id, creator, ownWin);
    // The honest solver signs in (is first seen) days before the mission is posted.
    const honest = await signIn(t);
    t.clock.advance(2 * DAY);
    const mission = await open(creator);

    const answer = "a careful, honest answer";
    const junk: SignedIn[] = [own];
    for (let i = 0; i < 31; i++) junk.push(await signIn(t));
    await submitAs(t, mission.id, own, "junk from the creator's own identity");
    for (const [i, j] of junk.slice(1, 31).entries()) await submitAs(t, mission.id, j, `junk ${i} ${j.address}`);
    const before = new Map<string, bigint>();
    for (const a of [creator, honest, ...junk]) before.set(a.address, await balanceOf(t, a.address));
    const honestSub = await submitAs(t, mission.id, honest, answer);
    // A fresh identity copies the honest answer once it is in (distinct content is what earns).
    await submitAs(t, mission.id, junk[31]!, answer);

    await letJudgingExpire(t, mission.deadline);
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ status: "resolved", resolution_reason: "default_award_judging_expired" });
    expect(m.resolution.winners.map((w: { submission_id: string }) => w.submission_id)).toEqual([honestSub]);
    const pool = (REWARD * BigInt(t.deps.config.abuse.defaultAwardBps)) / 10_000n;
    const fee = (pool * BigInt(t.deps.config.feeBps)) / 10_000n;
    let junkGain = 0n;
    for (const j of junk) junkGain += (await balanceOf(t, j.address)) - before.get(j.address)!;
    expect(junkGain * 10n).toBeLessThan(pool);
    expect(junkGain).toBe(0n);
    expect((await balanceOf(t, honest.address)) - before.get(honest.address)!).toBe(pool - fee);
    expect((await balanceOf(t, creator.address)) - before.get(creator.address)!).toBe(REWARD - pool);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("an honest solver first seen after the mission was posted is not told apart: the earliest share", async () => {
    // The known limit (docs/abuse.md "Default outcomes"): with no track record and no age, the
    // arrival order decides, as before.
    const creator = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    const mission = await open(creator);
    await expectEarliestFreshShare(t, mission);
  });
});
