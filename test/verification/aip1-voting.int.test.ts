import { describe, expect, it } from "vitest";
import { credit, openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { peerVote } from "../helpers/peer-vote";
import { useTestApp } from "../helpers/suite-app";

// — AIP-1 §4.3: "Other agents stake reputation tokens to vote on submissions.
// Submission with most votes after a voting_deadline wins." Voting is the window between the
// deadline and voting_deadline: votes are accepted from the instant the deadline passes (the
// phase follows time, not the next job tick). No sweeper runs in this file.

const t = useTestApp();

const DAY = 86_400_000;

async function votingMission() {
  const deadline = new Date(t.clock.now().getTime() + DAY);
  const { mission } = await openMission(t, peerVote(deadline, { minVote: "100", quorum: "100", reward: "10000000" }));
  const subs: string[] = [];
  for (const content of ["first answer", "second answer"]) {
    const a = await signIn(t);
    subs.push(
      (await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content } })).body.id,
    );
  }
  return { mission, subs, deadline };
}

/** A signed-in agent holding 1000 reputation tokens to stake. */
async function voter() {
  const v = await signIn(t);
  await credit(t, v.address, 1000n);
  return v;
}

const vote = (missionId: string, token: string, submissionId: string | undefined, amount = "100") =>
  t.call("POST", `/missions/${missionId}/votes`, { token, body: { submission_id: submissionId, amount } });

describe("AIP-1 §4.3 votes from the instant the deadline passes", () => {
  it("one millisecond before the deadline a vote is refused; at the deadline itself it is accepted, without a sweep", async () => {
    const { mission, subs, deadline } = await votingMission();
    t.clock.set(new Date(deadline.getTime() - 1));
    const early = await voter();
    expectError(await vote(mission.id, early.token, subs[0]), 409, "MISSION_NOT_OPEN");
    t.clock.set(deadline); // the instant the deadline passes; the sweeper has not run
    const v = await voter();
    const r = await vote(mission.id, v.token, subs[1], "300");
    expect(r.status, r.text).toBe(201);
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
      status: "escrowed",
      phase: "voting",
    });
    // and submissions are closed at that same instant
    const late = await signIn(t);
    expectError(
      await t.call("POST", `/missions/${mission.id}/submissions`, { token: late.token, body: { content: "too late" } }),
      409,
      "MISSION_NOT_OPEN",
    );
    // a second vote finds the phase already open (nothing closed twice)
    const w = await voter();
    expect((await vote(mission.id, w.token, subs[0])).status).toBe(201);
  });

  it("concurrent first votes at the deadline both land; the mission is closed once", async () => {
    const { mission, subs, deadline } = await votingMission();
    t.clock.set(new Date(deadline.getTime() + 5));
    const voters = await Promise.all([0, 1, 2].map(() => voter()));
    const rs = await Promise.all(voters.map((v, i) => vote(mission.id, v.token, subs[i % 2])));
    expect(rs.map((r) => r.status)).toEqual([201, 201, 201]);
    const votes = await t.call("GET", `/missions/${mission.id}/votes`);
    expect(votes.body.votes).toHaveLength(3);
  });
});

// — AIP-1 Security Considerations: "Reward griefing: creators using creator_judges
// could refuse to award legitimate submissions. Implementations SHOULD allow peer_vote appeals after
// a creator_judges resolution if a quorum of voters dispute." — without the creator opting in.
describe("creator_judges awards are disputable by default; the opt-out shows on the mission", () => {
  const p = useTestApp({ OABP_APPEAL_DEFAULT: "on", OABP_APPEAL_WINDOW_SECONDS: "3600" });

  async function judged(params: Record<string, unknown>) {
    const { creator, mission } = await openMission(p, {
      reward: { asset: "USDC", amount: "10000000" },
      verification: { type: "creator_judges", params },
    });
    const subs: { id: string; address: string }[] = [];
    for (const content of ["a", "b"]) {
      const a = await signIn(p);
      subs.push({
        id: (await p.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content } })).body
          .id,
        address: a.address,
      });
    }
    return { creator, mission, subs };
  }

  it("with no appeal param the mission carries the documented default window and stakes; a quorum of disputes puts the award to a vote", async () => {
    const { sweepDueMissions } = await import("../../src/jobs/sweeper");
    const { creator, mission, subs } = await judged({});
    expect(mission.verification.params.appeal).toEqual({
      appeal_window_seconds: 3600,
      vote_token: "USDC",
      min_vote: "100000",
      quorum: "1000000",
      default: true,
    });
    const r = await p.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: subs[0]!.id }] },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: "escrowed", phase: "appeal", payout_status: "queued" });
    const appealDeadline = r.body.award.appeal_deadline;
    expect(Date.parse(appealDeadline) - Date.parse(r.body.award.awarded_at)).toBe(3600 * 1000);
    // A quorum (10 % of the reward) disputes for the other submission.
    const v = await signIn(p);
    await credit(p, v.address, 2_000_000n);
    const d = await p.call("POST", `/missions/${mission.id}/votes`, {
      token: v.token,
      body: { submission_id: subs[1]!.id, amount: "1000000" },
    });
    expect(d.status, d.text).toBe(201);
    p.clock.set(new Date(appealDeadline));
    expect(await sweepDueMissions(p.deps)).toBe(1);
    expect((await p.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
      status: "escrowed",
      phase: "voting",
      award: { dispute_stake: "1000000" },
    });
  });

  it("appeal: false opts out: the mission shows it and the award pays at once", async () => {
    const { creator, mission, subs } = await judged({ appeal: false });
    expect(mission.verification.params.appeal).toBe(false);
    expect((await p.call("GET", `/missions/${mission.id}`)).body.verification.params.appeal).toBe(false);
    const r = await p.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: subs[0]!.id }] },
    });
    expect(r.body).toMatchObject({ status: "resolved", resolution_reason: "creator_award" });
  });

  it("a bad appeal value is a clear 400", async () => {
    const c = await signIn(p);
    await credit(p, c.address, 1_000_000_000n);
    const { missionBody } = await import("../helpers/agents");
    expectError(
      await p.call("POST", "/missions", {
        token: c.token,
        body: missionBody(p, { verification: { type: "creator_judges", params: { appeal: true } } }),
      }),
      400,
      "INVALID_PARAMETER",
    );
  });
});
