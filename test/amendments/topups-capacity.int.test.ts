import { describe, expect, it } from "vitest";
import { balancesOf, verifyLedger } from "../../src/features/ledger/ledger.service";
import { makeTestApp } from "../helpers/app";
import { credit, openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { TOP_UP_MIN_BPS } from "../../src/features/amendments/amendments.service";
import { useTestApp } from "../helpers/suite-app";

// Capacity the creator owns (docs/amendments.md "Slots", docs/abuse-edge.md "Creator-owned capacity"): on the
// defaults, 20 other agents fill what they may of a mission's Q&A thread and of its top-ups (dust
// refused, the bound of others' top-ups reached); the creator still posts a clarification,
// extends the deadline and edits (the mission has no submission). Ledger rail, through HTTP.

const t = useTestApp();

const REWARD = 100_000_000n;
const tally = (codes: Map<string, number>, r: { status: number; body: { details?: { reason?: string } } }) => {
  const key = r.status === 201 ? "201" : `${r.status} ${r.body.details?.reason}`;
  codes.set(key, (codes.get(key) ?? 0) + 1);
};

describe("others' top-ups cannot take the creator's amendment slots", () => {
  it("20 agents fill the Q&A thread and the top-ups; the creator still clarifies, extends and edits", async () => {
    // At the constants: AMENDMENTS_MAX_PER_MISSION 50, TOPUPS_MAX_PER_MISSION 20 (the counts below).
    expect(TOP_UP_MIN_BPS).toBe(100);
    const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount: REWARD.toString() } });
    const url = `/missions/${mission.id}`;
    const qa = new Map<string, number>();
    const tops = new Map<string, number>();
    let reward = REWARD;
    const agents = [];
    for (let a = 0; a < 20; a++) {
      const agent = await signIn(t);
      agents.push(agent);
      await credit(t, agent.address, 10_000_000n);
      for (let q = 0; q < 10; q++)
        tally(
          qa,
          await t.call("POST", `${url}/questions`, { token: agent.token, body: { body: `question ${a}.${q}` } }),
        );
      // Dust first: 1 base unit, and one unit under 1% of the current reward.
      const min = (reward + 99n) / 100n;
      for (const amount of [1n, min - 1n]) {
        const dust = await t.call("POST", `${url}/amendments`, {
          token: agent.token,
          body: { kind: "top_up", amount: amount.toString() },
        });
        tally(tops, dust);
        if (dust.status === 422)
          expect(dust.body.details).toMatchObject({ field: "amount", min_amount: min.toString() });
      }
      // Then one real top-up each (1% of the current reward): all 20 fit the bound.
      const amount = (reward + 99n) / 100n;
      const r = await t.call("POST", `${url}/amendments`, {
        token: agent.token,
        body: { kind: "top_up", amount: amount.toString() },
      });
      if (r.status === 201) reward += amount;
      tally(tops, r);
    }
    // The bound is reached: one more from each, dust or not, is refused.
    for (const agent of agents)
      for (const amount of [1n, reward])
        tally(
          tops,
          await t.call("POST", `${url}/amendments`, {
            token: agent.token,
            body: { kind: "top_up", amount: amount.toString() },
          }),
        );
    expect(Object.fromEntries(qa)).toEqual({ "201": 100, "409 qa_full": 100 });
    expect(Object.fromEntries(tops)).toEqual({
      "201": 20,
      "422 top_up_too_small": 40,
      "409 too_many_top_ups": 40,
    });
    // The reward grew by every accepted top-up, paid from the backers' balances.
    expect((await t.call("GET", url)).body).toMatchObject({
      reward: { amount: reward.toString() },
      amendments_count: 20,
    });
    expect((await balancesOf(t.deps.database.db, `escrow:${mission.id}`)).get("USDC")).toBe(reward);

    // The creator's capacity is whole: a clarification, an extension, an edit, then its own top-up.
    const clar = await t.call("POST", `${url}/clarifications`, {
      token: creator.token,
      body: { body: "scope: v2 only" },
    });
    expect(clar.status, clar.text).toBe(201);
    const later = new Date(Date.parse(mission.deadline) + 86_400_000).toISOString();
    const ext = await t.call("POST", `${url}/amendments`, {
      token: creator.token,
      body: { kind: "extend_deadline", deadline: later },
    });
    expect(ext.status, ext.text).toBe(201);
    expect(ext.body).toMatchObject({ kind: "extend_deadline", seq: 21, status: "applied" });
    const edit = await t.call("POST", `${url}/amendments`, {
      token: creator.token,
      body: { kind: "edit", title: "Find the key (v2)" },
    });
    expect(edit.status, edit.text).toBe(201);
    // The creator is not held to the others' minimum.
    const own = await t.call("POST", `${url}/amendments`, {
      token: creator.token,
      body: { kind: "top_up", amount: "1" },
    });
    expect(own.status, own.text).toBe(201);
    expect((await t.call("GET", url)).body).toMatchObject({
      title: "Find the key (v2)",
      deadline: later,
      reward: { amount: (reward + 1n).toString() },
      amendments_count: 23,
    });
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  }, 180_000);

  it("the creator's own amendments keep their bound: too_many_amendments past AMENDMENTS_MAX_PER_MISSION", async () => {
    const t2 = await makeTestApp({}, { limits: { amendmentsMaxPerMission: 2, topUpsMaxPerMission: 1 } });
    try {
      const { creator, mission } = await openMission(t2);
      const backer = await signIn(t2);
      await credit(t2, backer.address, REWARD);
      const top = (token: string) =>
        t2.call("POST", `/missions/${mission.id}/amendments`, { token, body: { kind: "top_up", amount: "1000000" } });
      expect((await top(backer.token)).status).toBe(201);
      const second = await top(backer.token);
      expectError(second, 409, "CONFLICT");
      expect(second.body.details).toMatchObject({ reason: "too_many_top_ups", max: 1 });
      expect((await top(creator.token)).status).toBe(201);
      expect((await top(creator.token)).status).toBe(201);
      const full = await top(creator.token);
      expectError(full, 409, "CONFLICT");
      expect(full.body.details).toMatchObject({ reason: "too_many_amendments", max: 2 });
    } finally {
      await t2.close();
    }
  });
});
