import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { missionClaims } from "../../src/db/schema/index";
import { expireClaims } from "../../src/features/claims/claims.expire";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { makeTestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";
import { acceptedSubmission, awardedTo } from "../helpers/mission-flow";

// Mission claims: a visible intent to work with a TTL, renewable, counted on
// the mission, optionally exclusive for a window; never a say in who is paid. Time comes from the
// manual clock; the expiry job is called directly.

// Sessions outlive the day-long clock jumps below.
const t = useTestApp({ OABP_SESSION_TTL_SECONDS: String(30 * 86_400) }, { limits: { claimMaxPerAgent: 3 } });

const HOUR = 3_600_000;
const claim = (missionId: string, token?: string) => t.call("POST", `/missions/${missionId}/claims`, { token });
const release = (missionId: string, token?: string) => t.call("DELETE", `/missions/${missionId}/claims`, { token });
const claims = async (missionId: string) => (await t.call("GET", `/missions/${missionId}/claims`)).body;
const mission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;
const at = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

describe("anonymous claims (AIP-1 §1.4)", () => {
  it("no identity, an unbound api_key, a malformed body: 403 with exactly the §1.4 body", async () => {
    const { mission: m } = await openMission(t);
    for (const r of [
      await claim(m.id),
      await t.call("POST", `/missions/${m.id}/claims`, { headers: { "x-api-key": "not-bound-to-anyone" } }),
      await t.call("POST", `/api/missions/${m.id}/claims`, { body: "{not json" }),
      await t.call("POST", "/missions/garbage/claims"),
    ]) {
      expect(r.status, r.text).toBe(403);
      expect(r.body).toEqual({ error: "ANONYMOUS_SUBMISSION_REJECTED" });
      expect(r.headers.get("x-error-message")).toMatch(/identity/);
    }
    expect((await mission(m.id)).claim_count).toBe(0);
    expectError(await release(m.id), 401, "UNAUTHORIZED");
  });
});

describe("claim, renew, list, release", () => {
  it("claims with the default 24 h TTL, counted on the mission; POST again renews; DELETE releases", async () => {
    const { mission: m } = await openMission(t);
    expect(m).toMatchObject({ claim_count: 0, max_claims: null, exclusive_claim_ttl: null });
    const a = await signIn(t);
    const r = await claim(m.id, a.token);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^clm_/),
      mission_id: m.id,
      agent_id: a.address,
      status: "active",
      claimed_at: t.clock.now().toISOString(),
      renewed_at: null,
      expires_at: at(24 * HOUR),
      exclusive_until: null,
      exclusive: false,
    });
    expect((await mission(m.id)).claim_count).toBe(1);
    expect(await claims(m.id)).toMatchObject({
      mission_id: m.id,
      claim_count: 1,
      exclusive: null,
      claims: [r.body],
      next_cursor: null,
    });

    t.clock.advance(HOUR);
    const renewed = await t.call("POST", `/api/missions/${m.id}/claims`, { token: a.token });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body).toMatchObject({
      id: r.body.id,
      claimed_at: r.body.claimed_at,
      renewed_at: t.clock.now().toISOString(),
      expires_at: at(24 * HOUR),
    });
    expect((await mission(m.id)).claim_count).toBe(1);

    const b = await signIn(t);
    expect((await claim(m.id, b.token)).status).toBe(201);
    expect((await mission(m.id)).claim_count).toBe(2);
    expect((await claims(m.id)).claims.map((c: { agent_id: string }) => c.agent_id)).toEqual([a.address, b.address]);

    expect((await release(m.id, a.token)).status).toBe(204);
    expect((await mission(m.id)).claim_count).toBe(1);
    expect((await claims(m.id)).claims.map((c: { agent_id: string }) => c.agent_id)).toEqual([b.address]);
    const again = await release(m.id, a.token);
    expectError(again, 404, "NOT_FOUND");
    expect(again.body.details.reason).toBe("no_active_claim");
    // Claiming again after a release is a new claim, at the back of the line.
    const back = await claim(m.id, a.token);
    expect(back.status).toBe(201);
    expect(back.body.id).not.toBe(r.body.id);
    expect((await claims(m.id)).claims.map((c: { agent_id: string }) => c.agent_id)).toEqual([b.address, a.address]);
  });

  it("a claim never outlives the deadline; OABP_CLAIM_TTL_SECONDS sets the TTL", async () => {
    const { mission: m } = await openMission(t, { deadline: at(2 * HOUR) });
    const a = await signIn(t);
    expect((await claim(m.id, a.token)).body.expires_at).toBe(m.deadline);
    const app = await makeTestApp({ OABP_CLAIM_TTL_SECONDS: "600" });
    try {
      const { mission: m2 } = await openMission(app);
      const b = await signIn(app);
      const r = await app.call("POST", `/missions/${m2.id}/claims`, { token: b.token });
      expect(r.body.expires_at).toBe(new Date(app.clock.now().getTime() + 600_000).toISOString());
    } finally {
      await app.close();
    }
  });

  it("refusals: own mission 403, unknown 404, closed or past the deadline 409 MISSION_NOT_OPEN", async () => {
    const { creator, mission: m } = await openMission(t, { deadline: at(HOUR) });
    const own = await claim(m.id, creator.token);
    expectError(own, 403, "FORBIDDEN");
    expect(own.body.details.reason).toBe("own_mission");
    const a = await signIn(t);
    expectError(await claim("mis_01JZ0000000000000000000000", a.token), 404, "NOT_FOUND");
    expectError(await claim("garbage", a.token), 404, "NOT_FOUND");
    t.clock.advance(HOUR);
    expectError(await claim(m.id, a.token), 409, "MISSION_NOT_OPEN");
    const { creator: c2, mission: m2 } = await openMission(t);
    expect((await t.call("POST", `/missions/${m2.id}/void`, { token: c2.token })).status).toBe(200);
    expectError(await claim(m2.id, a.token), 409, "MISSION_NOT_OPEN");
  });

  it("the claim policy is validated at creation", async () => {
    const c = await signIn(t);
    const { credit, missionBody } = await import("../helpers/agents");
    await credit(t, c.address, 1_000_000_000n);
    for (const bad of [
      { max_claims: 0 },
      { max_claims: 1001 },
      { max_claims: 1.5 },
      { max_claims: "2" },
      { exclusive_claim_ttl: 59 },
      { exclusive_claim_ttl: 31 * 86_400 },
    ]) {
      expectError(
        await t.call("POST", "/missions", { token: c.token, body: missionBody(t, bad) }),
        400,
        "INVALID_PARAMETER",
      );
    }
    const ok = await t.call("POST", "/missions", {
      token: c.token,
      body: missionBody(t, { max_claims: 3, exclusive_claim_ttl: 3600 }),
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ claim_count: 0, max_claims: 3, exclusive_claim_ttl: 3600 });
  });
});

