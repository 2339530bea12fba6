import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitEvents, type OutboxEvent } from "../../src/db/outbox";
import { webhookEvents } from "../../src/db/schema/index";
import { type TestApp } from "../helpers/app";
import { serveTestApp, type ServedTestApp } from "../helpers/served";
import { openMission, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { openSse, sseReader, type SseFrame } from "../helpers/sse";
import { useTestApp } from "../helpers/suite-app";

// GET /events: the outbox as a public SSE stream over real HTTP — exactly the
// committed events, once, in commit order, with the webhook envelope; Last-Event-ID / ?after=
// resume; filters; bad cursors; the per-IP cap; a slow reader overflows instead of growing.

const FAST = { eventsPollMs: 50 };
let t: ServedTestApp;
beforeAll(async () => {
  t = await serveTestApp({ OABP_EVENTS_MAX_PER_IP: "4" }, { limits: FAST });
});
afterAll(() => t?.close());

const uniqueTag = () => `ev-${randomBytes(4).toString("hex")}`;
const CREATOR = "0x1111111111111111111111111111111111111111";
const json = (f: SseFrame) => JSON.parse(f.data!) as { id: string; type: string; timestamp: string; data: any };

/** `n` raw outbox events tagged `tag`, committed in one transaction, `at` giving their ids' time. */
async function emitRaw(app: TestApp, tag: string, n: number, at = app.clock.now()): Promise<void> {
  const events: OutboxEvent[] = Array.from({ length: n }, (_, i) => ({
    type: "mission.created",
    at,
    mission: { id: `mis_raw${tag}${i}`, creator: CREATOR, verificationType: "creator_judges", tags: [tag] },
    data: { mission_id: `mis_raw${tag}${i}`, n: i },
  }));
  await app.deps.database.db.transaction((tx) => emitEvents(tx, events));
}

describe("GET /events", () => {
  it("streams committed mission events with the webhook envelope, in order, and resumes from Last-Event-ID and ?after=", async () => {
    const tag = uniqueTag();
    const sse = await openSse(`${t.base}/events?tag=${tag}`);
    try {
      expect(sse.status).toBe(200);
      expect(sse.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const { mission } = await openMission(t, { tags: [tag] });
      const solver = await signIn(t);
      const sub = await t.call("POST", `/missions/${mission.id}/submissions`, {
        token: solver.token,
        body: { content: "an answer" },
      });
      expect(sub.status, sub.text).toBe(201);
      const created = await sse.next();
      const submitted = await sse.next();
      expect([created.event, submitted.event]).toEqual(["mission.created", "submission.created"]);
      const env = json(created);
      expect(created.id).toBe(env.id);
      expect(env.id).toMatch(/^evt_/);
      expect(env.data.mission_id).toBe(mission.id);
      expect(env.data.links.mission).toBe(`${t.deps.config.publicUrl}/missions/${mission.id}`);
      expect(json(submitted).data.submission_id).toBe(sub.body.id);

      // Resume after the first: exactly the second, by header and by query.
      for (const [path, headers] of [
        [`/events?tag=${tag}`, { "last-event-id": created.id! }],
        [`/events?tag=${tag}&after=${created.id}`, {}],
      ] as const) {
        const again = await openSse(`${t.base}${path}`, headers);
        try {
          const f = await again.next();
          expect(f.id).toBe(submitted.id);
          expect(f.data).toBe(submitted.data);
        } finally {
          again.close();
        }
      }
    } finally {
      sse.close();
    }
  });

  it("delivers in commit order, not id order: an event with an earlier id that commits later is still delivered, after the others", async () => {
    const tag = uniqueTag();
    const sse = await openSse(`${t.base}/events?tag=${tag}`);
    try {
      await emitRaw(t, tag, 1);
      const later = await sse.next();
      // Committed now, with an id older than the one already streamed (ids are taken when an event
      // is emitted; a transaction that started earlier may commit later).
      const older = `evt_${"0".repeat(10)}${later.id!.slice(-16)}`;
      await t.deps.database.db.insert(webhookEvents).values({
        id: older,
        type: "mission.created",
        occurredAt: t.clock.now(),
        missionId: "mis_older",
        creator: CREATOR,
        verificationType: "creator_judges",
        tags: [tag],
        data: JSON.stringify({ mission_id: "mis_older" }),
      });
      const earlier = await sse.next();
      expect(earlier.id! < later.id!).toBe(true);
      // A reader resuming from the later one (by id it is the newest) still gets the earlier one.
      const resumed = await openSse(`${t.base}/events?tag=${tag}`, { "last-event-id": later.id! });
      try {
        expect((await resumed.next()).id).toBe(earlier.id);
      } finally {
        resumed.close();
      }
    } finally {
      sse.close();
    }
  });

  it.runIf(onRealPostgres)(
    "two concurrent transactions: the one that commits second is delivered second, whatever their ids (Postgres)",
    async () => {
      const tag = uniqueTag();
      const sse = await openSse(`${t.base}/events?tag=${tag}`);
      try {
        let commitFirst!: () => void;
        const gate = new Promise<void>((r) => (commitFirst = r));
        // A emits first (smaller id) and stays open; B emits and commits; then A commits.
        const a = t.deps.database.db.transaction(async (tx) => {
          await emitEvents(tx, [
            {
              type: "mission.created",
              at: t.clock.now(),
              mission: { id: "mis_a", creator: CREATOR, verificationType: "creator_judges", tags: [tag] },
              data: { mission_id: "mis_a" },
            },
          ]);
          await gate;
        });
        await new Promise((r) => setTimeout(r, 50));
        await emitRaw(t, tag, 1, new Date(t.clock.now().getTime() + 1000));
        const b = await sse.next();
        commitFirst();
        await a;
        const aFrame = await sse.next();
        expect(json(aFrame).data.mission_id).toBe("mis_a");
        expect(aFrame.id! < b.id!).toBe(true);
      } finally {
        sse.close();
      }
    },
  );

  it("filters by tag, type, verification_type, creator and reward_min", async () => {
    const tag = uniqueTag();
    const rich = await openMission(t, { tags: [tag], reward: { asset: "USDC", amount: "300000000" } });
    const poor = await openMission(t, { tags: [tag], reward: { asset: "USDC", amount: "10000000" } });
    const first = (await t.call("GET", `/agents/me/inbox`, { token: rich.creator.token })).body.events.find(
      (e: any) => e.data.mission_id === rich.mission.id,
    ).id as string;
    const after = `after=${first}`;
    // Resuming just before "rich" was created: "poor" (and other tags' events) remain.
    const cases: [string, (m: string[]) => void][] = [
      [`tag=${tag}`, (m) => expect(m).toEqual([poor.mission.id])],
      [`tag=${tag}&type=mission.resolved`, (m) => expect(m).toEqual([])],
      [`tag=${tag}&verification_type=peer_vote`, (m) => expect(m).toEqual([])],
      [
        `tag=${tag}&creator=${poor.creator.address.toUpperCase().replace("0X", "0x")}`,
        (m) => expect(m).toEqual([poor.mission.id]),
      ],
      [`tag=${tag}&creator=${rich.creator.address}`, (m) => expect(m).toEqual([])],
      [`tag=${tag}&reward_min=100000000&reward_asset=USDC`, (m) => expect(m).toEqual([])],
      [`tag=${tag}&reward_min=10000000&reward_asset=USDC`, (m) => expect(m).toEqual([poor.mission.id])],
    ];
    for (const [q, check] of cases) {
      const sse = await openSse(`${t.base}/events?${q}&${after}`);
      try {
        // A marker after both: every matching event comes before it.
        const marker = uniqueTag();
        await emitRaw(t, marker, 1);
        const seen: string[] = [];
        // The marker passes only the tag filter of its own stream, so read with a short timeout.
        for (;;) {
          const f = await sse.next(1500).catch(() => null);
          if (!f) break;
          seen.push(json(f).data.mission_id);
        }
        check(seen);
      } finally {
        sse.close();
      }
    }
  });

  it("bad input: a malformed or unknown Last-Event-ID, a bad filter → 400 with a code", async () => {
    const cases: [string, Record<string, string>, string, string?][] = [
      ["/events", { "last-event-id": "42" }, "INVALID_PARAMETER", "malformed_event_id"],
      ["/events", { "last-event-id": "evt_01JZ0000000000000000000000" }, "INVALID_PARAMETER", "unknown_event_id"],
      ["/events?after=nope", {}, "INVALID_PARAMETER", "malformed_event_id"],
      ["/events?reward_min=5", {}, "INVALID_PARAMETER"],
      ["/events?reward_min=-1&reward_asset=USDC", {}, "INVALID_PARAMETER"],
      ["/events?reward_min=1&reward_asset=DOGE", {}, "INVALID_PARAMETER"],
      ["/events?type=mission.exploded", {}, "INVALID_PARAMETER"],
      ["/events?verification_type=vibes", {}, "INVALID_PARAMETER"],
      ["/events?creator=bob", {}, "INVALID_PARAMETER"],
    ];
    for (const [path, headers, code, reason] of cases) {
      const r = await t.call("GET", path, { headers });
      expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(400);
      expect(r.body.error).toBe(code);
      if (reason) expect(r.body.details.reason).toBe(reason);
    }
  });

  it("caps open streams per client IP (429), and frees the slot when a client leaves", async () => {
    const open = await Promise.all(Array.from({ length: 4 }, () => openSse(`${t.base}/events`)));
    try {
      const r = await fetch(`${t.base}/events`);
      expect(r.status).toBe(429);
      expect(((await r.json()) as { error: string }).error).toBe("RATE_LIMITED");
      open.pop()!.close();
      let ok = false;
      for (let i = 0; i < 50 && !ok; i++) {
        const again = await fetch(`${t.base}/events`);
        ok = again.status === 200;
        await again.body?.cancel();
        if (!ok) await new Promise((r) => setTimeout(r, 50));
      }
      expect(ok).toBe(true);
    } finally {
      for (const s of open) s.close();
    }
  });
});

describe("GET /events: a slow reader", () => {
  const s = useTestApp({}, { limits: { ...FAST, eventsReplay: 16, eventsBuffer: 2 } });

  it("a reader that does not read gets event: overflow with resume_after and is disconnected; a fast one gets everything; resuming from resume_after misses nothing", async () => {
    const tag = uniqueTag();
    // app.request hands back the stream itself: nothing drains it until we read.
    const slowRes = await s.app.request(`/events?tag=${tag}`);
    const fast = sseReader(await s.app.request(`/events?tag=${tag}`));
    const fastSeen: string[] = [];
    // Batches of 10, each read by the fast reader before the next: 60 in all, past the ring of 16.
    for (let i = 0; i < 6; i++) {
      await emitRaw(s, tag, 10);
      while (fastSeen.length < 10 * (i + 1)) fastSeen.push((await fast.next()).id!);
    }
    expect(new Set(fastSeen).size).toBe(60);

    const slow = sseReader(slowRes);
    const frames = await slow.until((f) => f.event === "overflow");
    const overflow = JSON.parse(frames.at(-1)!.data!) as { resume_after: string; reason: string };
    expect(overflow.reason).toBe("slow_consumer");
    // It held no more than its buffer: a few events, then the overflow.
    const got = frames.filter((f) => f.event !== "overflow").map((f) => f.id!);
    expect(got.length).toBeLessThanOrEqual(3);
    expect(await slow.ended(5000)).toBe(true);

    // Resuming from resume_after: exactly the rest, in the fast reader's order.
    const resumed = sseReader(
      await s.app.request(`/events?tag=${tag}`, { headers: { "last-event-id": overflow.resume_after } }),
    );
    const rest: string[] = [];
    while (got.length + rest.length < 60) rest.push((await resumed.next()).id!);
    expect([...got, ...rest]).toEqual(fastSeen);
    resumed.close();
    fast.close();
  });
});
