import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitEvents, type OutboxEvent } from "../../src/db/outbox";
import { serveTestApp, type ServedTestApp } from "../helpers/served";
import { openSse } from "../helpers/sse";

// docs/events.md "Order and cursor": a stream opened without a cursor starts at the head — new
// events only — even when the hub starts with a backlog of committed, unnumbered events larger than
// one numbering batch (1 000). Runs on PGlite and Postgres.

let t: ServedTestApp;
beforeAll(async () => {
  t = await serveTestApp({}, { limits: { eventsPollMs: 50 } });
});
afterAll(() => t?.close());

const TAG = "ev-start";
const event = (name: string): OutboxEvent => ({
  type: "mission.created",
  at: t.clock.now(),
  mission: {
    id: `mis_${name}`,
    creator: "0x1111111111111111111111111111111111111111",
    verificationType: "creator_judges",
    tags: [TAG],
  },
  data: { mission_id: `mis_${name}` },
});

describe("GET /events when the hub starts", () => {
  it("a new subscriber gets no old event of a 2 500-event backlog, only what commits after it", async () => {
    // Committed while no stream was open: nothing has numbered them yet.
    const old = Array.from({ length: 2_500 }, (_, i) => event(`old${i}`));
    await t.deps.database.db.transaction((tx) => emitEvents(tx, old));
    const sse = await openSse(`${t.base}/events?tag=${TAG}`);
    try {
      expect(sse.status).toBe(200);
      await t.deps.database.db.transaction((tx) => emitEvents(tx, [event("fresh")]));
      const first = await sse.next();
      expect(JSON.parse(first.data!).data.mission_id).toBe("mis_fresh");
    } finally {
      sse.close();
    }
  });
});
