import { describe, expect, it } from "vitest";
import { openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// Capacity the creator owns, Q&A part (docs/abuse-edge.md "Creator-owned capacity"): on the defaults (200
// entries, 10 questions per agent, 50 kept for the creator, a third of the rest for the mission's
// parties), 20 free agents fill what they may of a thread and the creator can still post
// clarifications — the whole rest of the thread.

const t = useTestApp();

describe("the creator's reserve in a mission's Q&A thread", () => {
  it("20 agents × 10 questions: 100 accepted, then qa_full; the creator still posts 100 clarifications", async () => {
    const { creator, mission } = await openMission(t);
    // At the constants: QA_MAX_PER_MISSION 200, QA_MAX_PER_AGENT 10, QA_CREATOR_RESERVE 50 (the counts below).
    const codes = new Map<string, number>();
    for (let a = 0; a < 20; a++) {
      const agent = await signIn(t);
      for (let q = 0; q < 10; q++) {
        const r = await t.call("POST", `/missions/${mission.id}/questions`, {
          token: agent.token,
          body: { body: `question ${a}.${q}` },
        });
        const key = r.status === 201 ? "201" : `${r.status} ${r.body.details?.reason}`;
        codes.set(key, (codes.get(key) ?? 0) + 1);
      }
    }
    expect(Object.fromEntries(codes)).toEqual({ "201": 100, "409 qa_full": 100 });
    for (let i = 0; i < 100; i++) {
      const r = await t.call("POST", `/missions/${mission.id}/clarifications`, {
        token: creator.token,
        body: { body: `clarification ${i}` },
      });
      expect(r.status, r.text).toBe(201);
    }
    // The thread's own cap still holds, for the creator too.
    const over = await t.call("POST", `/missions/${mission.id}/clarifications`, {
      token: creator.token,
      body: { body: "one more" },
    });
    expectError(over, 409, "CONFLICT");
    expect(over.body.details.reason).toBe("qa_full");
  }, 120_000);
});
