import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { PARTY_OPEN } from "../../src/features/disputes/disputes.bounds";
import { openMission, signIn } from "../helpers/agents";
import { resolveDispute } from "./aip4-filing";
import { useTestApp } from "../helpers/suite-app";
import { acceptedSubmission, awardedTo } from "../helpers/mission-flow";

// Caps that protect the parties (docs/aip-3-4.md "Dispute pools"): 200 anonymous filings from 40
// client networks fill the anonymous pool, never the parties' shares; non_payment is never shut
// out; rejected anonymous filings stop counting, so the mission is never closed for good.

// Behind a proxy: X-Forwarded-For names the client network of each anonymous filing.
const t = useTestApp({ OABP_TRUST_PROXY: "true" });

const evidence = { description: "The stated criteria and the rule disagree" };
const anonymousFiling = (missionId: string, network: number) =>
  t.call("POST", "/api/disputes", {
    body: { dispute_type: "bad_spec", mission_id: missionId, filed_by: "anonymous", evidence },
    headers: { "x-forwarded-for": `198.51.${100 + Math.floor(network / 200)}.${(network % 200) + 1}` },
  });

/** A resolved creator_judges mission whose winner's payout stalled (pending_gas). */
async function stalledPayout() {
  const { creator, mission } = await openMission(t);
  const solver = await signIn(t);
  const sub = await acceptedSubmission(t, mission.id, solver, "the work");
  await awardedTo(t, mission.id, creator, sub.body.id);
  await t.deps.database.db.execute(sql`update missions set payout_status = 'pending_gas' where id = ${mission.id}`);
  return { creator, mission, solver, sid: sub.body.id as string };
}

describe("dispute pools", () => {
  it("200 anonymous filings from 40 networks, then the solver files non_payment and bad_spec: both accepted", async () => {
    const { mission, solver: before, sid, creator: owner } = await stalledPayout();
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await anonymousFiling(mission.id, i % 40)).status);
    // The anonymous pool took its share and refused the rest; nothing else broke.
    expect(statuses.filter((s) => s === 201).length).toBe(10);
    expect(new Set(statuses)).toEqual(new Set([201, 429]));
    t.clock.advance(48 * 3_600_000);
    try {
      // §1.1: non_payment once payment_sla_hours (48) passed; sessions last 24 h, so sign in again.
      const solver = await signIn(t, before.account);
      const creator = await signIn(t, owner.account);
      const np = await t.call("POST", "/api/disputes", {
        token: solver.token,
        body: { dispute_type: "non_payment", mission_id: mission.id, submission_id: sid, evidence },
      });
      expect(np.status, np.text).toBe(201);
      expect(np.body).toMatchObject({ outcome: "upheld", corrective_action: { action: "retry_settlement" } });
      const bs = await t.call("POST", "/api/disputes", {
        token: solver.token,
        body: { dispute_type: "bad_spec", mission_id: mission.id, evidence },
      });
      expect(bs.status, bs.text).toBe(201);
      // The creator is a party too; a signed-in outsider still has room in the public pool.
      const own = await t.call("POST", "/api/disputes", {
        token: creator.token,
        body: { dispute_type: "bad_spec", mission_id: mission.id, evidence },
      });
      expect(own.status, own.text).toBe(201);
      const outsider = await signIn(t);
      const out = await t.call("POST", "/api/disputes", {
        token: outsider.token,
        body: { dispute_type: "bad_spec", mission_id: mission.id, evidence },
      });
      expect(out.status, out.text).toBe(201);
    } finally {
      t.clock.advance(-48 * 3_600_000);
    }
  });

  it("a party's share is its own: the solver's sixth open filing waits, the creator's share is untouched", async () => {
    const { mission, solver, creator } = await stalledPayout();
    const file = (token: string) =>
      t.call("POST", "/api/disputes", { token, body: { dispute_type: "bad_spec", mission_id: mission.id, evidence } });
    // §6.1 allows a filer 5 bad_spec in 30 days; PARTY_OPEN is the mission's own share.
    for (let i = 0; i < PARTY_OPEN; i++) expect((await file(solver.token)).status).toBe(201);
    expect((await file(solver.token)).status).toBe(429);
    expect((await file(creator.token)).status).toBe(201);
  });

  it("rejected anonymous filings stop counting: after 60 rejected, the anonymous pool still takes filings", async () => {
    const { mission } = await stalledPayout();
    let network = 0;
    let accepted = 0;
    for (let round = 0; round < 6; round++) {
      const open: string[] = [];
      for (;;) {
        const r = await anonymousFiling(mission.id, network++);
        if (r.status !== 201) {
          expect(r.status, r.text).toBe(429);
          break;
        }
        open.push(r.body.dispute_id);
      }
      expect(open.length).toBe(10);
      accepted += open.length;
      for (const id of open) {
        const r = await resolveDispute(t, id, { outcome: "rejected", rationale: "no divergence" });
        expect(r.status, r.text).toBe(200);
      }
    }
    // More than the anonymous lifetime bound (50) were filed and decided: the pool is still open.
    expect(accepted).toBe(60);
    expect((await anonymousFiling(mission.id, network++)).status).toBe(201);
  });
});
