import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { agentRecords, missions } from "../../src/db/schema/index";
import { expireClaims } from "../../src/features/claims/claims.expire";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { makeTestApp } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";
import { awardedTo } from "../helpers/mission-flow";

// Creator and claimer track records — counters kept by triggers in the
// transactions that change state, shown on the profile, on each mission, in the feeds, and usable
// as discovery filters; the migration's backfill gives the same numbers from existing rows.

const t = useTestApp({ OABP_SESSION_TTL_SECONDS: String(30 * 86_400) });

const HOUR = 3_600_000;
type Agent = Awaited<ReturnType<typeof signIn>>;
async function creator(): Promise<Agent> {
  const c = await signIn(t);
  await credit(t, c.address, 10_000_000_000n);
  return c;
}
async function post(c: Agent, over: Record<string, unknown> = {}) {
  const r = await t.call("POST", "/missions", {
    token: c.token,
    body: missionBody(t, { verification: { type: "creator_judges", params: { appeal: false } }, ...over }),
  });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; deadline: string };
}
async function submit(missionId: string, a: Agent) {
  const r = await t.call("POST", `/missions/${missionId}/submissions`, {
    token: a.token,
    body: { content: `answer from ${a.address}` },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.id as string;
}
const profile = async (a: string) => (await t.call("GET", `/agents/${a}`)).body;
const listIds = async (q: string) =>
  ((await t.call("GET", `/missions?${q}`)).body.missions as { id: string }[]).map((m) => m.id);

describe("creator record", () => {
  it("counts posted, paid, voided, never judged and the median delay, on the profile, the mission, the list and the feed", async () => {
    const c = await creator();
    const solver = await signIn(t);
    expect((await profile(c.address)).creator_record).toMatchObject({ missions_posted: 0, paid_ratio: null });

    const judged = await post(c); // awarded 2 h after its deadline
    const neglected = await post(c); // never judged: the default award pays it
    const voided = await post(c); // voided by its creator
    const open = await post(c, { deadline: new Date(t.clock.now().getTime() + 60 * 86_400_000).toISOString() });
    const s1 = await submit(judged.id, solver);
    await submit(neglected.id, solver);
    expect((await t.call("POST", `/missions/${voided.id}/void`, { token: c.token })).status).toBe(200);

    t.clock.set(new Date(Date.parse(judged.deadline) + 2 * HOUR));
    await sweepDueMissions(t.deps);
    const award = await awardedTo(t, judged.id, c, s1);
    expect(award.body.status).toBe("resolved");
    t.clock.advance(t.deps.config.judgingWindowSeconds * 1000);
    await sweepDueMissions(t.deps);
    expect((await t.call("GET", `/missions/${neglected.id}`)).body.resolution_reason).toBe(
      "default_award_judging_expired",
    );

    const rec = (await profile(c.address)).creator_record;
    expect(rec).toEqual({
      missions_posted: 4,
      missions_paid: 2,
      missions_voided: 1,
      missions_voided_with_submissions: 0,
      missions_never_judged: 1,
      disputes_lost: 0,
      paid_ratio: 1,
      // delays [7200, judging window]: the lower middle of two
      median_award_delay_seconds: 7200,
      awards_measured: 2,
    });
    const compact = {
      posted: 4,
      paid: 2,
      voided: 1,
      never_judged: 1,
      disputes_lost: 0,
      paid_ratio: 1,
      median_award_delay_seconds: 7200,
    };
    expect((await t.call("GET", `/missions/${open.id}`)).body.creator_record).toEqual(compact);
    const listed = (await t.call("GET", `/missions?creator=${c.address}`)).body.missions;
    expect(listed.map((m: { creator_record: unknown }) => m.creator_record)).toEqual(listed.map(() => compact));
    // The feed: a summary line and the oabp:creator_record element.
    const rss = (await t.call("GET", `/feed.xml?creator=${c.address}`)).text;
    expect(rss).toContain("Creator: 4 posted, 2 paid (100% paid), 1 voided, 1 never judged, 0 disputes lost");
    expect(rss).toMatch(/<oabp:creator_record [^>]*never_judged="1"[^>]*\/>/);
    // The solver: one claim-less career.
    expect((await profile(solver.address)).solver_record).toEqual({ claims_made: 0, claims_abandoned: 0 });
  });

  it("a payment turned into a refund moves the mission from paid to voided with submissions (trigger, same statement)", async () => {
    const c = await creator();
    const solver = await signIn(t);
    const m = await post(c, { deadline: new Date(t.clock.now().getTime() + HOUR).toISOString() });
    const s = await submit(m.id, solver);
    t.clock.advance(2 * HOUR);
    await sweepDueMissions(t.deps);
    await awardedTo(t, m.id, c, s);
    expect((await profile(c.address)).creator_record).toMatchObject({ missions_paid: 1, paid_ratio: 1 });
    await t.deps.database.db
      .update(missions)
      .set({ status: "voided", resolutionReason: "payout_converted_to_refund" })
      .where(eq(missions.id, m.id));
    expect((await profile(c.address)).creator_record).toMatchObject({
      missions_paid: 0,
      missions_voided: 1,
      missions_voided_with_submissions: 1,
      paid_ratio: 0,
    });
  });
});

describe("disputes lost", () => {
  it("an AIP-4 bad_spec dispute conceded by the creator is a dispute lost, and the work is paid (no void)", async () => {
    const c = await creator();
    const solver = await signIn(t);
    const m = await post(c, { verification: { type: "first_valid_match", params: { expected: "0x" } } });
    const wrong = await t.call("POST", `/missions/${m.id}/submissions`, {
      token: solver.token,
      body: { content: "no prefix here" },
    });
    expect(wrong.body).toMatchObject({ status: "rejected", reason: "expected_not_matched" });
    const filed = await t.call("POST", "/api/disputes", {
      body: {
        dispute_type: "bad_spec",
        mission_id: m.id,
        submission_id: "any",
        filed_by: "anonymous",
        evidence: { description: "The rule accepts any 0x string, not the stated criteria" },
      },
    });
    expect(filed.status, filed.text).toBe(201);
    const upheld = await t.call("POST", `/api/disputes/${filed.body.dispute_id}/resolve`, {
      token: c.token,
      body: { outcome: "upheld", rationale: "too loose" },
    });
    expect(upheld.status, upheld.text).toBe(200);
    expect((await profile(c.address)).creator_record).toMatchObject({
      missions_posted: 1,
      missions_paid: 1, // the rule's rejection voided: the default policy paid the solver
      missions_voided: 0,
      missions_voided_with_submissions: 0,
      disputes_lost: 1,
      paid_ratio: 1,
    });
  });
});

describe("discovery filters", () => {
  it("creator_min_paid_ratio and creator_max_never_judged select creators by record", async () => {
    const good = await creator(); // one paid mission, ratio 1
    const fresh = await creator(); // no decided mission: no ratio
    const solver = await signIn(t);
    const paid = await post(good, { deadline: new Date(t.clock.now().getTime() + HOUR).toISOString() });
    const s = await submit(paid.id, solver);
    t.clock.advance(2 * HOUR);
    await sweepDueMissions(t.deps);
    expect(
      (
        await t.call("POST", `/missions/${paid.id}/award`, {
          token: good.token,
          body: { winners: [{ submission_id: s }] },
        })
      ).status,
    ).toBe(200);
    const goodOpen = await post(good);
    const freshOpen = await post(fresh);
    await t.deps.database.db
      .update(agentRecords)
      .set({ missionsNeverJudged: 3 })
      .where(eq(agentRecords.agentId, fresh.address));

    const byRatio = await listIds("status=open&creator_min_paid_ratio=0.9&limit=100");
    expect(byRatio).toContain(goodOpen.id);
    expect(byRatio).not.toContain(freshOpen.id);
    const byNeglect = await listIds("status=open&creator_max_never_judged=0&limit=100");
    expect(byNeglect).toContain(goodOpen.id);
    expect(byNeglect).not.toContain(freshOpen.id);
    expect(await listIds("status=open&creator_max_never_judged=3&limit=100")).toContain(freshOpen.id);
    // Bad input: a clear 400.
    for (const q of ["creator_min_paid_ratio=1.5", "creator_min_paid_ratio=x", "creator_max_never_judged=-1"]) {
      const r = await t.call("GET", `/missions?${q}`);
      expect(r.status, r.text).toBe(400);
      expect(r.body.error).toBe("INVALID_PARAMETER");
    }
  });
});

describe("solver record", () => {
  it("claims released or expired without a submission are abandoned; a claim followed by work is not", async () => {
    const c = await creator();
    const solver = await signIn(t);
    const [m1, m2, m3] = [await post(c), await post(c), await post(c)];
    const claim = (id: string) => t.call("POST", `/missions/${id}/claims`, { token: solver.token });
    expect((await claim(m1.id)).status).toBe(201);
    expect((await claim(m1.id)).status).toBe(200); // a renewal is not a new claim
    expect((await t.call("DELETE", `/missions/${m1.id}/claims`, { token: solver.token })).status).toBe(204);
    expect((await claim(m2.id)).status).toBe(201);
    await submit(m2.id, solver);
    expect((await t.call("DELETE", `/missions/${m2.id}/claims`, { token: solver.token })).status).toBe(204);
    expect((await claim(m3.id)).status).toBe(201);
    t.clock.advance(t.deps.config.claimTtlSeconds * 1000 + 1000);
    await expireClaims(t.deps);
    expect((await profile(solver.address)).solver_record).toEqual({ claims_made: 3, claims_abandoned: 2 });
  });
});

describe("backfill", () => {
  it("the migration's backfill recomputes the counters the triggers kept", async () => {
    // A database of its own: the other tests edit counters by hand.
    const b = await makeTestApp({ OABP_SESSION_TTL_SECONDS: String(30 * 86_400) });
    try {
      const c = await signIn(b);
      await credit(b, c.address, 10_000_000_000n);
      const solver = await signIn(b);
      const body = (over: Record<string, unknown> = {}) => ({
        body: missionBody(b, { verification: { type: "creator_judges", params: { appeal: false } }, ...over }),
        token: c.token,
      });
      const paid = (await b.call("POST", "/missions", body())).body;
      const voided = (await b.call("POST", "/missions", body())).body;
      const open = (
        await b.call(
          "POST",
          "/missions",
          body({ deadline: new Date(b.clock.now().getTime() + 30 * 86_400_000).toISOString() }),
        )
      ).body;
      const s = (
        await b.call("POST", `/missions/${paid.id}/submissions`, { token: solver.token, body: { content: "x" } })
      ).body.id;
      expect((await b.call("POST", `/missions/${voided.id}/void`, { token: c.token })).status).toBe(200);
      expect((await b.call("POST", `/missions/${open.id}/claims`, { token: solver.token })).status).toBe(201);
      expect((await b.call("DELETE", `/missions/${open.id}/claims`, { token: solver.token })).status).toBe(204);
      b.clock.set(new Date(Date.parse(paid.deadline) + 5 * HOUR));
      await sweepDueMissions(b.deps);
      const a = await b.call("POST", `/missions/${paid.id}/award`, {
        token: c.token,
        body: { winners: [{ submission_id: s }] },
      });
      expect(a.status, a.text).toBe(200);

      const db = b.deps.database.db;
      const snapshot = async () =>
        (await db.select().from(agentRecords)).sort((x, y) => x.agentId.localeCompare(y.agentId));
      const kept = await snapshot();
      expect(kept).toHaveLength(2);
      expect(kept.find((r) => r.agentId === c.address)).toMatchObject({
        missionsPosted: 3,
        missionsPaid: 1,
        missionsVoided: 1,
        awardDelays: [5 * 3600],
      });
      const file = readdirSync("drizzle").find((f) => f.endsWith("_record_track_eligibility.sql"))!;
      const statements = readFileSync(`drizzle/${file}`, "utf8")
        .split("--> statement-breakpoint")
        .map((x) => x.trim());
      const from = statements.findIndex((x) => x.startsWith("-- Backfill"));
      expect(from).toBeGreaterThan(0);
      await db.transaction(async (tx) => {
        await tx.execute(sql`delete from agent_records`);
        for (const x of statements.slice(from)) await tx.execute(sql.raw(x));
      });
      expect(await snapshot()).toEqual(kept);
    } finally {
      await b.close();
    }
  });
});
