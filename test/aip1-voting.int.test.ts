import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestApp, type TestApp } from "./helpers/app";
import { credit, openMission, signIn } from "./helpers/agents";
import { expectError } from "./helpers/errors";

// Issue 15 item 5 — AIP-1 §4.3: "Other agents stake reputation tokens to vote on submissions.
// Submission with most votes after a voting_deadline wins." Voting is the window between the
// deadline and voting_deadline: votes are accepted from the instant the deadline passes (the
// phase follows time, not the next job tick). No sweeper runs in this file.

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t?.close());

const DAY = 86_400_000;

async function votingMission() {
  const deadline = new Date(t.clock.now().getTime() + DAY);
  const { mission } = await openMission(t, {
    deadline: deadline.toISOString(),
    reward: { asset: "USDC", amount: "10000000" },
    verification: { type: "peer_vote", params: { voting_deadline: new Date(deadline.getTime() + DAY).toISOString(), vote_token: "USDC", min_vote: "100", quorum: "100" } },
  });
  const subs: string[] = [];
  for (const content of ["first answer", "second answer"]) {
    const a = await signIn(t);
    subs.push((await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content } })).body.id);
  }
  return { mission, subs, deadline };
}

describe("item 5 — AIP-1 §4.3 votes from the instant the deadline passes", () => {
  it("one millisecond before the deadline a vote is refused; at the deadline itself it is accepted, without a sweep", async () => {
    const { mission, subs, deadline } = await votingMission();
    t.clock.set(new Date(deadline.getTime() - 1));
    const early = await signIn(t);
    await credit(t, early.address, 1000n);
    expectError(await t.call("POST", `/missions/${mission.id}/votes`, { token: early.token, body: { submission_id: subs[0], amount: "100" } }), 409, "MISSION_NOT_OPEN");
    t.clock.set(deadline); // the instant the deadline passes; the sweeper has not run
    const v = await signIn(t);
    await credit(t, v.address, 1000n);
    const r = await t.call("POST", `/missions/${mission.id}/votes`, { token: v.token, body: { submission_id: subs[1], amount: "300" } });
    expect(r.status, r.text).toBe(201);
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({ status: "escrowed", phase: "voting" });
    // and submissions are closed at that same instant
    const late = await signIn(t);
    expectError(await t.call("POST", `/missions/${mission.id}/submissions`, { token: late.token, body: { content: "too late" } }), 409, "MISSION_NOT_OPEN");
    // a second vote finds the phase already open (nothing closed twice)
    const w = await signIn(t);
    await credit(t, w.address, 1000n);
    expect((await t.call("POST", `/missions/${mission.id}/votes`, { token: w.token, body: { submission_id: subs[0], amount: "100" } })).status).toBe(201);
  });

  it("concurrent first votes at the deadline both land; the mission is closed once", async () => {
    const { mission, subs, deadline } = await votingMission();
    t.clock.set(new Date(deadline.getTime() + 5));
    const voters = await Promise.all([0, 1, 2].map(async () => {
      const v = await signIn(t);
      await credit(t, v.address, 1000n);
      return v;
    }));
    const rs = await Promise.all(voters.map((v, i) => t.call("POST", `/missions/${mission.id}/votes`, { token: v.token, body: { submission_id: subs[i % 2], amount: "100" } })));
    expect(rs.map((r) => r.status)).toEqual([201, 201, 201]);
    const votes = await t.call("GET", `/missions/${mission.id}/votes`);
    expect(votes.body.votes).toHaveLength(3);
  });
});
