import { describe, expect, it } from "vitest";
import { expireClaims } from "../../src/features/claims/claims.expire";
import { makeTestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { useTestApp } from "../helpers/suite-app";

// Exclusive claims under real concurrency. PGlite is one connection, so
// this runs on the Postgres server named by DATABASE_URL (CI runs the suite on both).
describe.runIf(onRealPostgres)("claims on real Postgres", () => {
  const t = useTestApp({ OABP_SESSION_TTL_SECONDS: String(30 * 86_400) }, { poolMax: 32 });

  const HOUR = 3_600_000;
  const claimAll = (missionId: string, tokens: string[]) =>
    Promise.all(tokens.map((token) => t.call("POST", `/missions/${missionId}/claims`, { token })));

  it("30 concurrent claims on an exclusive mission → exactly one holder; expiry of the window frees it", async () => {
    const { mission } = await openMission(t, { exclusive_claim_ttl: 3600 });
    const agents = await Promise.all(Array.from({ length: 30 }, () => signIn(t)));
    const results = await claimAll(
      mission.id,
      agents.map((a) => a.token),
    );
    const won = results.filter((r) => r.status === 201);
    const lost = results.filter((r) => r.status === 409);
    expect(won, JSON.stringify(results.filter((r) => r.status !== 409).map((r) => r.text))).toHaveLength(1);
    expect(lost).toHaveLength(29);
    for (const r of lost) expect(r.body.details).toMatchObject({ reason: "exclusively_claimed" });
    const holder = won[0]!.body.agent_id as string;
    const list = (await t.call("GET", `/missions/${mission.id}/claims`)).body;
    expect(list).toMatchObject({
      claim_count: 1,
      exclusive: { agent_id: holder },
      claims: [{ agent_id: holder, exclusive: true }],
    });
    expect((await t.call("GET", `/missions/${mission.id}`)).body.claim_count).toBe(1);

    // The window ends (injected clock): the slot is free for the others, concurrently again —
    // nobody gets a new exclusive window while the first claimer still holds a claim.
    t.clock.advance(HOUR);
    const rest = agents.filter((a) => a.address !== holder);
    const after = await claimAll(
      mission.id,
      rest.slice(0, 10).map((a) => a.token),
    );
    expect(after.map((r) => r.status)).toEqual(Array(10).fill(201));
    for (const r of after) expect(r.body.exclusive).toBe(false);
    expect((await t.call("GET", `/missions/${mission.id}`)).body.claim_count).toBe(11);
  });

  it("30 concurrent claims with max_claims 1 → one holder; its expiry frees the slot for exactly one more", async () => {
    const { mission } = await openMission(t, { max_claims: 1, exclusive_claim_ttl: 600 });
    const agents = await Promise.all(Array.from({ length: 30 }, () => signIn(t)));
    const first = await claimAll(
      mission.id,
      agents.map((a) => a.token),
    );
    expect(first.filter((r) => r.status === 201)).toHaveLength(1);
    expect(first.filter((r) => r.status === 409)).toHaveLength(29);
    // After the window, the slot is still taken (max_claims 1) until the claim itself expires.
    t.clock.advance(HOUR);
    const during = await claimAll(
      mission.id,
      agents.map((a) => a.token),
    );
    expect(during.filter((r) => r.status === 201)).toHaveLength(0);
    expect(during.filter((r) => r.status === 200)).toHaveLength(1); // the holder renewing
    t.clock.advance(25 * HOUR);
    // Expired: computed with the clock, whether or not the job ran; race the job too.
    const [, second] = await Promise.all([
      expireClaims(t.deps),
      claimAll(
        mission.id,
        agents.map((a) => a.token),
      ),
    ]);
    expect(second.filter((r) => r.status === 201)).toHaveLength(1);
    expect(second.filter((r) => r.status === 409)).toHaveLength(29);
    await expireClaims(t.deps);
    expect((await t.call("GET", `/missions/${mission.id}`)).body.claim_count).toBe(1);
    expect((await t.call("GET", `/missions/${mission.id}/claims`)).body.claim_count).toBe(1);
  });

  it("one agent claiming 10 missions at once never exceeds its per-agent cap", async () => {
    const app = await makeTestApp({}, { poolMax: 16, limits: { claimMaxPerAgent: 3 } });
    try {
      const a = await signIn(app);
      const missions = [];
      for (let i = 0; i < 10; i++) missions.push((await openMission(app)).mission);
      const results = await Promise.all(
        missions.map((m) => app.call("POST", `/missions/${m.id}/claims`, { token: a.token })),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(3);
      expect(results.filter((r) => r.status === 409 && r.body.details.reason === "claim_limit")).toHaveLength(7);
    } finally {
      await app.close();
    }
  });
});
