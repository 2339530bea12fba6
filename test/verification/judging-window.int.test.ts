import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MISSION_COLUMNS } from "../../src/db/rows";
import { missions } from "../../src/db/schema/index";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { advanceMission } from "../../src/features/verification/lifecycle";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { makeTestApp, type TestApp } from "../helpers/app";
import { credit, missionBody, openMission, signIn } from "../helpers/agents";
import { mcpAgent, mcpMission } from "../helpers/mcp";

// creator_judges' judging_window_seconds (docs/decisions.md "Judging window"): the mission states
// how long after its deadline the creator may award — the creator's choice or the server's
// window, filled in at creation — and the sweeper closes that window, not the server's.
let t: TestApp;
const HOUR = 3600;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t?.close());

const cj = (params: Record<string, unknown>) => ({ verification: { type: "creator_judges", params } });
const get = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;
const balance = async (address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);

async function submit(missionId: string, content: string) {
  const a = await signIn(t);
  const r = await t.call("POST", `/missions/${missionId}/submissions`, { token: a.token, body: { content } });
  expect(r.status, r.text).toBe(201);
  return { ...a, submission: r.body };
}

/** A mission with one submission, swept at its deadline into judging. */
async function judging(windowSeconds: number) {
  const { creator, mission } = await openMission(t, cj({ judging_window_seconds: windowSeconds, appeal: false }));
  const solver = await submit(mission.id, `answer for ${mission.id}`);
  t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
  await sweepDueMissions(t.deps);
  return { creator, mission, solver };
}

describe("creator_judges judging_window_seconds", () => {
  it("is stored and served on get and list; without one the mission states the server's window", async () => {
    const { mission } = await openMission(t, cj({ judging_window_seconds: 2 * HOUR }));
    expect(mission.verification.params.judging_window_seconds).toBe(2 * HOUR);
    expect((await get(mission.id)).verification.params.judging_window_seconds).toBe(2 * HOUR);
    const listed = (await t.call("GET", "/missions?verification_type=creator_judges&limit=100")).body.missions;
    expect(listed.find((m: { id: string }) => m.id === mission.id).verification.params.judging_window_seconds).toBe(
      2 * HOUR,
    );
    const plain = await openMission(t, cj({}));
    expect(plain.mission.verification.params.judging_window_seconds).toBe(t.deps.config.judgingWindowSeconds);
  });

  it("refuses a window that is not a whole number of seconds between an hour and 90 days (400)", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    for (const bad of [HOUR - 1, 90 * 86_400 + 1, 7200.5, "7200"]) {
      const r = await t.call("POST", "/missions", {
        token: creator.token,
        body: missionBody(t, cj({ judging_window_seconds: bad })),
      });
      expect(r.status, r.text).toBe(400);
      expect(r.body).toMatchObject({
        error: "INVALID_PARAMETER",
        details: { field: "verification.params.judging_window_seconds" },
      });
    }
  });

  it("reaches MCP create_mission, the same verb", async () => {
    const creator = await mcpAgent(t, 1_000_000_000n);
    const r = await creator.callTool(
      "create_mission",
      mcpMission(missionBody(t, cj({ judging_window_seconds: 3 * HOUR }))),
    );
    expect(r.isError, r.content[0]?.text).toBe(false);
    expect(r.structuredContent.verification.params.judging_window_seconds).toBe(3 * HOUR);
  });

  it("the sweeper opens the mission's window, not the server's: award inside it, refused after it", async () => {
    const { creator, mission, solver } = await judging(2 * HOUR);
    const m = await get(mission.id);
    expect(m).toMatchObject({ status: "escrowed", phase: "judging" });
    expect(m.judging_deadline).toBe(new Date(new Date(mission.deadline).getTime() + 2 * HOUR * 1000).toISOString());
    expect(2 * HOUR).toBeLessThan(t.deps.config.judgingWindowSeconds); // the server's window would still be open
    t.clock.set(new Date(new Date(m.judging_deadline).getTime()));
    const late = await t.call("POST", `/missions/${mission.id}/award`, {
      token: (await signIn(t, creator.account)).token, // sessions last 24 h; the clock moved a week
      body: { winners: [{ submission_id: solver.submission.id }] },
    });
    expect(late.status, late.text).toBe(409);
    expect(late.body.error).toBe("MISSION_NOT_OPEN");

    const early = await judging(2 * HOUR);
    t.clock.advance(HOUR);
    const token = (await signIn(t, early.creator.account)).token;
    const r = await t.call("POST", `/missions/${early.mission.id}/award`, {
      token,
      body: { winners: [{ submission_id: early.solver.submission.id }] },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toBe("resolved");
  });

  it("when the mission's window ends, the default outcome applies once — a crashed step, re-run, pays once", async () => {
    const { creator, mission, solver } = await judging(HOUR);
    const creatorBefore = await balance(creator.address);
    t.clock.set(new Date(new Date(mission.deadline).getTime() + HOUR * 1000 + 1000));
    // The step runs and the process dies before its commit: nothing of it stays.
    const crash = new Error("process died before commit");
    await expect(
      t.deps.database.db.transaction(async (tx) => {
        const [row] = await tx.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, mission.id)).for("update");
        await advanceMission({ tx, deps: t.deps, now: t.clock.now() }, { mission: row! });
        throw crash;
      }),
    ).rejects.toBe(crash);
    expect(await get(mission.id)).toMatchObject({ status: "escrowed", phase: "judging" });
    expect(await balance(solver.address)).toBe(0n);

    // Re-run by the sweeper (twice, as a second server would): decided and paid once.
    await Promise.all([sweepDueMissions(t.deps), sweepDueMissions(t.deps)]);
    expect(await get(mission.id)).toMatchObject({
      status: "resolved",
      payout_status: "confirmed",
      resolution_reason: "default_award_judging_expired",
    });
    const paid = await balance(solver.address);
    expect(paid).toBeGreaterThan(0n);
    const refunded = (await balance(creator.address)) - creatorBefore;
    expect(await sweepDueMissions(t.deps)).toBe(0);
    expect(await balance(solver.address)).toBe(paid);
    expect((await balance(creator.address)) - creatorBefore).toBe(refunded);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });
});
