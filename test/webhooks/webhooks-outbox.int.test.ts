import { randomBytes } from "node:crypto";
import { asc, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { missions, webhookDeliveries, webhookEvents } from "../../src/db/schema/index";
import {
  attemptDelivery,
  claimDueDeliveries,
  fanOutEvents,
  leaseMs,
  recordAttempt,
} from "../../src/features/webhooks/webhooks.delivery";
import { emitEvent, missionCreated } from "../../src/db/outbox";
import { runVerifications } from "../../src/features/webhooks/webhooks.verify";
import { purgeWebhookHistory, runWebhookJobs, WEBHOOK_RETENTION_MS } from "../../src/jobs/webhooks";
import { makeTestApp, type TestApp } from "../helpers/app";
import { credit, missionBody, openMission, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import type { Received } from "../helpers/receiver";
import { useTestApp } from "../helpers/suite-app";
import { useReceiver } from "../helpers/suite-receiver";
import { acceptedSubmission } from "../helpers/mission-flow";

// The transactional outbox under failure: an event exists iff its state
// change committed; a crash between commit and delivery, or in the middle of a delivery, still
// delivers (at least once, same webhook-id); on real Postgres, instances racing for the same
// deliveries send each one once.

const t = useTestApp();
const rx = useReceiver();

const uniqueTag = () => `ob-${randomBytes(4).toString("hex")}`;
const ids = (rs: Received[]) => rs.map((r) => r.headers["webhook-id"]!).sort();

async function subscribe(app: TestApp, path: string, tag: string) {
  const watcher = await signIn(app);
  const r = await app.call("POST", "/webhooks", {
    token: watcher.token,
    body: {
      url: `${rx.base}${path}`,
      events: ["mission.created", "mission.voided", "submission.created"],
      filters: { tags: [tag] },
    },
  });
  expect(r.status, r.text).toBe(201);
  return { watcher, webhook: r.body as { id: string; secret: string } };
}

describe("transactional outbox", () => {
  it("a crash between commit and delivery: a new server on the same database delivers exactly the committed events; a rolled-back transaction emits nothing", async () => {
    const tag = uniqueTag();
    await subscribe(t, "/crash", tag);
    // Server A commits state changes (each with its events) and dies before its job ever runs.
    const { creator, mission } = await openMission(t, { tags: [tag] });
    const solver = await signIn(t);
    await acceptedSubmission(t, mission.id, solver, "done");
    const second = (await t.call("POST", "/missions", { token: creator.token, body: missionBody(t, { tags: [tag] }) }))
      .body;
    expect((await t.call("POST", `/missions/${second.id}/void`, { token: creator.token })).status).toBe(200);
    // A transaction that emits and then fails leaves no event.
    const [row] = await t.deps.database.db.select().from(missions).where(eq(missions.id, mission.id));
    await expect(
      t.deps.database.db.transaction(async (tx) => {
        await emitEvent(tx, missionCreated({ ...row!, id: "mis_01JZ0000000000000000000000" }, t.clock.now()));
        throw new Error("rolled back after emitting");
      }),
    ).rejects.toThrow("rolled back after emitting");
    const committed = await t.deps.database.db
      .select({ id: webhookEvents.id, missionId: webhookEvents.missionId, type: webhookEvents.type })
      .from(webhookEvents)
      .where(eq(webhookEvents.creator, creator.address))
      .orderBy(asc(webhookEvents.id));
    expect(committed.map((e) => [e.type, e.missionId])).toEqual([
      ["mission.created", mission.id],
      ["submission.created", mission.id],
      ["mission.created", second.id],
      ["mission.voided", second.id],
    ]);
    expect(rx.at("/crash")).toHaveLength(0);

    // Server B: fresh deps and app (nothing of A's memory), same database, a clock a minute on.
    const b = await makeTestApp({}, { database: t.db });
    b.clock.set(new Date(t.clock.now().getTime() + 60_000));
    await runWebhookJobs(b.deps);
    expect(ids(rx.at("/crash"))).toEqual(committed.map((e) => e.id));
    expect(rx.at("/crash").some((r) => r.body.includes("mis_01JZ0000000000000000000000"))).toBe(false);
    await runWebhookJobs(b.deps);
    expect(rx.at("/crash")).toHaveLength(committed.length); // once each
  });

  it("a crash mid-delivery (sent, never recorded) is sent again after the lease, with the same webhook-id; the late record is ignored", async () => {
    const tag = uniqueTag();
    const { watcher, webhook } = await subscribe(t, "/mid", tag);
    await openMission(t, { tags: [tag] });
    await fanOutEvents(t.deps);
    await runVerifications(t.deps); // the endpoint echoes the challenge: the subscription is active
    const claimed = (await claimDueDeliveries(t.deps)).filter((c) => c.subscriptionId === webhook.id);
    expect(claimed).toHaveLength(1);
    const lost = await attemptDelivery(t.deps, { delivery: claimed[0]! }); // delivered to the receiver …
    expect(lost.kind).toBe("delivered");
    // … and the process dies before recording it. While the lease runs nobody sends it again.
    await runWebhookJobs(t.deps);
    expect(rx.at("/mid")).toHaveLength(1);
    t.clock.advance(leaseMs(t.deps));
    await runWebhookJobs(t.deps);
    const got = rx.at("/mid");
    expect(got).toHaveLength(2);
    expect(got[1]!.headers["webhook-id"]).toBe(got[0]!.headers["webhook-id"]);
    expect(got[1]!.body).toBe(got[0]!.body);
    // The first worker wakes up and records its stale attempt: nothing changes.
    await recordAttempt(t.deps, {
      delivery: claimed[0]!,
      outcome: { kind: "failed", at: t.clock.now(), durationMs: 1, statusCode: 500, error: "unexpected_status" },
    });
    const [d] = (await t.call("GET", `/webhooks/${webhook.id}/deliveries`, { token: watcher.token })).body.deliveries;
    expect(d).toMatchObject({ status: "delivered", attempt_count: 2, last_status_code: 204 });
    expect(d.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([2]);
  });
});

describe.runIf(onRealPostgres)("concurrent delivery on real Postgres", () => {
  it("instances racing for the same outbox fan out and deliver every event exactly once", async () => {
    const tag = uniqueTag();
    rx.on("/race", async () => {
      await new Promise((r) => setTimeout(r, 20)); // keep attempts in flight while others claim
      return { status: 200 };
    });
    await subscribe(t, "/race", tag);
    const creator = await signIn(t);
    const N = 30;
    await credit(t, creator.address, 200_000_000n * BigInt(N));
    for (let i = 0; i < N; i++) {
      const r = await t.call("POST", "/missions", {
        token: creator.token,
        body: missionBody(t, { tags: [tag], reward: { asset: "USDC", amount: "1000000" } }),
      });
      expect(r.status, r.text).toBe(201);
    }
    const other = await makeTestApp({}, { database: t.db });
    other.clock.set(t.clock.now());
    // Claims alone: four concurrent claimers get disjoint sets.
    await Promise.all([fanOutEvents(t.deps), fanOutEvents(other.deps)]);
    await runVerifications(t.deps);
    // (One subscription on one host: lift the per-host cap, and claim in rounds — a claim takes at
    // most 4 deliveries of one subscription, so that no subscription crowds out the others.)
    t.deps.limits = other.deps.limits = { webhookHostConcurrency: 100 };
    const keys: string[] = [];
    for (let round = 0; round < 20; round++) {
      const claims = await Promise.all([
        claimDueDeliveries(t.deps, 10),
        claimDueDeliveries(other.deps, 10),
        claimDueDeliveries(t.deps, 10),
        claimDueDeliveries(other.deps, 10),
      ]);
      const mine = claims
        .flat()
        .filter((c) => c.body.includes(tag))
        .map((c) => c.eventId);
      if (mine.length === 0) break;
      keys.push(...mine);
    }
    expect(keys.length).toBe(N);
    expect(new Set(keys).size).toBe(N);
    // Let those leases run out, then two instances × two loops deliver at once.
    t.clock.advance(leaseMs(t.deps));
    other.clock.set(t.clock.now());
    await Promise.all([
      runWebhookJobs(t.deps),
      runWebhookJobs(other.deps),
      runWebhookJobs(t.deps),
      runWebhookJobs(other.deps),
    ]);
    const got = rx.at("/race");
    expect(got).toHaveLength(N);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(N);
    t.deps.limits = other.deps.limits = undefined;
  });
});

describe("retention", () => {
  it("finished deliveries and their events are purged after 30 days; a pending delivery and its event are kept", async () => {
    const tag = uniqueTag();
    rx.on("/stuck", () => ({ status: 500 }));
    const db = t.deps.database.db;
    await subscribe(t, "/stuck", tag);
    await openMission(t, { tags: [tag] });
    await runWebhookJobs(t.deps); // every earlier delivery is final; this one is pending
    const [pending] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, "pending"));
    expect(pending).toBeDefined();
    const countOf = async (table: typeof webhookEvents | typeof webhookDeliveries) =>
      Number((await db.select({ n: count() }).from(table))[0]!.n);
    expect(await countOf(webhookDeliveries)).toBeGreaterThan(1);
    await purgeWebhookHistory(t.deps);
    expect(await countOf(webhookDeliveries)).toBeGreaterThan(1); // nothing is old yet

    t.clock.advance(WEBHOOK_RETENTION_MS + 60_000);
    await purgeWebhookHistory(t.deps);
    expect(await db.select({ e: webhookDeliveries.eventId }).from(webhookDeliveries)).toEqual([
      { e: pending!.eventId },
    ]);
    expect(await db.select({ id: webhookEvents.id }).from(webhookEvents)).toEqual([{ id: pending!.eventId }]);
  });
});
