import { describe, expect, it } from "vitest";
import { materialiseDecayBatch } from "../../src/features/reputation/reputation.service";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { credit, missionBody, openMission, signIn } from "../helpers/agents";
import { peerVote } from "../helpers/peer-vote";
import { useTestApp } from "../helpers/suite-app";

// Three agents compete in missions of all four methods; then the three §5 endpoints must agree
// with each other and with the history (Σ delta = rating − 1400), including across decay.
// The oracle mission needs an RPC to be accepted; a dead one never answers (default award).
const t = useTestApp({ OABP_JUDGING_WINDOW_SECONDS: "3600", OABP_RPC_URL: "http://127.0.0.1:9" });

const HOUR = 3_600_000;
type Agent = Awaited<ReturnType<typeof signIn>>;

async function fresh(a: Agent): Promise<Agent> {
  return signIn(t, a.account); // sessions last 24 h; the clock moves a lot here
}

async function profile(address: string) {
  const p = (await t.call("GET", `/agents/${address}`)).body;
  const h = (await t.call("GET", `/api/agents/${address}/history?limit=100`)).body;
  return { p, h, sum: h.history.reduce((s: number, e: { delta: number }) => s + e.delta, 0) };
}

async function expectConsistent(address: string) {
  const { p, h, sum } = await profile(address);
  expect(h.rating).toBe(p.rating);
  expect(sum).toBe(p.rating - 1400);
  const badge = await t.call("GET", `/agents/${address}/badge.svg`);
  if (badge.status === 200) expect(badge.text).toContain(String(p.rating));
  return p;
}

