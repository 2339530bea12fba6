import { describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { credit, openMission, signIn } from "../helpers/agents";
import { peerVote } from "../helpers/peer-vote";
import { useTestApp } from "../helpers/suite-app";

// peer_vote end to end through HTTP (AIP-1 §4.3): submit → deadline → stake votes → voting
// deadline → tally: winner paid, losing voters slashed to winning voters, every unit accounted.
const t = useTestApp();

const DAY = 86_400_000;
const balance = async (address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);

async function votingMission(quorum = "1000") {
  const deadline = new Date(t.clock.now().getTime() + DAY);
  const { creator, mission } = await openMission(t, peerVote(deadline, { minVote: "100", quorum, reward: "10000000" }));
  const subs = [];
  for (const text of ["first answer", "second answer"]) {
    const a = await signIn(t);
    const r = await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content: text } });
    expect(r.body).toMatchObject({ status: "pending", reason: "awaiting_votes" });
    subs.push({ ...a, sub: r.body });
  }
  return { creator, mission, subs, deadline };
}

async function voter(stake: bigint) {
  const v = await signIn(t);
  await credit(t, v.address, stake);
  return v;
}

describe("peer_vote", () => {
  it("voting opens at the deadline; the most-staked submission wins; stakes settle exactly", async () => {
    const { creator, mission, subs, deadline } = await votingMission();
    const vote = (v: { token: string }, sub: { id: string }, amount: string) =>
      t.call("POST", `/missions/${mission.id}/votes`, { token: v.token, body: { submission_id: sub.id, amount } });
    expect((await vote(await voter(600n), subs[0]!.sub, "600")).body.error).toBe("MISSION_NOT_OPEN"); // before the deadline
    t.clock.set(new Date(deadline.getTime() + 1000));
    // sessions last 24 h: the voters sign in after the clock moved
    const v1 = await voter(600n);
    const v2 = await voter(500n);
    const v3 = await voter(400n);
    await sweepDueMissions(t.deps);
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
      status: "escrowed",
      phase: "voting",
    });
    // deliverables are readable by voters during the vote
    // Visible to voters now; a list links inline deliverables to their content route (docs/abuse.md).
    expect((await t.call("GET", `/missions/${mission.id}/submissions`)).body.submissions[0].content_uri).toMatch(
      /\/submissions\/sub_[0-9A-Z]+\/content$/,
    );
    expect((await t.call("GET", `/missions/${mission.id}/submissions/${subs[0]!.sub.id}`)).body.content_uri).toMatch(
      /^data:/,
    );
    // refusals: creator, own submission, below min_vote, anonymous, twice
    const creatorToken = (await signIn(t, creator.account)).token;
    expect(
      (
        await t.call("POST", `/missions/${mission.id}/votes`, {
          token: creatorToken,
          body: { submission_id: subs[0]!.sub.id, amount: "100" },
        })
      ).status,
    ).toBe(403);
    await credit(t, subs[0]!.address, 1000n);
    const own = await t.call("POST", `/missions/${mission.id}/votes`, {
      token: (await signIn(t, subs[0]!.account)).token,
      body: { submission_id: subs[0]!.sub.id, amount: "100" },
    });
    expect(own.body.details.reason).toBe("own_submission");
    expect((await vote(v1, subs[0]!.sub, "99")).body.details.reason).toBe("below_min_vote");
    const anon = await t.call("POST", `/missions/${mission.id}/votes`, {
      body: { submission_id: subs[0]!.sub.id, amount: "100" },
    });
    expect(anon.status).toBe(403);
    expect(anon.body).toEqual({ error: "ANONYMOUS_SUBMISSION_REJECTED" });
    expect((await vote(v1, subs[1]!.sub, "600")).status).toBe(201);
    expect((await vote(v1, subs[0]!.sub, "100")).body.error).toBe("CONFLICT"); // one vote per voter
    expect((await vote(v2, subs[0]!.sub, "500")).status).toBe(201);
    expect((await vote(v3, subs[0]!.sub, "400")).status).toBe(201);
    expect(await balance(v1.address)).toBe(0n);
    // tally at the voting deadline: sub0 has 900 vs 600 → sub0 wins; v1 slashed 10 % = 60
    t.clock.advance(DAY);
    await sweepDueMissions(t.deps);
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({
      status: "resolved",
      resolution_reason: "peer_vote",
      resolution: { winner_submission_id: subs[0]!.sub.id },
    });
    expect(await balance(subs[0]!.address)).toBe(1000n + 9_950_000n);
    expect(await balance(v1.address)).toBe(540n);
    expect(await balance(v2.address)).toBe(500n + 33n + 1n); // 60·500/900 = 33, dust 1 to the largest stake
    expect(await balance(v3.address)).toBe(400n + 26n); // 60·400/900 = 26
    const votes = (await t.call("GET", `/missions/${mission.id}/votes`)).body.votes;
    expect(votes.map((v: { outcome: string }) => v.outcome).sort()).toEqual(["lost", "won", "won"]);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
    expect(await sweepDueMissions(t.deps)).toBe(0);
  });

  it("no quorum: every stake back in full; the default outcome pays the bounded pool to the submitters (docs/abuse.md)", async () => {
    const { mission, subs, deadline } = await votingMission("100000");
    t.clock.set(new Date(deadline.getTime() + 1000));
    await sweepDueMissions(t.deps);
    const v = await voter(300n);
    expect(
      (
        await t.call("POST", `/missions/${mission.id}/votes`, {
          token: v.token,
          body: { submission_id: subs[1]!.sub.id, amount: "300" },
        })
      ).status,
    ).toBe(201);
    t.clock.advance(DAY);
    await sweepDueMissions(t.deps);
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
      status: "resolved",
      resolution_reason: "default_award_no_quorum",
    });
    expect(await balance(v.address)).toBe(300n);
    // pool = 20 % of 10 USDC; the fee is taken on the pool only; the creator gets the other 80 %.
    const pool = 2_000_000n;
    const net = pool - 10_000n;
    expect(await balance(subs[0]!.address)).toBe(net / 2n);
    expect(await balance(subs[1]!.address)).toBe(net / 2n);
  });

  it("voided path: no submissions by the deadline → refund, spam fee kept", async () => {
    const deadline = new Date(t.clock.now().getTime() + DAY);
    const { creator, mission } = await openMission(t, peerVote(deadline, { minVote: "1", quorum: "1" }));
    const before = await balance(creator.address);
    t.clock.set(new Date(deadline.getTime() + 1));
    await sweepDueMissions(t.deps);
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
      status: "voided",
      resolution_reason: "expired_without_submissions",
    });
    expect((await balance(creator.address)) - before).toBe(100_000_000n);
  });
});
