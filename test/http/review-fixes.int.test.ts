import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { ADMIN_TOKEN, makeTestApp, type TestApp } from "../helpers/app";
import { credit, missionBody, newAccount, openMission, signIn } from "../helpers/agents";

// Inputs a review found could reach a 500, and the /api aliases of the probes.
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t?.close());

describe("no 500 for hostile text", () => {
  it("a NUL character in a filter, a mission, a profile or submission metadata is a 400", async () => {
    for (const q of ["tag=a%00", "asset=a%00", "q=a%00b"]) {
      const r = await t.call("GET", `/missions?${q}`);
      expect(r.status, q).toBeLessThan(500);
    }
    expect((await t.call("GET", "/missions?tag=a%00")).status).toBe(400);
    const creator = await signIn(t);
    await credit(t, creator.address, "1000000000");
    const title = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { title: "bad\u0000title" }),
    });
    expect(title.status).toBe(400);
    expect(title.body).toMatchObject({ error: "INVALID_PARAMETER", details: { reason: "invalid_text" } });
    const params = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { verification: { type: "creator_judges", params: { note: "a\u0000" } } }),
    });
    expect(params.status).toBe(400);
    expect((await t.call("GET", `/agents/${creator.address}/balance`)).body.aigen_balance).toBe(1000000000);
    expect(
      (await t.call("PUT", `/agents/${creator.address}`, { token: creator.token, body: { display_name: "x\u0000" } }))
        .status,
    ).toBe(400);
    const { mission } = await openMission(t);
    const solver = await signIn(t);
    expect(
      (
        await t.call("POST", `/missions/${mission.id}/submissions`, {
          token: solver.token,
          body: { content: "ok", metadata: { k: "\u0000" } },
        })
      ).status,
    ).toBe(400);
    expect((await t.call("GET", `/missions/${mission.id}`)).body.submission_count).toBe(0);
  });
});

describe("ledger bounds", () => {
  it("a credit that would push a balance past uint256 is refused with 422, nothing written", async () => {
    // Its own app: `external` holds minus everything ever credited, so the bound applies to it too.
    const t = await makeTestApp();
    onTestFinished(() => t.close());
    const a = newAccount().address;
    const max = ((1n << 256n) - 1n).toString();
    expect(
      (
        await t.call("POST", "/admin/ledger/credit", {
          token: ADMIN_TOKEN,
          body: { agent_id: a, asset: "USDC", amount: max },
        })
      ).status,
    ).toBe(200);
    const r = await t.call("POST", "/admin/ledger/credit", {
      token: ADMIN_TOKEN,
      body: { agent_id: a, asset: "USDC", amount: "1" },
    });
    expect(r.status).toBe(422);
    expect(r.body.details.reason).toBe("balance_overflow");
    const bal = (await t.call("GET", `/agents/${a}/balance`)).body;
    expect(bal.balances[0].available).toBe(max);
    // AIP-1 §8 "aigen_balance": <int> — saturates at 2^53−1 rather than becoming a float (README decisions).
    expect(bal.aigen_balance).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("/api aliases of the probes", () => {
  it("/api/health and /api/ready answer like /health and /ready", async () => {
    expect((await t.call("GET", "/api/health")).body).toEqual({ status: "ok" });
    expect((await t.call("GET", "/api/ready")).status).toBe(200);
  });
});

describe("housekeeping", () => {
  it("unrelated writes (nonces) do not flush the mission-list cache", async () => {
    await openMission(t);
    await t.call("GET", "/missions?limit=7");
    const misses = t.deps.missionLists.misses;
    for (let i = 0; i < 5; i++) {
      await t.call("POST", "/auth/nonce");
      await t.call("GET", "/missions?limit=7");
    }
    expect(t.deps.missionLists.misses - misses).toBeLessThanOrEqual(1); // at most a late NOTIFY
  });

  it("expired nonces and sessions are purged by the job runner", async () => {
    const { purgeExpiredAuth } = await import("../../src/jobs/purge");
    const { authNonces } = await import("../../src/db/schema/index");
    await t.call("POST", "/auth/nonce");
    await signIn(t);
    t.clock.advance(2 * 86_400_000);
    expect(await purgeExpiredAuth(t.deps)).toBeGreaterThanOrEqual(2);
    expect(await t.deps.database.db.select().from(authNonces)).toEqual([]);
  });
});

describe("Idempotency-Key retries", () => {
  it("a retry after the deadline has passed still replays the original 201 (no second escrow)", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, "1000000000");
    const body = missionBody(t, { deadline: new Date(t.clock.now().getTime() + 3_600_000).toISOString() });
    const headers = { "idempotency-key": "retry-late" };
    const first = await t.call("POST", "/missions", { token: creator.token, body, headers });
    expect(first.status).toBe(201);
    t.clock.advance(2 * 3_600_000);
    const again = await t.call("POST", "/missions", { token: creator.token, body, headers });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const changed = await t.call("POST", "/missions", {
      token: creator.token,
      body: { ...body, title: "other" },
      headers,
    });
    expect(changed.status).toBe(422);
  });
});

describe("job robustness", () => {
  it("a mission whose step throws is pushed back; the other due missions still advance", async () => {
    const { sweepDueMissions } = await import("../../src/jobs/sweeper");
    const { missions } = await import("../../src/db/schema/index");
    const { eq } = await import("drizzle-orm");
    const broken = (await openMission(t)).mission;
    const healthy = (await openMission(t)).mission;
    // Corrupt one mission so its step cannot run (a peer_vote phase without a voting_deadline).
    await t.deps.database.db
      .update(missions)
      .set({ verificationType: "peer_vote", status: "escrowed", phase: "voting", verificationParams: {} })
      .where(eq(missions.id, broken.id));
    t.clock.set(new Date(new Date(healthy.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps);
    expect((await t.call("GET", `/missions/${healthy.id}`)).body.status).toBe("voided");
    const [b] = await t.deps.database.db.select().from(missions).where(eq(missions.id, broken.id));
    expect(b!.nextActionAt!.getTime()).toBeGreaterThan(t.clock.now().getTime());
  });
});