describe("reputation across all four methods", () => {
  it("ratings, history and counters agree after creator_judges, first_valid_match, peer_vote and oracle missions", async () => {
    let [A, B, C] = [await signIn(t), await signIn(t), await signIn(t)];
    const submit = (a: Agent, id: string, content: string) =>
      t.call("POST", `/missions/${id}/submissions`, { token: a.token, body: { content } });

    // 1. creator_judges: all three submit, B is awarded (reward 100 USDC → K = 64).
    const { creator: c1, mission: cj2 } = await openMission(t, { reward: { asset: "USDC", amount: "100000000" } });
    const s1 = [await submit(A!, cj2.id, "a1"), await submit(B!, cj2.id, "b1"), await submit(C!, cj2.id, "c1")];
    expect(
      (
        await t.call("POST", `/missions/${cj2.id}/award`, {
          token: c1.token,
          body: { winners: [{ submission_id: s1[1]!.body.id }] },
        })
      ).status,
    ).toBe(200);
    const pb = (await profile(B!.address)).h.history[0];
    expect(pb).toMatchObject({ kind: "win", k: 64, before: 1400, after: 1432, delta: 32, mission_id: cj2.id });

    // 2. first_valid_match: A wrong, C right (10 USDC → K = 32).
    const fvm = (
      await openMission(t, {
        reward: { asset: "USDC", amount: "10000000" },
        verification: { type: "first_valid_match", params: { expected: "42" } },
      })
    ).mission;
    expect((await submit(A!, fvm.id, "41")).body.status).toBe("rejected");
    expect((await submit(C!, fvm.id, "it is 42")).body.status).toBe("accepted");

    // 3. peer_vote: A and B submit, a voter backs A.
    const deadline = new Date(t.clock.now().getTime() + HOUR);
    const pv = (
      await openMission(t, peerVote(deadline, { minVote: "1", quorum: "10", votingMs: HOUR, reward: "10000000" }))
    ).mission;
    await submit(A!, pv.id, "pa");
    await submit(B!, pv.id, "pb");
    // 4. oracle (a dead RPC: the oracle never attests → default award when its window closes)
    const or = (
      await openMission(t, {
        deadline: deadline.toISOString(),
        reward: { asset: "USDC", amount: "10000000" },
        verification: {
          type: "oracle",
          params: { oracle_contract: "0x" + "ab".repeat(20), oracle_method: "winner(bytes32)" },
        },
      })
    ).mission;
    await submit(B!, or.id, "ob");
    await submit(C!, or.id, "oc");
    // a voided mission: nobody submits
    const vo = (await openMission(t, { deadline: deadline.toISOString() })).mission;

    t.clock.set(new Date(deadline.getTime() + 1000));
    await sweepDueMissions(t.deps);
    const voter = await signIn(t);
    await credit(t, voter.address, 100n);
    const pvSubs = (await t.call("GET", `/missions/${pv.id}/submissions`)).body.submissions;
    expect(
      (
        await t.call("POST", `/missions/${pv.id}/votes`, {
          token: voter.token,
          body: { submission_id: pvSubs[0].id, amount: "50" },
        })
      ).status,
    ).toBe(201);
    t.clock.advance(HOUR);
    await sweepDueMissions(t.deps);
    await sweepDueMissions(t.deps);
    for (const id of [pv.id, or.id]) expect((await t.call("GET", `/missions/${id}`)).body.status).toBe("resolved");
    expect((await t.call("GET", `/missions/${vo.id}`)).body.status).toBe("voided");
    [A, B, C] = [await fresh(A!), await fresh(B!), await fresh(C!)];

    const pa = await expectConsistent(A!.address);
    const pbp = await expectConsistent(B!.address);
    const pc = await expectConsistent(C!.address);
    // attempted: A in cj2, fvm, pv (3);
    // B in cj2, pv, oracle (3); C in cj2, fvm, oracle (3)
    expect([pa.missions_attempted, pbp.missions_attempted, pc.missions_attempted]).toEqual([3, 3, 3]);
    // completed = paid: A (pv), B (cj2 + oracle default share), C (fvm + oracle default share)
    expect([pa.missions_completed, pbp.missions_completed, pc.missions_completed]).toEqual([1, 2, 2]);
    const hb = (await profile(B!.address)).h.history;
    // oracle default share (partial) and peer_vote loss resolve in the same sweep, after the cj2 win
    expect(
      hb
        .map((e: { kind: string }) => e.kind)
        .slice(0, 2)
        .sort(),
    ).toEqual(["loss", "partial"]);
    expect(hb[2].kind).toBe("win");
    for (const e of hb) expect(e.after - e.before).toBe(e.delta);
    // the voided mission left no trace in anyone's history
    for (const a of [A!, B!, C!])
      expect((await profile(a.address)).h.history.some((e: { mission_id: string }) => e.mission_id === vo.id)).toBe(
        false,
      );
  });

  it("decay: shown at read time, materialised by the job, Σ delta = rating − 1400 at every step", async () => {
    const a = await signIn(t);
    const { mission } = await openMission(t, {
      reward: { asset: "USDC", amount: "100000000" },
      verification: { type: "first_valid_match", params: { expected: "x" } },
    });
    expect(
      (await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content: "x" } })).body
        .status,
    ).toBe("accepted");
    const start = (await expectConsistent(a.address)).rating;
    expect(start).toBe(1432);
    const t0 = t.clock.now().getTime();
    t.clock.set(new Date(t0 + 6 * 86_400_000));
    expect((await expectConsistent(a.address)).rating).toBe(1432); // 6 days: grace
    for (let week = 2; week <= 12; week++) {
      t.clock.set(new Date(t0 + week * 7 * 86_400_000));
      const seen = (await expectConsistent(a.address)).rating; // pending decay shown, Σ still holds
      expect(seen).toBe(1432 - 2 * (week - 1));
      if (week % 3 === 0) {
        await materialiseDecayBatch(t.deps);
        expect((await expectConsistent(a.address)).rating).toBe(seen); // writing it changes nothing visible
      }
    }
    const h = (await profile(a.address)).h.history;
    expect(
      h.filter((e: { kind: string; pending?: boolean }) => e.kind === "decay" && !e.pending).length,
    ).toBeGreaterThanOrEqual(3);
  });

  it("decay owed when an agent creates a mission is written first; the mission restarts the clock", async () => {
    const { creator } = await openMission(t); // active now, at 1400
    const t0 = t.clock.now().getTime();
    t.clock.set(new Date(t0 + 5 * 7 * 86_400_000)); // four weeks past the grace: 8 points owed
    const c = await fresh(creator);
    const before = await expectConsistent(c.address);
    expect(before.rating).toBe(1392);
    const r = await t.call("POST", "/missions", { token: c.token, body: missionBody(t) });
    expect(r.status).toBe(201);
    const written = (await profile(c.address)).h.history.filter(
      (e: { kind: string; pending?: boolean }) => e.kind === "decay" && !e.pending,
    );
    expect(written).toHaveLength(1);
    t.clock.set(new Date(t0 + 11 * 7 * 86_400_000)); // six weeks after the new activity: only 5 owed
    expect((await expectConsistent(c.address)).rating).toBe(1392 - 2 * 5);
  });
});
