import { describe, expect, it } from "vitest";
import { hubOf } from "../../src/features/events/events.hub";
import { ADMIN_TOKEN } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";
import { acceptedSubmission, awardedTo } from "../helpers/mission-flow";

// GET /agents/me/inbox: the outbox events about the caller — its missions,
// its submissions, missions it claimed — with a cursor and a long poll; nobody else's.

const t = useTestApp({}, { limits: { eventsPollMs: 50 } });

type Env = { id: string; type: string; data: { mission_id: string; submission_id?: string } };
async function inbox(token: string, q = ""): Promise<{ events: Env[]; next_cursor: string | null; has_more: boolean }> {
  const r = await t.call("GET", `/agents/me/inbox${q}`, { token });
  expect(r.status, r.text).toBe(200);
  return r.body;
}
/** Every page, following next_cursor. */
async function all(token: string): Promise<Env[]> {
  const out: Env[] = [];
  let after = "";
  for (let i = 0; i < 100; i++) {
    const p = await inbox(token, `?limit=100${after}`);
    out.push(...p.events);
    if (!p.has_more) return out;
    after = `&after=${p.next_cursor}`;
  }
  throw new Error("inbox never ended");
}

describe("GET /agents/me/inbox", () => {
  it("holds the events about the caller: the creator's mission and its submissions, the submitter's own, a claimer's mission; not a stranger's", async () => {
    const { creator, mission } = await openMission(t);
    const solver = await signIn(t);
    const claimer = await signIn(t);
    const stranger = await signIn(t);
    expect((await t.call("POST", `/missions/${mission.id}/claims`, { token: claimer.token })).status).toBe(201);
    const sub = await acceptedSubmission(t, mission.id, solver, "an answer");
    await awardedTo(t, mission.id, creator, sub.body.id);

    const of = (events: Env[]) => events.filter((e) => e.data.mission_id === mission.id).map((e) => e.type);
    const everything = of(await all(creator.token));
    expect(everything.slice(0, 2)).toEqual(["mission.created", "submission.created"]);
    expect([...everything.slice(2)].sort()).toEqual(["mission.resolved", "payout.confirmed", "submission.accepted"]);
    // The winner: its submission and everything that paid it; not the mission's creation.
    expect(of(await all(solver.token))).toEqual(everything.slice(1));
    expect(of(await all(claimer.token))).toEqual(everything);
    expect(of(await all(stranger.token))).toEqual([]);

    // The envelope is the webhook's: id, type, timestamp, data with links.
    const [first] = (await all(creator.token)).filter((e) => e.data.mission_id === mission.id);
    expect(first!.id).toMatch(/^evt_/);
    expect((first!.data as any).links.mission).toBe(`${t.deps.config.publicUrl}/missions/${mission.id}`);
  });

  it("pages with limit and next_cursor, in order, without repeats", async () => {
    const { creator } = await openMission(t);
    for (let i = 0; i < 3; i++) {
      const r = await t.call("POST", "/missions", {
        token: creator.token,
        body: {
          title: `Mission ${i}`,
          description: "Another one.",
          reward: { asset: "USDC", amount: "1000000" },
          verification: { type: "creator_judges", params: {} },
          deadline: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
          tags: ["x"],
        },
      });
      expect(r.status, r.text).toBe(201);
    }
    const everything = (await all(creator.token)).map((e) => e.id);
    expect(everything.length).toBe(4);
    const paged: string[] = [];
    let after = "";
    for (let i = 0; i < 10; i++) {
      const p = await inbox(creator.token, `?limit=1${after}`);
      paged.push(...p.events.map((e) => e.id));
      if (p.events.length === 0) break;
      after = `&after=${p.next_cursor}`;
    }
    expect(paged).toEqual(everything);
  });

  it("long poll: ?wait returns as soon as an event about the caller commits; with nothing, after the wait, empty", async () => {
    const { creator, mission } = await openMission(t);
    const page = await inbox(creator.token, "?limit=100");
    const cursor = page.next_cursor!;
    const solver = await signIn(t);
    const waiting = t.call("GET", `/agents/me/inbox?after=${cursor}&wait=20`, { token: creator.token });
    // Parked: its first scan found nothing and it listens on the hub — the condition, not a sleep.
    await expect.poll(() => hubOf(t.deps).listening, { interval: 5, timeout: 20_000 }).toBe(1);
    // Someone else's event first: it does not end the wait by itself.
    await openMission(t);
    const sub = await acceptedSubmission(t, mission.id, solver, "an answer");
    const r = await waiting;
    expect(r.status, r.text).toBe(200);
    expect(r.body.events.map((e: Env) => [e.type, e.data.submission_id])).toEqual([
      ["submission.created", sub.body.id],
    ]);

    const quiet = await t.call("GET", `/agents/me/inbox?after=${r.body.next_cursor}&wait=1`, { token: solver.token });
    expect(quiet.status).toBe(200);
    expect(quiet.body.events).toEqual([]);
  });

  it("authorization and bad input: anonymous 401, the admin token 403, a bad cursor or wait 400", async () => {
    const anon = await t.call("GET", "/agents/me/inbox");
    expect([anon.status, anon.body.error]).toEqual([401, "UNAUTHORIZED"]);
    const admin = await t.call("GET", "/agents/me/inbox", { token: ADMIN_TOKEN });
    expect([admin.status, admin.body.error]).toEqual([403, "FORBIDDEN"]);
    const me = await signIn(t);
    for (const [q, reason] of [
      ["?after=evt_bad", "malformed_event_id"],
      ["?after=evt_01JZ0000000000000000000000", "unknown_event_id"],
      ["?wait=999", undefined],
      ["?limit=0", undefined],
    ] as const) {
      const r = await t.call("GET", `/agents/me/inbox${q}`, { token: me.token });
      expect(r.status, q).toBe(400);
      expect(r.body.error).toBe("INVALID_PARAMETER");
      if (reason) expect(r.body.details.reason).toBe(reason);
    }
  });
});
