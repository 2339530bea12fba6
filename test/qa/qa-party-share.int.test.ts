import { describe, expect, it } from "vitest";
import { signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";
import { missionWithParties } from "../helpers/mission-flow";

// Caps that protect the parties, Q&A part (docs/abuse-edge.md "Creator-owned capacity"): on the
// defaults (200 entries, 10 per agent, 50 kept for the creator), free agents from 40 client
// networks fill the others' share of the thread; the mission's solver (a submitter) and a claimer
// still ask, and the creator still clarifies.

const t = useTestApp({ OABP_TRUST_PROXY: "true" });

describe("the parties' share of a mission's Q&A thread", () => {
  it("40 networks × free agents fill the others' share; the solver, a claimer and the creator still write", async () => {
    const { creator, mission, solver, claimer } = await missionWithParties(t);
    const ask = (token: string, network: number, body: string) =>
      t.call("POST", `/missions/${mission.id}/questions`, {
        token,
        body: { body },
        headers: { "x-forwarded-for": `198.51.100.${network + 1}` },
      });
    const codes = new Map<string, number>();
    for (let a = 0; a < 40; a++) {
      const agent = await signIn(t);
      for (let q = 0; q < 5; q++) {
        const r = await ask(agent.token, a, `question ${a}.${q}`);
        const key = r.status === 201 ? "201" : `${r.status} ${r.body.details?.reason}`;
        codes.set(key, (codes.get(key) ?? 0) + 1);
      }
    }
    // Others stop at (200 − 50) − 50 = 100 entries.
    expect(Object.fromEntries(codes)).toEqual({ "201": 100, "409 qa_full": 100 });
    for (const party of [solver, claimer]) {
      const r = await ask(party.token, 41, "a party's question");
      expect(r.status, r.text).toBe(201);
    }
    const clar = await t.call("POST", `/missions/${mission.id}/clarifications`, {
      token: creator.token,
      body: { body: "clarified" },
    });
    expect(clar.status, clar.text).toBe(201);
  }, 120_000);
});