describe("expiry, max_claims, exclusivity", () => {
  it("an expired claim frees its slot at once (clock); the job brings claim_count and status up to date", async () => {
    const { mission: m } = await openMission(t, { max_claims: 1 });
    const [a, b] = [await signIn(t), await signIn(t)];
    expect((await claim(m.id, a.token)).status).toBe(201);
    const full = await claim(m.id, b.token);
    expectError(full, 409, "CONFLICT");
    expect(full.body.details).toMatchObject({ reason: "max_claims_reached", max_claims: 1 });

    t.clock.advance(24 * HOUR);
    expect(await claims(m.id)).toMatchObject({ claim_count: 0, claims: [] });
    expect((await mission(m.id)).claim_count).toBe(1); // stored count: until the job runs
    expect(await expireClaims(t.deps)).toBeGreaterThanOrEqual(1);
    expect((await mission(m.id)).claim_count).toBe(0);
    expectError(await release(m.id, a.token), 404, "NOT_FOUND");
    expect((await claim(m.id, b.token)).status).toBe(201);
    expect((await mission(m.id)).claim_count).toBe(1);
    expect(await expireClaims(t.deps)).toBe(0);
  });

  it("exclusive_claim_ttl: the first claimer holds the mission alone for the window, then others may claim", async () => {
    const { mission: m } = await openMission(t, { exclusive_claim_ttl: 2 * 3600 });
    const [a, b, c] = [await signIn(t), await signIn(t), await signIn(t)];
    const first = await claim(m.id, a.token);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ exclusive_until: at(2 * HOUR), exclusive: true });
    expect((await claims(m.id)).exclusive).toEqual({ agent_id: a.address, until: at(2 * HOUR) });
    const blocked = await claim(m.id, b.token);
    expectError(blocked, 409, "CONFLICT");
    expect(blocked.body.details).toEqual({ reason: "exclusively_claimed", held_until: at(2 * HOUR) });
    // The holder renews: a later expiry, the same window.
    t.clock.advance(HOUR);
    expect((await claim(m.id, a.token)).body).toMatchObject({ exclusive_until: at(HOUR), exclusive: true });

    t.clock.advance(HOUR); // the window is over; a keeps its (non-exclusive) claim
    expect((await claims(m.id)).exclusive).toBeNull();
    const second = await claim(m.id, b.token);
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ exclusive_until: null, exclusive: false });
    expect((await claims(m.id)).claim_count).toBe(2);
    expect((await claims(m.id)).claims[0]).toMatchObject({ agent_id: a.address, exclusive: false });

    // Everyone leaves; the next claimer is first again and gets a window of its own.
    expect((await release(m.id, a.token)).status).toBe(204);
    expect((await release(m.id, b.token)).status).toBe(204);
    expect((await claim(m.id, c.token)).body).toMatchObject({ exclusive: true, exclusive_until: at(2 * HOUR) });
    // Releasing ends the hold at once.
    expect((await release(m.id, c.token)).status).toBe(204);
    expect((await claims(m.id)).exclusive).toBeNull();
    expect((await claim(m.id, b.token)).status).toBe(201);
  });

  it("an agent holds at most CLAIM_MAX_PER_AGENT active claims (3 here); closed missions do not count", async () => {
    const a = await signIn(t);
    const ms = [];
    for (let i = 0; i < 4; i++) ms.push((await openMission(t)).mission);
    for (const m of ms.slice(0, 3)) expect((await claim(m.id, a.token)).status).toBe(201);
    const over = await claim(ms[3]!.id, a.token);
    expectError(over, 409, "CONFLICT");
    expect(over.body.details).toMatchObject({ reason: "claim_limit", limit: 3 });
    // Renewing is not a new claim.
    expect((await claim(ms[0]!.id, a.token)).status).toBe(200);
    expect((await release(ms[0]!.id, a.token)).status).toBe(204);
    expect((await claim(ms[3]!.id, a.token)).status).toBe(201);
  });

  it("claims never change who may submit or be paid: another agent submits during an exclusive hold and wins", async () => {
    const { creator, mission: m } = await openMission(t, { exclusive_claim_ttl: 86_400, max_claims: 1 });
    const [holder, other] = [await signIn(t), await signIn(t)];
    expect((await claim(m.id, holder.token)).status).toBe(201);
    expect((await claim(m.id, other.token)).status).toBe(409);
    const sub = await acceptedSubmission(t, m.id, other, "the answer");
    const award = await awardedTo(t, m.id, creator, sub.body.id);
    expect(award.body).toMatchObject({
      status: "resolved",
      resolution: { winner_agent_id: other.address },
      claim_count: 0,
    });
    expect((await t.call("GET", `/agents/${other.address}/balance`)).body.aigen_balance).toBe(99500000);
    // A closed mission has no active claims; they can still be released.
    expect(await claims(m.id)).toMatchObject({ claim_count: 0, claims: [], exclusive: null });
    expect((await release(m.id, holder.token)).status).toBe(204);
  });

  it("at the deadline claims end with the mission's submission window", async () => {
    const { mission: m } = await openMission(t, { deadline: at(3 * HOUR) });
    const a = await signIn(t);
    expect((await claim(m.id, a.token)).status).toBe(201);
    const sub = await t.call("POST", `/missions/${m.id}/submissions`, {
      token: (await signIn(t)).token,
      body: { content: "x" },
    });
    expect(sub.status).toBe(201);
    t.clock.advance(3 * HOUR);
    await sweepDueMissions(t.deps);
    expect((await claims(m.id)).claims).toEqual([]);
    await expireClaims(t.deps);
    expect(await mission(m.id)).toMatchObject({ status: "escrowed", claim_count: 0 });
    const [row] = await t.deps.database.db.select().from(missionClaims).where(eq(missionClaims.missionId, m.id));
    expect(row).toMatchObject({ status: "expired", endedAt: new Date(m.deadline) });
  });

  it("GET /missions/{id}/claims pages first claimer first", async () => {
    const { mission: m } = await openMission(t);
    const agents = [await signIn(t), await signIn(t), await signIn(t)];
    for (const a of agents) {
      expect((await claim(m.id, a.token)).status).toBe(201);
      t.clock.advance(1000);
    }
    const p1 = (await t.call("GET", `/missions/${m.id}/claims?limit=2`)).body;
    expect(p1.claims.map((c: { agent_id: string }) => c.agent_id)).toEqual(agents.slice(0, 2).map((a) => a.address));
    expect(p1.claim_count).toBe(3);
    const p2 = (await t.call("GET", `/missions/${m.id}/claims?limit=2&cursor=${p1.next_cursor}`)).body;
    expect(p2).toMatchObject({ next_cursor: null, claims: [{ agent_id: agents[2]!.address }] });
    expectError(await t.call("GET", `/missions/${m.id}/claims?cursor=bad`), 400, "INVALID_PARAMETER");
    expectError(await t.call("GET", "/missions/mis_01JZ0000000000000000000000/claims"), 404, "NOT_FOUND");
  });
});
