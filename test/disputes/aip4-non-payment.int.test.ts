import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { runPendingChecks } from "../../src/jobs/checks";
import { dupClaim, sameSecondAnswers, serveSameAnswer } from "../helpers/same-answer";
import { openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";
import { evidence, fileDispute } from "./aip4-filing";

// AIP-4 end to end through HTTP, the filings beside bad_spec (aip4.int.test.ts): non_payment's
// qualification, the §6.1 limits with the 429 body, and dup_claim decided by the arrival order.

// Behind a proxy: X-Forwarded-For gives the client IP, so the §6.1 test has its own bucket.
const t = useTestApp({ OABP_TRUST_PROXY: "true" });

const file = (body: Record<string, unknown>, token?: string) => fileDispute(t, body, token);

describe("AIP-4 non_payment", () => {
  it("qualifies only for the awarded submitter, after payment_sla_hours, while the payout is not made", async () => {
    const { creator, mission } = await openMission(t);
    const a = await signIn(t);
    const b = await signIn(t);
    const sa = (await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content: "a" } }))
      .body;
    const sb = (await t.call("POST", `/missions/${mission.id}/submissions`, { token: b.token, body: { content: "b" } }))
      .body;
    await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: sa.id }] },
    });
    const np = (who: { token: string }, sid: string) =>
      file(
        {
          dispute_type: "non_payment",
          mission_id: mission.id,
          submission_id: sid,
          evidence: { description: "not paid" },
        },
        who.token,
      );
    // The ledger rail pays in the resolution's own transaction: nothing to dispute.
    expect((await np(a, sa.id)).body.details).toMatchObject({ reason: "already_paid", payout_status: "confirmed" });
    expect((await np(b, sb.id)).body.details.reason).toBe("submission_not_accepted");
    expect((await np(b, sa.id)).body.details.reason).toBe("not_your_submission");
    expect(
      (await file({ dispute_type: "non_payment", mission_id: mission.id, evidence: { description: "x" } }, a.token))
        .body.details.reason,
    ).toBe("submission_required");
    // A stalled payout (as the base rail reports it when the treasury lacks gas).
    await t.deps.database.db.execute(sql`update missions set payout_status = 'pending_gas' where id = ${mission.id}`);
    const early = await np(a, sa.id);
    expect(early.body.details).toMatchObject({ reason: "sla_not_elapsed", eligible_at: "2026-06-03T00:00:00.000Z" });
    t.clock.advance(48 * 3_600_000);
    try {
      const r = await np(await signIn(t, a.account), sa.id);
      expect(r.status, r.text).toBe(201);
      expect(r.body).toMatchObject({
        status: "resolved",
        outcome: "upheld",
        resolution_actor: "server",
        corrective_action: { action: "retry_settlement" },
      });
    } finally {
      t.clock.advance(-48 * 3_600_000);
    }
  });
});

describe("AIP-4 §6.1 rate limits", () => {
  it("the sixth anonymous bad_spec in 30 days from one IP gets 429 with the AIP-4 body", async () => {
    const ip = { "x-forwarded-for": "203.0.113.9" };
    const missions = [];
    for (let i = 0; i < 6; i++) missions.push((await openMission(t)).mission.id);
    const sent = [];
    for (const id of missions)
      sent.push(
        await t.call("POST", "/api/disputes", {
          body: { dispute_type: "bad_spec", mission_id: id, filed_by: "anonymous", evidence },
          headers: ip,
        }),
      );
    expect(sent.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 429]);
    const limited = sent[5]!;
    expect(limited.body).toMatchObject({ error: "rate_limited", dispute_type: "bad_spec" });
    expect(new Date(limited.body.reset_at).getTime()).toBeGreaterThan(t.clock.now().getTime());
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // A signed-in filer has its own bucket.
    const a = await signIn(t);
    expect((await file({ dispute_type: "bad_spec", mission_id: missions[0], evidence }, a.token)).status).toBe(201);
  });
});

describe("AIP-4 dup_claim", () => {
  it("two valid answers in the same server second: the recorded arrival order decides at filing", async () => {
    const answer = await serveSameAnswer();
    const { rx, submit } = answer;
    try {
      const { mission, a, b, sa, sb } = await sameSecondAnswers(t, answer);
      expect((await t.call("GET", `/submissions/${sa.id}`)).body.status).toBe("accepted");
      const claim = (who: { token: string }, mine: string, other: string, missionId: string = mission.id) =>
        file(dupClaim(missionId, mine, other), who.token);
      const lost = await claim(b, sb.id, sa.id);
      expect(lost.status, lost.text).toBe(201);
      expect(lost.body).toMatchObject({
        status: "resolved",
        outcome: "rejected",
        resolution_actor: "server",
        // AIP-4 §6.3: the filer of a rejected dispute pays 5 rating points.
        corrective_action: { action: "filer_penalty", filer: b.address, penalty: -5 },
      });
      expect(lost.body.rationale).toContain(sa.id);
      const won = await claim(a, sa.id, sb.id);
      expect(won.body).toMatchObject({ outcome: "upheld", corrective_action: { action: "award_to_earliest" } });
      // Not the same second → refused.
      t.clock.advance(1000);
      try {
        const { mission: m2 } = await openMission(t, {
          verification: { type: "first_valid_match", params: { expected: "42" } },
        });
        const x = await submit(t, m2.id, await signIn(t, a.account), "/a");
        t.clock.advance(1000);
        const y = await submit(t, m2.id, await signIn(t, b.account), "/b");
        await runPendingChecks(t.deps);
        const r = await claim(await signIn(t, b.account), y.id, x.id, m2.id);
        expect(r.body.details.reason).toBe("not_same_second");
      } finally {
        t.clock.advance(-2000);
      }
    } finally {
      await rx.close();
    }
  });
});
