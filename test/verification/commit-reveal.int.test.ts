import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { commitmentOf } from "../../src/features/verification/commit-reveal";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { openMission, signIn } from "../helpers/agents";
import { sweptPastDeadline } from "../helpers/mission-flow";
import { useTestApp } from "../helpers/suite-app";

// Commit-reveal first_valid_match (AIP-1 Security Considerations, front-running): the earliest
// valid COMMITMENT wins, whatever the order of the reveals.
const t = useTestApp();

const HOUR = 3_600_000;
const sha = (s: string) => `sha256:${createHash("sha256").update(s).digest("hex")}`;
const balance = async (address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);

async function crMission(expected = "the answer is 42") {
  const deadline = new Date(t.clock.now().getTime() + HOUR);
  return openMission(t, {
    deadline: deadline.toISOString(),
    reward: { asset: "USDC", amount: "20000000" },
    verification: { type: "first_valid_match", params: { expected, commit_reveal: true, reveal_window_seconds: 3600 } },
  });
}

async function committer(
  missionId: string,
  content: string,
  salt = `salt-${Math.random().toString(36).slice(2)}-long`,
) {
  const a = await signIn(t);
  const r = await t.call("POST", `/missions/${missionId}/commitments`, {
    token: a.token,
    body: { commitment: commitmentOf({ contentHash: sha(content), committer: a.address, salt }) },
  });
  expect(r.status, r.text).toBe(201);
  return { ...a, content, salt, commitment: r.body };
}

describe("commit-reveal first_valid_match", () => {
  it("the earliest valid commitment wins even when a later committer reveals first", async () => {
    const { mission } = await crMission();
    const early = await committer(mission.id, "The answer is 42.");
    const wrong = await committer(mission.id, "the answer is 41");
    const late = await committer(mission.id, "THE ANSWER IS 42!");
    expect([early.commitment.seq, wrong.commitment.seq, late.commitment.seq]).toEqual([1, 2, 3]);
    // a plain submission before the deadline is refused: commit first
    const direct = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: late.token,
      body: { content: late.content },
    });
    expect(direct.body).toMatchObject({ error: "CONFLICT", details: { reason: "commit_required" } });
    expect(await sweptPastDeadline(t, mission)).toMatchObject({
      status: "escrowed",
      phase: "revealing",
    });
    const reveal = async (a: typeof early, token?: string) =>
      t.call("POST", `/missions/${mission.id}/submissions`, {
        token: token ?? (await signIn(t, a.account)).token,
        body: { content: a.content, salt: a.salt },
      });
    // the late committer reveals first: valid, but an earlier commitment is still unrevealed → waits
    const lateReveal = await reveal(late);
    expect(lateReveal.status).toBe(201);
    expect(lateReveal.body.status).toBe("pending");
    // a reveal that does not match its commitment is refused
    const lie = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: (await signIn(t, wrong.account)).token,
      body: { content: "The answer is 42.", salt: wrong.salt },
    });
    expect(lie.body.details.reason).toBe("commitment_mismatch");
    expect((await reveal(wrong)).body).toMatchObject({ status: "rejected", reason: "expected_not_matched" });
    const earlyReveal = await reveal(early);
    expect(earlyReveal.body).toMatchObject({ status: "accepted", reason: "first_valid_match" });
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ status: "resolved", resolution: { winner_agent_id: early.address } });
    expect(await balance(early.address)).toBe(19_900_000n);
    expect(await balance(late.address)).toBe(0n);
    const subs = (await t.call("GET", `/missions/${mission.id}/submissions`)).body.submissions;
    expect(subs.find((s: { submitter: string }) => s.submitter === late.address)).toMatchObject({
      status: "rejected",
      reason: "another_submission_won",
    });
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("an earlier commitment never revealed stops blocking when the reveal window closes", async () => {
    const { mission } = await crMission();
    await committer(mission.id, "the answer is 42"); // never revealed
    const second = await committer(mission.id, "answer: The Answer Is 42");
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps);
    const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: (await signIn(t, second.account)).token,
      body: { content: second.content, salt: second.salt },
    });
    expect(r.body.status).toBe("pending");
    t.clock.advance(3_600_000);
    await sweepDueMissions(t.deps);
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
      status: "resolved",
      resolution: { winner_agent_id: second.address },
    });
    const late = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: (await signIn(t, second.account)).token,
      body: { content: "x", salt: second.salt },
    });
    expect(late.status).toBe(409);
  });

  it("voided paths: no commitment by the deadline; no valid reveal by the end of the window", async () => {
    const { creator, mission } = await crMission();
    const before = await balance(creator.address);
    expect(await sweptPastDeadline(t, mission)).toMatchObject({
      status: "voided",
      resolution_reason: "expired_without_submissions",
    });
    expect((await balance(creator.address)) - before).toBe(20_000_000n);

    const second = await crMission();
    await committer(second.mission.id, "nope");
    t.clock.set(new Date(new Date(second.mission.deadline).getTime() + 3_700_000));
    await sweepDueMissions(t.deps);
    await sweepDueMissions(t.deps);
    expect((await t.call("GET", `/missions/${second.mission.id}`)).body).toMatchObject({
      status: "voided",
      resolution_reason: "no_valid_submission",
    });
  });

  it("commitments: only before the deadline, not by the creator, not anonymously, not twice", async () => {
    const { creator, mission } = await crMission();
    const a = await signIn(t);
    const c = commitmentOf({ contentHash: sha("x"), committer: a.address, salt: "0123456789abcdef" });
    expect(
      (await t.call("POST", `/missions/${mission.id}/commitments`, { token: a.token, body: { commitment: c } })).status,
    ).toBe(201);
    expect(
      (await t.call("POST", `/missions/${mission.id}/commitments`, { token: a.token, body: { commitment: c } })).body
        .details.reason,
    ).toBe("duplicate_commitment");
    expect(
      (await t.call("POST", `/missions/${mission.id}/commitments`, { token: creator.token, body: { commitment: c } }))
        .status,
    ).toBe(403);
    const anon = await t.call("POST", `/missions/${mission.id}/commitments`, { body: { commitment: c } });
    expect(anon.body).toEqual({ error: "ANONYMOUS_SUBMISSION_REJECTED" });
    expect((await t.call("GET", `/missions/${mission.id}/commitments`)).body.commitments).toHaveLength(1);
    const plain = (await openMission(t, { verification: { type: "first_valid_match", params: { expected: "x" } } }))
      .mission;
    expect(
      (await t.call("POST", `/missions/${plain.id}/commitments`, { token: a.token, body: { commitment: c } })).body
        .details.reason,
    ).toBe("not_commit_reveal");
  });
});
