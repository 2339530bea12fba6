import { describe, expect, it } from "vitest";
import { treasuryBalances, verifyLedger } from "../../src/features/ledger/ledger.service";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { openMission, signIn } from "../helpers/agents";
import { sweptPastDeadline } from "../helpers/mission-flow";
import { useTestApp } from "../helpers/suite-app";

// creator_judges end to end through HTTP (AIP-1 §4.1): create → several agents submit → award →
// balances credited exactly (fee to the treasury, dust to the first winner); and the paths where
// the creator never judges, or nobody submits.
const t = useTestApp();

const balance = async (address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);
const treasury = async () => (await treasuryBalances(t.deps.database.db)).get("USDC") ?? 0n;

async function submitters(missionId: string, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = await signIn(t);
    const r = await t.call("POST", `/missions/${missionId}/submissions`, {
      token: a.token,
      body: { content: `answer ${i} from ${a.address}` },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: "pending", reason: "awaiting_judgement" });
    out.push({ ...a, submission: r.body });
  }
  return out;
}

describe("creator_judges", () => {
  it("the creator awards one winner: reward − 0.5 % to the winner, fee to the treasury, others rejected", async () => {
    const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount: "100000000" } });
    const subs = await submitters(mission.id, 3);
    const before = BigInt(await treasury());
    const r = await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: subs[1]!.submission.id }] },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      status: "resolved",
      phase: "settled",
      payout_status: "confirmed",
      resolution: { winner_submission_id: subs[1]!.submission.id, winner_agent_id: subs[1]!.address },
    });
    expect(await balance(subs[1]!.address)).toBe(99_500_000n);
    expect(await balance(subs[0]!.address)).toBe(0n);
    expect(BigInt(await treasury()) - before).toBe(500_000n);
    const list = (await t.call("GET", `/missions/${mission.id}/submissions`)).body.submissions;
    expect(list.map((s: { status: string; reason: string }) => [s.status, s.reason])).toEqual([
      ["rejected", "not_selected"],
      ["accepted", "selected_by_creator"],
      ["rejected", "not_selected"],
    ]);
    // resolved: deliverables are public now
    expect(list.every((s: { content_uri: string | null }) => s.content_uri !== null)).toBe(true);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("splits between several winners by share_bps, every base unit accounted for (dust to the first)", async () => {
    const { creator, mission } = await openMission(t, {
      reward: { asset: "USDC", amount: "1000001" },
      verification: { type: "creator_judges", params: { max_winners: 3 } },
    });
    const subs = await submitters(mission.id, 3);
    const r = await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: {
        winners: [
          { submission_id: subs[2]!.submission.id, share_bps: 5000 },
          { submission_id: subs[0]!.submission.id, share_bps: 3333 },
          { submission_id: subs[1]!.submission.id, share_bps: 1667 },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    const fee = 5000n; // floor(1000001 * 50 / 10000)
    const net = 1_000_001n - fee;
    const a0 = (net * 3333n) / 10000n;
    const a1 = (net * 1667n) / 10000n;
    expect(await balance(subs[0]!.address)).toBe(a0);
    expect(await balance(subs[1]!.address)).toBe(a1);
    expect(await balance(subs[2]!.address)).toBe(net - a0 - a1);
    expect(r.body.resolution.winner_submission_id).toBe(subs[2]!.submission.id);
  });

  it("refuses bad awards: not the creator, too many winners, foreign submission, bad shares, after resolution", async () => {
    const { creator, mission } = await openMission(t);
    const subs = await submitters(mission.id, 2);
    const other = await signIn(t);
    const award = (token: string, winners: unknown) =>
      t.call("POST", `/missions/${mission.id}/award`, { token, body: { winners } });
    expect((await award(other.token, [{ submission_id: subs[0]!.submission.id }])).status).toBe(403);
    expect(
      (
        await award(creator.token, [
          { submission_id: subs[0]!.submission.id },
          { submission_id: subs[1]!.submission.id },
        ])
      ).body.details.reason,
    ).toBe("too_many_winners");
    expect(
      (await award(creator.token, [{ submission_id: "sub_01JZ0000000000000000000000" }])).body.details.reason,
    ).toBe("unknown_submission");
    expect((await award(creator.token, [{ submission_id: subs[0]!.submission.id, share_bps: 9000 }])).status).toBe(400);
    expect((await award(creator.token, [])).status).toBe(400);
    expect((await award(creator.token, [{ submission_id: subs[0]!.submission.id }])).status).toBe(200);
    const again = await award(creator.token, [{ submission_id: subs[1]!.submission.id }]);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("MISSION_NOT_OPEN");
  });

  it("after the deadline submissions close and the creator judges within the window", async () => {
    const { creator, mission } = await openMission(t);
    const subs = await submitters(mission.id, 1);
    const m = await sweptPastDeadline(t, mission);
    expect(m).toMatchObject({ status: "escrowed", phase: "judging" });
    const late = await signIn(t);
    expect(
      (await t.call("POST", `/missions/${mission.id}/submissions`, { token: late.token, body: { content: "late" } }))
        .body.error,
    ).toBe("MISSION_NOT_OPEN");
    const creatorToken = (await signIn(t, creator.account)).token; // sessions last 24 h
    expect(
      (
        await t.call("POST", `/missions/${mission.id}/award`, {
          token: creatorToken,
          body: { winners: [{ submission_id: subs[0]!.submission.id }] },
        })
      ).status,
    ).toBe(200);
  });

  it("a creator who never judges: when the window closes the default outcome pays the bounded pool to the distinct submitters, the rest back to the creator", async () => {
    const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount: "30000000" } });
    const subs = await submitters(mission.id, 3);
    // one submitter submits twice: still one share
    const again = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: subs[0]!.token,
      body: { content: "second try" },
    });
    expect(again.status).toBe(201);
    const creatorBefore = await balance(creator.address);
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps);
    t.clock.advance(t.deps.config.judgingWindowSeconds * 1000);
    expect(await sweepDueMissions(t.deps)).toBeGreaterThanOrEqual(1);
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ status: "resolved", payout_status: "confirmed" });
    // docs/abuse.md: pool = 20 % (6 USDC), fee 0.5 % of the pool, equal shares (dust to the first)
    const pool = 6_000_000n;
    const net = pool - 30_000n;
    for (const s of subs) expect(await balance(s.address)).toBe(net / 3n);
    expect((await balance(creator.address)) - creatorBefore).toBe(30_000_000n - pool);
    const list = (await t.call("GET", `/missions/${mission.id}/submissions`)).body.submissions;
    expect(
      list.filter((s: { status: string }) => s.status === "accepted").map((s: { reason: string }) => s.reason),
    ).toEqual(["default_award", "default_award", "default_award"]);
    expect(list.at(-1)).toMatchObject({ status: "rejected", reason: "not_selected" });
    expect(await sweepDueMissions(t.deps)).toBe(0); // nothing resolved twice
  });

  it("voided path: nobody submits by the deadline → refund to the creator, spam fee kept", async () => {
    const { creator, mission } = await openMission(t);
    const before = await balance(creator.address);
    const m = await sweptPastDeadline(t, mission, 1);
    expect(m).toMatchObject({ status: "voided", phase: "closed" });
    expect((await balance(creator.address)) - before).toBe(100_000_000n);
  });
});

describe("reward split", () => {
  it("equal weights pay exactly net/n with the dust to the first; fee is floored", async () => {
    const { splitReward } = await import("../../src/features/settlement/settlement.split");
    expect(splitReward({ reward: 100n, feeBps: 50, weights: [1, 1, 1] })).toEqual({
      fee: 0n,
      amounts: [34n, 33n, 33n],
    });
    expect(splitReward({ reward: 1_000_000n, feeBps: 50, weights: [1, 1] })).toEqual({
      fee: 5000n,
      amounts: [497_500n, 497_500n],
    });
    const { fee, amounts } = splitReward({ reward: 999_999_999n, feeBps: 100, weights: [5000, 3333, 1667] });
    expect(fee + amounts.reduce((a, b) => a + b, 0n)).toBe(999_999_999n);
  });
});
