import { describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { credit, openMission } from "../helpers/agents";
import { submittedAndAwarded } from "../helpers/mission-flow";
import { useTestApp } from "../helpers/suite-app";
import { DAY, NET, REWARD, appealFixture } from "./appeal-fixture";

// Appeals of a creator_judges award through HTTP, second part (the first: appeal.int.test.ts):
// a quorum of disputes puts the award to a peer vote, which overturns it or, tied, keeps it; an
// award in the judging window; concurrency; missions without an appeal.
const t = useTestApp();
const { balance, treasury, mission, subsOf, votesOf, again, appealMission, staker, stake, sweepAt } = appealFixture(t);

describe("creator_judges with an appeal: the peer vote", () => {
  it("disputes reaching the quorum put the award to a peer vote, which overturns it", async () => {
    const { creator, mission: m, subs } = await appealMission();
    const treasuryBefore = await treasury();
    const r = await t.call("POST", `/missions/${m.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: subs[0]!.sub.id }] },
    });
    expect(r.status, r.text).toBe(200);
    const d1 = await staker(600n);
    const d2 = await staker(500n);
    expect((await stake(m.id, d1, subs[1]!.sub.id, "600")).status).toBe(201);
    expect((await stake(m.id, d2, subs[1]!.sub.id, "500")).status).toBe(201);
    const closedAt = new Date(r.body.award.appeal_deadline);
    expect(await sweepAt(closedAt)).toBe(1);
    const votingDeadline = new Date(closedAt.getTime() + DAY).toISOString();
    expect(await mission(m.id)).toMatchObject({
      status: "escrowed",
      phase: "voting",
      payout_status: "queued",
      resolution: null,
      award: { voting_deadline: votingDeadline, dispute_stake: "1100", outcome: null },
    });
    expect(await balance(subs[0]!.address)).toBe(0n);
    expect(await balance(subs[1]!.address)).toBe(0n);
    // the vote: the award may now be defended; disputers already voted; parties still excluded
    const v3 = await staker(400n);
    const v4 = await staker(100n);
    expect((await stake(m.id, v3, subs[0]!.sub.id, "400")).status).toBe(201);
    expect((await stake(m.id, v4, subs[2]!.sub.id, "100")).status).toBe(201);
    const d1b = await again(d1);
    expect((await stake(m.id, d1b, subs[2]!.sub.id, "100")).body.details.reason).toBe("already_voted");
    const winner = await again(subs[0]!);
    await credit(t, winner.address, 100n);
    expect((await stake(m.id, winner, subs[2]!.sub.id, "100")).body.details.reason).toBe("awarded_winner");
    expect((await stake(m.id, await again(creator), subs[0]!.sub.id, "100")).body.details.reason).toBe("creator_vote");
    expect(await sweepAt(new Date(new Date(votingDeadline).getTime() - 1))).toBe(0);
    expect(await balance(subs[1]!.address)).toBe(0n);
    // tally: sub1 1100 > award 400 > sub2 100 → overturned; losers slashed 10 % (40 + 10 = 50)
    expect(await sweepAt(votingDeadline)).toBe(1);
    expect(await mission(m.id)).toMatchObject({
      status: "resolved",
      payout_status: "confirmed",
      resolution_reason: "creator_award_overturned",
      resolution: { winner_submission_id: subs[1]!.sub.id, winner_agent_id: subs[1]!.address },
      award: { outcome: "overturned" },
    });
    expect(await balance(subs[1]!.address)).toBe(NET);
    expect(await balance(subs[0]!.address)).toBe(100n); // the credit above, no reward
    expect((await treasury()) - treasuryBefore).toBe(500_000n);
    // slashed pool 50 → d1 floor(50·600/1100) = 27 + dust 1, d2 floor(50·500/1100) = 22
    expect(await balance(d1.address)).toBe(628n);
    expect(await balance(d2.address)).toBe(522n);
    expect(await balance(v3.address)).toBe(360n);
    expect(await balance(v4.address)).toBe(90n);
    expect((await subsOf(m.id)).map((s) => [s.status, s.reason])).toEqual([
      ["rejected", "award_overturned"],
      ["accepted", "appeal_winner"],
      ["rejected", "not_selected"],
    ]);
    expect((await votesOf(m.id)).map((v) => v.outcome)).toEqual(["won", "won", "lost", "lost"]);
    expect(await sweepDueMissions(t.deps)).toBe(0);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("a vote that ties keeps the award: paid as awarded, the challengers' slash goes to its defenders", async () => {
    const { creator, mission: m, subs } = await appealMission();
    const r = await t.call("POST", `/missions/${m.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: subs[2]!.sub.id }] },
    });
    const d1 = await staker(1000n);
    expect((await stake(m.id, d1, subs[0]!.sub.id, "1000")).status).toBe(201);
    await sweepAt(r.body.award.appeal_deadline);
    expect(await mission(m.id)).toMatchObject({ status: "escrowed", phase: "voting" });
    const v = await staker(1000n);
    expect((await stake(m.id, v, subs[2]!.sub.id, "1000")).status).toBe(201);
    await sweepAt((await mission(m.id)).award.voting_deadline);
    expect(await mission(m.id)).toMatchObject({
      status: "resolved",
      resolution_reason: "creator_award_upheld",
      resolution: { winner_submission_id: subs[2]!.sub.id },
      award: { outcome: "upheld" },
    });
    expect(await balance(subs[2]!.address)).toBe(NET);
    expect(await balance(subs[0]!.address)).toBe(0n);
    expect(await balance(d1.address)).toBe(900n);
    expect(await balance(v.address)).toBe(1100n);
    expect((await subsOf(m.id)).map((s) => s.reason)).toEqual(["not_selected", "not_selected", "selected_by_creator"]);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("an award inside the judging window opens the appeal the same way; a never-judged mission keeps its default policy", async () => {
    const { creator, mission: m, subs } = await appealMission({}, 2);
    await sweepAt(new Date(new Date(m.deadline).getTime() + 1000));
    expect(await mission(m.id)).toMatchObject({ status: "escrowed", phase: "judging" });
    const r = await t.call("POST", `/missions/${m.id}/award`, {
      token: (await again(creator)).token,
      body: { winners: [{ submission_id: subs[0]!.sub.id }] },
    });
    expect(r.body).toMatchObject({ status: "escrowed", phase: "appeal", payout_status: "queued" });
    expect(r.body.award.appeal_deadline).toBe(new Date(t.clock.now().getTime() + DAY).toISOString());
    await sweepAt(r.body.award.appeal_deadline);
    expect(await mission(m.id)).toMatchObject({ status: "resolved", resolution_reason: "creator_award" });
    expect(await balance(subs[0]!.address)).toBe(NET);

    const other = await appealMission({}, 2);
    await sweepAt(new Date(new Date(other.mission.deadline).getTime() + 1000));
    await sweepAt(new Date(t.clock.now().getTime() + t.deps.config.judgingWindowSeconds * 1000));
    expect(await mission(other.mission.id)).toMatchObject({
      status: "resolved",
      resolution_reason: "default_award_judging_expired",
      award: null,
    });
    // The default outcome (docs/abuse.md): the bounded pool (20 %), fee on the pool, split in two.
    const pool = REWARD / 5n;
    for (const s of other.subs) expect(await balance(s.address)).toBe((pool - pool / 200n) / 2n);
  });

  it("concurrent awards record one award; concurrent disputes are all held, then all refunded", async () => {
    const { creator, mission: m, subs } = await appealMission({}, 3);
    const awards = await Promise.all(
      subs.map((s) =>
        t.call("POST", `/missions/${m.id}/award`, {
          token: creator.token,
          body: { winners: [{ submission_id: s.sub.id }] },
        }),
      ),
    );
    expect(awards.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const recorded = (await mission(m.id)).award.winners;
    expect(recorded).toHaveLength(1);
    const target = subs.find((s) => s.sub.id !== recorded[0].submission_id)!;
    const disputers = await Promise.all(Array.from({ length: 8 }, () => staker(100n)));
    const staked = await Promise.all(disputers.map((d) => stake(m.id, d, target.sub.id, "100")));
    expect(staked.map((r) => r.status)).toEqual(Array(8).fill(201));
    await sweepAt((await mission(m.id)).award.appeal_deadline);
    expect(await mission(m.id)).toMatchObject({
      status: "resolved",
      resolution_reason: "creator_award",
      award: { dispute_stake: "800" },
    });
    for (const d of disputers) expect(await balance(d.address)).toBe(100n);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("missions without an appeal are unchanged: the award pays at once and cannot be disputed", async () => {
    const { creator, mission: m } = await openMission(t);
    const { solver: a, sub: s, award: r } = await submittedAndAwarded(t, m.id, creator, "the only answer");
    expect(r.body).toMatchObject({
      status: "resolved",
      payout_status: "confirmed",
      resolution_reason: "creator_award",
      award: null,
    });
    expect(await balance(a.address)).toBe(NET);
    const d = await staker(100n);
    const v = await stake(m.id, d, s.id, "100");
    expect([v.status, v.body.error, v.body.details?.reason]).toEqual([409, "CONFLICT", "wrong_verification_type"]);
  });
});
