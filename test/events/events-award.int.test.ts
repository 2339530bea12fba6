import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWebhookJobs } from "../../src/jobs/webhooks";
import { serveTestApp, type ServedTestApp } from "../helpers/served";
import { openMission, signIn } from "../helpers/agents";
import { submittedAndAwarded } from "../helpers/mission-flow";
import { startReceiver, type Receiver } from "../helpers/receiver";
import { openSse } from "../helpers/sse";

// docs/events.md "mission.awarded": a creator_judges award with an appeal window is told at once
// — to a GET /events follower and to a webhook — with its winners and pays_at (the appeal
// deadline), not a day later when it pays.

let t: ServedTestApp;
let rx: Receiver;
beforeAll(async () => {
  t = await serveTestApp({}, { limits: { eventsPollMs: 50 } });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});

const APPEAL = { appeal_window_seconds: 86_400, vote_token: "USDC", min_vote: "100", quorum: "1000" };

describe("mission.awarded", () => {
  it("an award with an appeal window reaches SSE and webhooks at once, with winners and pays_at", async () => {
    const { creator, mission } = await openMission(t, {
      tags: ["award-event"],
      verification: { type: "creator_judges", params: { appeal: APPEAL } },
    });
    const hook = await t.call("POST", "/webhooks", {
      token: creator.token,
      body: { url: `${rx.base}/awards`, events: ["mission.awarded"] },
    });
    expect(hook.status, hook.text).toBe(201);
    const sse = await openSse(`${t.base}/events?type=mission.awarded&tag=award-event`);
    try {
      expect(sse.status).toBe(200);
      // Compression never touches an event stream, whatever the client accepts.
      expect(sse.headers.get("content-encoding")).toBeNull();
      const solver = await signIn(t);
      const sub = await t.call("POST", `/missions/${mission.id}/submissions`, {
        token: solver.token,
        body: { content: "the answer" },
      });
      expect(sub.status, sub.text).toBe(201);
      const award = await t.call("POST", `/missions/${mission.id}/award`, {
        token: creator.token,
        body: { winners: [{ submission_id: sub.body.id }] },
      });
      expect(award.status, award.text).toBe(200);
      const appealDeadline = award.body.award.appeal_deadline as string;
      expect(award.body).toMatchObject({ status: "escrowed", phase: "appeal" });

      const frame = await sse.next(20_000);
      expect(frame.event).toBe("mission.awarded");
      const env = JSON.parse(frame.data!);
      expect(env).toMatchObject({
        type: "mission.awarded",
        data: {
          mission_id: mission.id,
          creator: creator.address,
          status: "escrowed",
          phase: "appeal",
          winners: [{ submission_id: sub.body.id, agent_id: solver.address, weight: 1 }],
          appeal_deadline: appealDeadline,
          pays_at: appealDeadline,
          links: { mission: expect.stringContaining(`/missions/${mission.id}`) },
        },
      });

      // The same envelope, byte for byte, to the webhook (after its verification challenge).
      for (let i = 0; i < 5 && rx.at("/awards").length === 0; i++) await runWebhookJobs(t.deps);
      const delivered = rx.at("/awards");
      expect(delivered).toHaveLength(1);
      expect(delivered[0]!.body).toBe(frame.data);
      expect(delivered[0]!.headers["webhook-id"]).toBe(env.id);
    } finally {
      sse.close();
    }
  });

  it("an award without an appeal window is final at once: mission.resolved, no mission.awarded", async () => {
    const { creator, mission } = await openMission(t, { tags: ["award-plain"] });
    const { solver, award } = await submittedAndAwarded(t, mission.id, creator, "the answer");
    expect(award.status, award.text).toBe(200);
    const events = (await t.call("GET", `/agents/me/inbox?limit=100`, { token: solver.token })).body.events as {
      type: string;
      data: { mission_id: string };
    }[];
    const mine = events.filter((e) => e.data.mission_id === mission.id).map((e) => e.type);
    expect(mine).toContain("mission.resolved");
    expect(mine).not.toContain("mission.awarded");
  });
});
