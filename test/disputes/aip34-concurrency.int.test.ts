import { describe, expect, it } from "vitest";
import { openMission, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { dupClaim, sameSecondAnswers, serveSameAnswer } from "../helpers/same-answer";
import { useTestApp } from "../helpers/suite-app";

// AIP-4 §6.1 limits and a dispute's single decision under real concurrency (PGlite is one
// connection, so this runs on the Postgres server named by DATABASE_URL).
describe.runIf(onRealPostgres)("AIP-4 on real Postgres", () => {
  const t = useTestApp(
    { OABP_TRUST_PROXY: "true" },
    { poolMax: 16, limits: { disputesMaxOpenPerMission: 4, disputesMaxPerMission: 20 } },
  );
  const evidence = { description: "loose rule" };

  it("12 concurrent anonymous bad_spec filings from one IP → exactly 5 filed, 7 × 429", async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, async () => (await openMission(t)).mission.id as string));
    const results = await Promise.all(
      ids.map((id) =>
        t.call("POST", "/api/disputes", {
          body: { dispute_type: "bad_spec", mission_id: id, filed_by: "anonymous", evidence },
          headers: { "x-forwarded-for": "198.51.100.7" },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(7);
    for (const r of limited) expect(r.body).toMatchObject({ error: "rate_limited", dispute_type: "bad_spec" });
  });

  it("the creator's concession and the operator's ruling race: one decides, the mission is voided once", async () => {
    const { creator, mission } = await openMission(t);
    const filer = await signIn(t);
    const d = (
      await t.call("POST", "/api/disputes", {
        token: filer.token,
        body: { dispute_type: "bad_spec", mission_id: mission.id, evidence },
      })
    ).body;
    const balance = async () => BigInt((await t.call("GET", `/agents/${creator.address}/balance`)).body.aigen_balance);
    const before = await balance();
    const rulings = await Promise.all([
      t.call("POST", `/api/disputes/${d.dispute_id}/resolve`, {
        token: creator.token,
        body: { outcome: "upheld", rationale: "conceded" },
      }),
      t.call("POST", `/api/disputes/${d.dispute_id}/resolve`, {
        token: "test-admin-token-0123456789abcdef",
        body: { outcome: "upheld", rationale: "operator" },
      }),
      t.call("POST", `/api/disputes/${d.dispute_id}/resolve`, {
        token: creator.token,
        body: { outcome: "upheld", rationale: "again" },
      }),
    ]);
    expect(rulings.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ status: "voided", resolution_reason: "dispute_bad_spec" });
    expect(await balance()).toBe(before + 100_000_000n); // refunded exactly once
  });

  it("10 distinct filers race on one mission → exactly 4 open disputes (the per-mission bound), 6 × 429", async () => {
    const { mission } = await openMission(t);
    const filers = await Promise.all(Array.from({ length: 10 }, () => signIn(t)));
    const results = await Promise.all(
      filers.map((f) =>
        t.call("POST", "/api/disputes", {
          token: f.token,
          body: { dispute_type: "bad_spec", mission_id: mission.id, evidence },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 429)).toHaveLength(6);
    const listed = (await t.call("GET", `/api/disputes?mission_id=${mission.id}`)).body.disputes;
    expect(listed).toHaveLength(4);
  });

  it("dup_claim: 5 racing filings from each of two filers → exactly 3 each (AIP-4 §6.1: 3 per mission)", async () => {
    const answer = await serveSameAnswer();
    try {
      const { mission, a, b, sa, sb } = await sameSecondAnswers(t, answer);
      const claim = (who: { token: string }, mine: string, other: string) =>
        t.call("POST", "/api/disputes", { token: who.token, body: dupClaim(mission.id, mine, other) });
      const results = await Promise.all([
        ...Array.from({ length: 5 }, () => claim(a, sa.id, sb.id)),
        ...Array.from({ length: 5 }, () => claim(b, sb.id, sa.id)),
      ]);
      const byFiler = (from: number) => results.slice(from, from + 5).map((r) => r.status);
      expect(byFiler(0).filter((s) => s === 201)).toHaveLength(3);
      expect(byFiler(0).filter((s) => s === 429)).toHaveLength(2);
      expect(byFiler(5).filter((s) => s === 201)).toHaveLength(3);
      expect(byFiler(5).filter((s) => s === 429)).toHaveLength(2);
    } finally {
      await answer.rx.close();
    }
  });
});
