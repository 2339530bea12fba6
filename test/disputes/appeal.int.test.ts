import { describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { credit, missionBody, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";
import { APPEAL, DAY, NET, appealFixture } from "./appeal-fixture";

// Appeals of a creator_judges award through HTTP (AIP-1 Security Considerations, reward
// griefing): the award is recorded, disputed by stakes during the appeal window, and either paid
// as awarded (no quorum of disputes) or put to a peer vote that may overturn it.
const t = useTestApp();
const { balance, treasury, mission, subsOf, votesOf, appealMission, staker, stake, sweepAt } = appealFixture(t);
describe("appeal params at creation", () => {
  it("validates the appeal object: shape 400, unknown token 422, defaults and normalisation", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    const create = (appeal: unknown) =>
      t.call("POST", "/missions", {
        token: creator.token,
        body: missionBody(t, { verification: { type: "creator_judges", params: { appeal } } }),
      });
    for (const appeal of [
      "yes",
      { ...APPEAL, quorum: "many" },
      { ...APPEAL, min_vote: "0" },
      { ...APPEAL, quorum: "-1" },
      { ...APPEAL, appeal_window_seconds: 10 },
      { ...APPEAL, appeal_window_seconds: 1.5 },
      { vote_token: "USDC", min_vote: "1" },
      { ...APPEAL, quorom: "1000" },
    ]) {
      const r = await create(appeal);
      expect(r.status, JSON.stringify(appeal)).toBe(400);
      expect(r.body.error).toBe("INVALID_PARAMETER");
      expect(r.body.details.field).toMatch(/^verification\.params\.appeal/);
    }
    const unknown = await create({ ...APPEAL, vote_token: "DOGE" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.details).toMatchObject({
      reason: "unknown_asset",
      field: "verification.params.appeal.vote_token",
    });
    const ok = await create({ vote_token: "usdc", min_vote: "1", quorum: "10" });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.verification.params.appeal).toEqual({
      appeal_window_seconds: 86_400,
      vote_token: "USDC",
      min_vote: "1",
      quorum: "10",
    });
    expect(ok.body.award).toBeNull();
  });
});

describe("creator_judges with an appeal", () => {
  it("no dispute: nothing is paid during the window, then exactly the award at its end", async () => {
    const { creator, mission: m, subs } = await appealMission();
    const treasuryBefore = await treasury();
    const awardedAt = t.clock.now();
    const r = await t.call("POST", `/missions/${m.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: subs[1]!.sub.id }] },
    });
    expect(r.status, r.text).toBe(200);
    const appealDeadline = new Date(awardedAt.getTime() + DAY).toISOString();
    expect(r.body).toMatchObject({
      status: "escrowed",
      phase: "appeal",
      payout_status: "queued",
      resolution: null,
      resolution_reason: null,
      award: {
        winners: [{ submission_id: subs[1]!.sub.id, agent_id: subs[1]!.address, weight: 1 }],
        awarded_at: awardedAt.toISOString(),
        appeal_deadline: appealDeadline,
        voting_deadline: null,
        outcome: null,
      },
    });
    // A receipt asked for now says when it will exist, not a bare NOT_FOUND.
    const early = await t.call("GET", `/missions/${m.id}/receipts/${subs[1]!.sub.id}`);
    expect(early.status).toBe(404);
    expect(early.body.message).toContain(`is paid when the appeal closes at ${appealDeadline}`);
    expect(early.body.details).toMatchObject({ reason: "appeal_open", available_after: appealDeadline });
    const loser = await t.call("GET", `/missions/${m.id}/receipts/${subs[0]!.sub.id}`);
    expect(loser.body.details?.reason).toBeUndefined();
    // the award closed the open mission; submissions say where they stand; deliverables readable by disputers
    const late = await signIn(t);
    expect(
      (await t.call("POST", `/missions/${m.id}/submissions`, { token: late.token, body: { content: "late" } })).body
        .error,
    ).toBe("MISSION_NOT_OPEN");
    const list = await subsOf(m.id);
    expect(list.map((s) => [s.status, s.reason])).toEqual([
      ["pending", "awaiting_appeal"],
      ["pending", "awarded_pending_appeal"],
      ["pending", "awaiting_appeal"],
    ]);
    expect(list.every((s) => s.content_uri !== null)).toBe(true);
    expect(list[1]!.next_action).toMatch(/appeal/);
    // a second award is refused
    const second = await t.call("POST", `/missions/${m.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: subs[0]!.sub.id }] },
    });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe("MISSION_NOT_OPEN");
    // nothing paid during the window
    expect(await sweepAt(new Date(new Date(appealDeadline).getTime() - 1))).toBe(0);
    expect(await balance(subs[1]!.address)).toBe(0n);
    expect(await treasury()).toBe(treasuryBefore);
    expect(await mission(m.id)).toMatchObject({ status: "escrowed", phase: "appeal", payout_status: "queued" });
    // paid at the end of the window, exactly
    expect(await sweepAt(appealDeadline)).toBe(1);
    expect(await mission(m.id)).toMatchObject({
      status: "resolved",
      phase: "settled",
      payout_status: "confirmed",
      resolution_reason: "creator_award",
      resolution: { winner_submission_id: subs[1]!.sub.id, winner_agent_id: subs[1]!.address, fee_amount: "500000" },
      award: { dispute_stake: "0", outcome: "undisputed" },
    });
    expect(await balance(subs[1]!.address)).toBe(NET);
    expect(await balance(subs[0]!.address)).toBe(0n);
    expect((await treasury()) - treasuryBefore).toBe(500_000n);
    expect((await subsOf(m.id)).map((s) => [s.status, s.reason])).toEqual([
      ["rejected", "not_selected"],
      ["accepted", "selected_by_creator"],
      ["rejected", "not_selected"],
    ]);
    expect(await sweepDueMissions(t.deps)).toBe(0); // nothing paid twice
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("disputes below the quorum: the award is paid with its shares, every disputer refunded in full", async () => {
    const { creator, mission: m, subs } = await appealMission({ max_winners: 2 });
    const r = await t.call("POST", `/missions/${m.id}/award`, {
      token: creator.token,
      body: {
        winners: [
          { submission_id: subs[0]!.sub.id, share_bps: 7000 },
          { submission_id: subs[2]!.sub.id, share_bps: 3000 },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    const d1 = await staker(300n);
    const d2 = await staker(200n);
    expect((await stake(m.id, d1, subs[1]!.sub.id, "300")).status).toBe(201);
    expect((await stake(m.id, d2, subs[1]!.sub.id, "200")).status).toBe(201);
    expect(await balance(d1.address)).toBe(0n); // held until the window closes
    await sweepAt(r.body.award.appeal_deadline);
    expect(await mission(m.id)).toMatchObject({
      status: "resolved",
      resolution_reason: "creator_award",
      award: { dispute_stake: "500", outcome: "undisputed", voting_deadline: null },
    });
    const a0 = (NET * 7000n) / 10_000n;
    expect(await balance(subs[0]!.address)).toBe(a0);
    expect(await balance(subs[2]!.address)).toBe(NET - a0);
    expect(await balance(subs[1]!.address)).toBe(0n);
    expect(await balance(d1.address)).toBe(300n);
    expect(await balance(d2.address)).toBe(200n);
    expect((await votesOf(m.id)).map((v) => [v.outcome, v.payout])).toEqual([
      ["refunded", "300"],
      ["refunded", "200"],
    ]);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("who may dispute: not the creator, not an awarded winner, not for the award, not anonymous, once", async () => {
    const { creator, mission: m, subs } = await appealMission();
    // before the award there is nothing to dispute
    const early = await staker(100n);
    expect((await stake(m.id, early, subs[1]!.sub.id, "100")).body.error).toBe("MISSION_NOT_OPEN");
    const r = await t.call("POST", `/missions/${m.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: subs[0]!.sub.id }] },
    });
    expect(r.status, r.text).toBe(200);
    await credit(t, creator.address, 1000n);
    await credit(t, subs[0]!.address, 1000n);
    await credit(t, subs[1]!.address, 1000n);
    const byCreator = await stake(m.id, creator, subs[1]!.sub.id, "100");
    expect([byCreator.status, byCreator.body.details?.reason]).toEqual([403, "creator_vote"]);
    const byWinner = await stake(m.id, subs[0]!, subs[1]!.sub.id, "100");
    expect([byWinner.status, byWinner.body.details?.reason]).toEqual([403, "awarded_winner"]);
    const own = await stake(m.id, subs[1]!, subs[1]!.sub.id, "100");
    expect([own.status, own.body.details?.reason]).toEqual([403, "own_submission"]);
    const d = await staker(1000n);
    const forAward = await stake(m.id, d, subs[0]!.sub.id, "100");
    expect([forAward.status, forAward.body.details?.reason]).toEqual([422, "awarded_submission"]);
    expect((await stake(m.id, d, subs[1]!.sub.id, "99")).body.details.reason).toBe("below_min_vote");
    expect((await stake(m.id, d, "sub_01JZ0000000000000000000000", "100")).body.details.reason).toBe(
      "unknown_submission",
    );
    const poor = await staker(50n);
    expect((await stake(m.id, poor, subs[1]!.sub.id, "100")).body.error).toBe("INSUFFICIENT_BALANCE");
    const anon = await t.call("POST", `/missions/${m.id}/votes`, {
      body: { submission_id: subs[1]!.sub.id, amount: "100" },
    });
    expect(anon.status).toBe(403);
    expect(anon.body).toEqual({ error: "ANONYMOUS_SUBMISSION_REJECTED" });
    // a submitter who was not awarded may dispute for someone else's submission
    expect((await stake(m.id, subs[1]!, subs[2]!.sub.id, "100")).status).toBe(201);
    expect((await stake(m.id, d, subs[1]!.sub.id, "100")).status).toBe(201);
    expect((await stake(m.id, d, subs[2]!.sub.id, "100")).body.details.reason).toBe("already_voted");
    // the window closes at appeal_deadline, even before the sweeper has run
    t.clock.set(new Date(r.body.award.appeal_deadline));
    const lateDisputer = await staker(100n);
    expect((await stake(m.id, lateDisputer, subs[1]!.sub.id, "100")).body.error).toBe("MISSION_NOT_OPEN");
    await sweepDueMissions(t.deps); // 200 < quorum: paid as awarded
    expect(await mission(m.id)).toMatchObject({
      status: "resolved",
      resolution_reason: "creator_award",
      award: { dispute_stake: "200" },
    });
  });
});
