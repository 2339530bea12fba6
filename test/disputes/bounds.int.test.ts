import { describe, expect, it } from "vitest";
import { LIST_PAGE_BYTES } from "../../src/features/disputes/disputes.service";
import { openMission, signIn } from "../helpers/agents";
import { resolveDispute } from "./aip4-filing";
import { useTestApp } from "../helpers/suite-app";

// Disputes per mission are bounded (AIP-4 §6; docs/decisions.md "Dispute bounds"): open ones
// (429 until the earliest is decided) and all of them (422 mission_dispute_limit); a list page is
// bounded in bytes as well as rows, the cursor walking the rest.

const t = useTestApp({}, { limits: { disputesMaxOpenPerMission: 3, disputesMaxPerMission: 5 } });

const evidence = { description: "The rule does not match the stated criteria" };
const fileAs = async (missionId: string, ev: Record<string, unknown> = evidence) => {
  const a = await signIn(t);
  return t.call("POST", "/api/disputes", {
    token: a.token,
    body: { dispute_type: "bad_spec", mission_id: missionId, evidence: ev },
  });
};

describe("disputes per mission", () => {
  it("at most 3 open (429 with reset_at = the earliest deadline), at most 5 in all (422)", async () => {
    const { mission: m } = await openMission(t, {
      deadline: new Date(t.clock.now().getTime() + 60 * 86_400_000).toISOString(),
    });
    const first = [await fileAs(m.id), await fileAs(m.id), await fileAs(m.id)];
    expect(first.map((r) => r.status)).toEqual([201, 201, 201]);
    const over = await fileAs(m.id);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({
      error: "rate_limited",
      dispute_type: "bad_spec",
      reset_at: first[0]!.body.resolution_deadline,
    });
    // The operator decides two (rejected: the mission is untouched); two more may be filed, then
    // the total bound holds whatever is open.
    for (const d of first.slice(0, 2))
      expect(
        (await resolveDispute(t, d.body.dispute_id, { outcome: "rejected", rationale: "no divergence" })).status,
      ).toBe(200);
    expect((await fileAs(m.id)).status).toBe(201);
    expect((await fileAs(m.id)).status).toBe(201);
    const total = await fileAs(m.id);
    expect(total.status).toBe(422);
    expect(total.body).toMatchObject({
      error: "UNPROCESSABLE",
      details: { reason: "mission_dispute_limit", limit: 5 },
    });
    const all = (await t.call("GET", `/api/disputes?mission_id=${m.id}`)).body.disputes;
    expect(all).toHaveLength(5);
  });

  it(`a list page stays under ${LIST_PAGE_BYTES} bytes (one row over at most); the cursor walks every dispute once`, async () => {
    // The largest evidence the schema admits: 2000 characters and 10 links of ~2 kB.
    const big = {
      description: "d".repeat(2000),
      links: Array.from({ length: 10 }, (_, i) => `https://example.com/${i}/${"x".repeat(2000)}`),
    };
    for (let i = 0; i < 7; i++) {
      const { mission: m } = await openMission(t);
      for (let j = 0; j < 3; j++) expect((await fileAs(m.id, big)).status).toBe(201);
    }
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await t.call("GET", `/api/disputes?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      expect(r.status).toBe(200);
      expect(r.text.length).toBeLessThan(LIST_PAGE_BYTES + 30_000);
      for (const d of r.body.disputes) {
        expect(seen.has(d.dispute_id)).toBe(false);
        seen.add(d.dispute_id);
      }
      cursor = r.body.next_cursor;
      pages++;
    } while (cursor && pages < 50);
    expect(pages).toBeGreaterThan(1);
    expect(seen.size).toBe(5 + 21);
  });
});
