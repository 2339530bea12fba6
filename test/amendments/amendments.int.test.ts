import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { webhookEvents } from "../../src/db/schema/index";
import { balancesOf, verifyLedger } from "../../src/features/ledger/ledger.service";
import { makeTestApp } from "../helpers/app";
import { credit, openMission, signIn } from "../helpers/agents";
import { submittedAndAwarded } from "../helpers/mission-flow";
import { expectError } from "../helpers/errors";
import { callTool, openSession } from "../helpers/mcp";
import { useTestApp } from "../helpers/suite-app";

// Changing a posted mission — extend the deadline, top up the reward, edit
// title/description/tags before the first submission; every change an amendment with a public log
// and a mission.amended event. Runs on PGlite and on Postgres (DATABASE_URL).
describe("mission amendments", () => {
  const t = useTestApp({ OABP_SESSION_TTL_SECONDS: String(30 * 86_400) });

  const DAY = 86_400_000;
  const amend = (id: string, body: unknown, token?: string, headers?: Record<string, string>) =>
    t.call("POST", `/missions/${id}/amendments`, {
      ...(token ? { token } : {}),
      body,
      ...(headers ? { headers } : {}),
    });
  const usdc = async (address: string) => (await balancesOf(t.deps.database.db, `agent:${address}`)).get("USDC") ?? 0n;
  const amendedEvents = async (missionId: string) =>
    (await t.deps.database.db.select().from(webhookEvents).where(eq(webhookEvents.missionId, missionId))).filter(
      (e) => e.type === "mission.amended",
    );

  it("extend_deadline: creator only, later only, bounded; the mission, the log and the event follow", async () => {
    const { creator, mission } = await openMission(t);
    const other = await signIn(t);
    const later = new Date(Date.parse(mission.deadline) + 2 * DAY).toISOString();
    expectError(await amend(mission.id, { kind: "extend_deadline", deadline: later }), 401, "UNAUTHORIZED");
    const forbidden = await amend(mission.id, { kind: "extend_deadline", deadline: later }, other.token);
    expectError(forbidden, 403, "FORBIDDEN");
    expect(forbidden.body.details.reason).toBe("creator_only");
    const earlier = new Date(Date.parse(mission.deadline) - DAY).toISOString();
    const e1 = await amend(mission.id, { kind: "extend_deadline", deadline: earlier }, creator.token);
    expectError(e1, 422, "UNPROCESSABLE");
    expect(e1.body.details.reason).toBe("deadline_not_later");
    const far = new Date(Date.parse(mission.deadline) + 31 * DAY).toISOString();
    const e2 = await amend(mission.id, { kind: "extend_deadline", deadline: far }, creator.token);
    expectError(e2, 422, "UNPROCESSABLE");
    expect(e2.body.details).toMatchObject({ reason: "extension_too_long", max_seconds: 30 * 86_400 });
    expectError(
      await amend(mission.id, { kind: "extend_deadline", deadline: "tomorrow" }, creator.token),
      400,
      "INVALID_PARAMETER",
    );

    const r = await amend(mission.id, { kind: "extend_deadline", deadline: later }, creator.token);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      mission_id: mission.id,
      seq: 1,
      kind: "extend_deadline",
      actor: creator.address,
      status: "applied",
      changes: { deadline: { from: mission.deadline, to: later } },
    });
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ deadline: later, amendments_count: 1 });
    expect(m.amendments_url).toMatch(new RegExp(`/missions/${mission.id}/amendments$`));
    const log = (await t.call("GET", `/missions/${mission.id}/amendments`)).body;
    expect(log).toMatchObject({ mission_id: mission.id, amendments_count: 1, next_cursor: null });
    expect(log.amendments.map((a: { id: string }) => a.id)).toEqual([r.body.id]);
    const ev = await amendedEvents(mission.id);
    expect(ev).toHaveLength(1);
    expect(JSON.parse(ev[0]!.data)).toMatchObject({
      amendment_id: r.body.id,
      kind: "extend_deadline",
      deadline: later,
      amendments_count: 1,
    });
  });

  it("extend_deadline is refused once the deadline has passed", async () => {
    const { creator, mission } = await openMission(t);
    t.clock.advance(8 * DAY);
    try {
      const r = await amend(
        mission.id,
        { kind: "extend_deadline", deadline: new Date(t.clock.now().getTime() + DAY).toISOString() },
        creator.token,
      );
      expectError(r, 409, "MISSION_NOT_OPEN");
      expect(r.body.details.reason).toBe("deadline_passed");
    } finally {
      t.clock.advance(-8 * DAY);
    }
  });

  it("edit: creator only, before the first submission; refused after with submissions_exist", async () => {
    const { creator, mission } = await openMission(t);
    const other = await signIn(t);
    expectError(await amend(mission.id, { kind: "edit", title: "x" }, other.token), 403, "FORBIDDEN");
    expectError(await amend(mission.id, { kind: "edit", title: "" }, creator.token), 400, "INVALID_PARAMETER");
    expectError(await amend(mission.id, { kind: "edit", bogus: 1 }, creator.token), 400, "INVALID_PARAMETER");
    const same = await amend(mission.id, { kind: "edit", title: mission.title }, creator.token);
    expectError(same, 422, "UNPROCESSABLE");
    expect(same.body.details.reason).toBe("no_change");
    const r = await amend(
      mission.id,
      { kind: "edit", title: "Find the key, v2", tags: ["search", "config"], description: "Clearer words." },
      creator.token,
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body.changes).toMatchObject({
      title: { from: "Find the key", to: "Find the key, v2" },
      tags: { from: ["search"], to: ["search", "config"] },
      description: { to: { length: "Clearer words.".length } },
    });
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ title: "Find the key, v2", description: "Clearer words.", tags: ["search", "config"] });
    // The tag index follows the edit (the list filter by tag finds it).
    const byTag = (await t.call("GET", `/missions?tag=config`)).body.missions.map((x: { id: string }) => x.id);
    expect(byTag).toContain(mission.id);

    const solver = await signIn(t);
    const s = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: solver.token,
      body: { content: "k" },
    });
    expect(s.status, s.text).toBeLessThan(300);
    const after = await amend(mission.id, { kind: "edit", title: "Changed under the solver" }, creator.token);
    expectError(after, 409, "CONFLICT");
    expect(after.body.details.reason).toBe("submissions_exist");
    // A deadline extension is still allowed after a submission.
    const later = new Date(Date.parse(mission.deadline) + DAY).toISOString();
    expect((await amend(mission.id, { kind: "extend_deadline", deadline: later }, creator.token)).status).toBe(201);
  });

  it("top_up on the ledger: anyone, from their balance, idempotent; the award pays the full reward; verifyLedger exact", async () => {
    const { creator, mission } = await openMission(t, {
      reward: { asset: "USDC", amount: "10000000" },
      verification: { type: "creator_judges", params: { appeal: false } },
    });
    const backer = await signIn(t);
    await credit(t, backer.address, 7_000_000n);
    expectError(await amend(mission.id, { kind: "top_up", amount: "1" }), 401, "UNAUTHORIZED");
    expectError(await amend(mission.id, { kind: "top_up", amount: "0" }, backer.token), 400, "INVALID_PARAMETER");
    expectError(await amend(mission.id, { kind: "top_up", amount: "-5" }, backer.token), 400, "INVALID_PARAMETER");
    expectError(await amend(mission.id, { kind: "top_up", amount: "1.5" }, backer.token), 400, "INVALID_PARAMETER");
    const broke = await amend(mission.id, { kind: "top_up", amount: "8000000" }, backer.token);
    expectError(broke, 409, "INSUFFICIENT_BALANCE");
    expectError(
      await amend("mis_01JZ0000000000000000000000", { kind: "top_up", amount: "1" }, backer.token),
      404,
      "NOT_FOUND",
    );

    const key = { "idempotency-key": "topup-1" };
    const r = await amend(mission.id, { kind: "top_up", amount: "5000000" }, backer.token, key);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      kind: "top_up",
      status: "applied",
      rail: "ledger",
      amount: "5000000",
      actor: backer.address,
    });
    expect(r.body.changes).toEqual({ reward: { from: "10000000", to: "15000000" } });
    const replay = await amend(mission.id, { kind: "top_up", amount: "5000000" }, backer.token, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.id).toBe(r.body.id);
    const reused = await amend(mission.id, { kind: "top_up", amount: "1" }, backer.token, key);
    expectError(reused, 422, "UNPROCESSABLE");
    expect(await usdc(backer.address)).toBe(2_000_000n);
    // Reflected in the feeds: the current reward and the amendment count.
    const rss = (await t.call("GET", "/feed.xml")).text;
    const item = rss.slice(rss.indexOf(`<oabp:id>${mission.id}</oabp:id>`));
    expect(item).toContain("<oabp:reward_amount>15000000</oabp:reward_amount>");
    expect(item).toContain("<oabp:amendments_count>1</oabp:amendments_count>");
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
      reward: { amount: "15000000" },
      amendments_count: 1,
    });

    const { solver, award } = await submittedAndAwarded(t, mission.id, creator, "k");
    expect(award.body, award.text).toMatchObject({ status: "resolved" });
    // 15 USDC − 0.5 % fee.
    expect(await usdc(solver.address)).toBe(15_000_000n - 75_000n);
    const late = await amend(mission.id, { kind: "top_up", amount: "1" }, backer.token);
    expectError(late, 409, "MISSION_NOT_OPEN");
    expect(late.body.details.reason).toBe("mission_decided");
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("a void refunds each funder its own part: the creator its reward, each backer its top-up", async () => {
    const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount: "10000000" } });
    const before = await usdc(creator.address);
    const a = await signIn(t);
    const b = await signIn(t);
    await credit(t, a.address, 3_000_000n);
    await credit(t, b.address, 4_000_000n);
    expect((await amend(mission.id, { kind: "top_up", amount: "3000000" }, a.token)).status).toBe(201);
    expect((await amend(mission.id, { kind: "top_up", amount: "4000000" }, b.token)).status).toBe(201);
    expect((await amend(mission.id, { kind: "top_up", amount: "1000000" }, creator.token)).status).toBe(201);
    const v = await t.call("POST", `/missions/${mission.id}/void`, { token: creator.token });
    expect(v.body, v.text).toMatchObject({ status: "voided" });
    expect(await usdc(a.address)).toBe(3_000_000n);
    expect(await usdc(b.address)).toBe(4_000_000n);
    expect(await usdc(creator.address)).toBe(before + 10_000_000n);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("the log pages by seq; another creator's hidden mission and a bad cursor are clear errors", async () => {
    const { creator, mission } = await openMission(t);
    for (let i = 1; i <= 3; i++) {
      const r = await amend(
        mission.id,
        { kind: "extend_deadline", deadline: new Date(Date.parse(mission.deadline) + i * DAY).toISOString() },
        creator.token,
      );
      expect(r.status).toBe(201);
    }
    const p1 = (await t.call("GET", `/missions/${mission.id}/amendments?limit=2`)).body;
    expect(p1.amendments.map((a: { seq: number }) => a.seq)).toEqual([1, 2]);
    const p2 = (await t.call("GET", `/missions/${mission.id}/amendments?limit=2&cursor=${p1.next_cursor}`)).body;
    expect(p2.amendments.map((a: { seq: number }) => a.seq)).toEqual([3]);
    expect(p2.next_cursor).toBeNull();
    expectError(await t.call("GET", `/missions/${mission.id}/amendments?cursor=abc`), 400, "INVALID_PARAMETER");
    expectError(await t.call("GET", `/missions/${mission.id}/amendments?limit=1000`), 400, "INVALID_PARAMETER");
    expectError(await t.call("GET", `/missions/mis_01JZ0000000000000000000000/amendments`), 404, "NOT_FOUND");
    expectError(await amend(mission.id, { kind: "rename" }, creator.token), 400, "INVALID_PARAMETER");
  });

  it("MCP amend_mission runs the same verb: an edit by the creator, a stranger's extension refused", async () => {
    const { creator, mission } = await openMission(t);
    const other = await signIn(t);
    const session = await openSession(t, creator.token);
    const ok = await callTool(
      t,
      session,
      "amend_mission",
      { mission_id: mission.id, amendment: { kind: "edit", title: "Edited over MCP" } },
      creator.token,
    );
    expect(ok.isError, ok.content[0]!.text).toBe(false);
    expect(JSON.parse(ok.content[0]!.text)).toMatchObject({ kind: "edit", status: "applied", seq: 1 });
    expect((await t.call("GET", `/missions/${mission.id}`)).body.title).toBe("Edited over MCP");
    const s2 = await openSession(t, other.token);
    const denied = await callTool(
      t,
      s2,
      "amend_mission",
      {
        mission_id: mission.id,
        amendment: { kind: "extend_deadline", deadline: new Date(Date.parse(mission.deadline) + DAY).toISOString() },
      },
      other.token,
    );
    expect(denied.isError).toBe(true);
    expect(JSON.parse(denied.content[0]!.text)).toMatchObject({
      error: "FORBIDDEN",
      details: { reason: "creator_only" },
    });
  });

  it("creator-only top-ups when the operator says so", async () => {
    const t2 = await makeTestApp({ OABP_TOPUP_BY_ANYONE: "false" }, { limits: { amendmentsMaxPerMission: 1 } });
    try {
      const { creator, mission } = await openMission(t2);
      const other = await signIn(t2);
      await credit(t2, other.address, 1_000n);
      const r = await t2.call("POST", `/missions/${mission.id}/amendments`, {
        token: other.token,
        body: { kind: "top_up", amount: "1000" },
      });
      expectError(r, 403, "FORBIDDEN");
      expect(r.body.details.reason).toBe("creator_only");
      const ok = await t2.call("POST", `/missions/${mission.id}/amendments`, {
        token: creator.token,
        body: { kind: "top_up", amount: "1000" },
      });
      expect(ok.status, ok.text).toBe(201);
      const full = await t2.call("POST", `/missions/${mission.id}/amendments`, {
        token: creator.token,
        body: { kind: "top_up", amount: "1000" },
      });
      expectError(full, 409, "CONFLICT");
      expect(full.body.details.reason).toBe("too_many_amendments");
    } finally {
      await t2.close();
    }
  });
});
