import net from "node:net";
import type { AddressInfo } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookSubscriptions } from "../../src/db/schema/index";
import { claimDueDeliveries, fanOutEvents, leaseMs } from "../../src/features/webhooks/webhooks.delivery";
import { MAX_VERIFY_ATTEMPTS } from "../../src/features/webhooks/webhooks.verify";
import { runWebhookJobs } from "../../src/jobs/webhooks";
import { createSafeFetcher } from "../../src/lib/safe-fetch";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { startReceiver, type Receiver } from "../helpers/receiver";

// Webhook Build bullet (docs/abuse-edge.md "Webhooks"). Never-
// answering hosts are real: a local TCP server on 127.0.0.3 that accepts and never says a word,
// reached under made-up names through the fetcher's test seam (its resolver), so every attempt
// to it costs a full timeout exactly as a black-holed host on the internet would.

const BLACKHOLE_IP = "127.0.0.3";
let t: TestApp;
let rx: Receiver;
let hole: net.Server;
let holePort = 0;
const held: net.Socket[] = [];

beforeAll(async () => {
  t = await makeTestApp({}, { limits: { webhookTimeoutMs: 1000 } });
  t.deps.fetcher = createSafeFetcher({
    timeoutMs: 1000,
    resolve: async (host) => (host.includes("blackhole") ? [BLACKHOLE_IP] : []),
    allowAddress: (ip) => ip === TEST_CONTENT_HOST || ip === BLACKHOLE_IP,
  });
  rx = await startReceiver();
  hole = net.createServer((socket) => void held.push(socket)); // accepts, never answers
  await new Promise<void>((resolve) => hole.listen(0, BLACKHOLE_IP, resolve));
  holePort = (hole.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((r) => hole?.close(r));
  await rx?.close();
  await t?.close();
});

/** `n` subscriptions of one fresh agent to never-answering hosts, already verified (they answered once, then went dark). */
async function darkSubscriptions(n: number, host: (k: number) => string, filters?: Record<string, unknown>) {
  const agent = await signIn(t);
  const ids: string[] = [];
  for (let k = 0; k < n; k++) {
    const r = await t.call("POST", "/webhooks", {
      token: agent.token,
      body: { url: `https://${host(k)}:${holePort}/hook`, events: ["mission.created"], ...(filters && { filters }) },
    });
    expect(r.status, r.text).toBe(201);
    ids.push(r.body.id);
  }
  await t.deps.database.db
    .update(webhookSubscriptions)
    .set({ status: "active", verifiedAt: t.clock.now(), nextVerifyAt: null })
    .where(inArray(webhookSubscriptions.id, ids));
  return ids;
}

describe("endpoint verification before the first real delivery", () => {
  /** A new agent and its subscription to mission.created events tagged `tag`, sent to `path`. */
  const taggedSubscription = async (path: string, tag: string) => {
    const agent = await signIn(t);
    const r = await t.call("POST", "/webhooks", {
      token: agent.token,
      body: { url: `${rx.base}${path}`, events: ["mission.created"], filters: { tags: [tag] } },
    });
    return { agent, subscription: r.body };
  };

  it("an endpoint that echoes the signed challenge becomes active and receives the events queued meanwhile", async () => {
    const { agent: watcher, subscription: w } = await taggedSubscription("/echoes", "verify-ok");
    expect(w.status).toBe("pending_verification");
    const { mission } = await openMission(t, { tags: ["verify-ok"] }); // before verification: queued
    await runWebhookJobs(t.deps, 1);
    expect(rx.verifications).toContain("/echoes");
    expect((await t.call("GET", `/webhooks/${w.id}`, { token: watcher.token })).body).toMatchObject({
      status: "active",
      verified_at: t.clock.now().toISOString(),
    });
    expect(rx.at("/echoes").map((r) => JSON.parse(r.body).data.mission_id)).toEqual([mission.id]);
  });

  it(`a server that never opted in gets ${MAX_VERIFY_ATTEMPTS} signed challenges and no event; the subscription is then disabled`, async () => {
    rx.refuseVerification("/victim");
    rx.on("/victim", () => ({ status: 200, headers: { "content-type": "application/json" }, body: '{"ok":true}' })); // answers 200, but not the challenge
    const { agent: attacker, subscription: w } = await taggedSubscription("/victim", "verify-no");
    for (let i = 0; i < 3; i++) await openMission(t, { tags: ["verify-no"] });
    for (let i = 0; i < 6; i++) {
      await runWebhookJobs(t.deps, 1);
      t.clock.advance(3 * 3_600_000);
    }
    const got = rx.at("/victim");
    expect(got).toHaveLength(MAX_VERIFY_ATTEMPTS);
    for (const r of got) {
      const body = JSON.parse(r.body);
      expect(body).toMatchObject({
        type: "webhook.verification",
        data: { webhook_id: w.id, challenge: expect.any(String) },
      });
      expect(r.headers["webhook-signature"]).toMatch(/^v1,/);
    }
    expect(new Set(got.map((r) => JSON.parse(r.body).data.challenge)).size).toBe(MAX_VERIFY_ATTEMPTS); // fresh each time
    const after = (await t.call("GET", `/webhooks/${w.id}`, { token: attacker.token })).body;
    expect(after).toMatchObject({ status: "disabled", disabled_reason: "verification_failed", verified_at: null });
    const deliveries = (await t.call("GET", `/webhooks/${w.id}/deliveries`, { token: attacker.token })).body.deliveries;
    expect(deliveries).toHaveLength(3);
    expect(
      deliveries.every(
        (d: { status: string; attempt_count: number }) => d.status === "failed" && d.attempt_count === 0,
      ),
    ).toBe(true);
  });
});

describe("100 never-answering subscriptions do not delay an honest delivery", () => {
  it("the honest delivery goes out in the first job tick, though 500 older deliveries to dead hosts are due", async () => {
    // 10 free identities × 10 subscriptions (the per-agent cap), each on a host of its own.
    const dark: string[] = [];
    for (let a = 0; a < 10; a++) dark.push(...(await darkSubscriptions(10, (k) => `h.blackhole-${a}-${k}.test`)));
    expect(dark).toHaveLength(100);
    for (let i = 0; i < 5; i++) await openMission(t); // 5 events × 100 = 500 deliveries to dead hosts, all due now
    await fanOutEvents(t.deps);
    t.clock.advance(1000);

    const honest = await signIn(t);
    const sub = await t.call("POST", "/webhooks", {
      token: honest.token,
      body: { url: `${rx.base}/honest`, events: ["mission.created"] },
    });
    expect(sub.status).toBe(201);
    t.clock.advance(1000);
    const { mission } = await openMission(t); // the newest event of all

    // Job ticks, the way the runner calls them (budget 1 ms: exactly one claim round per tick).
    let ticks = 0;
    while (rx.at("/honest").length === 0 && ticks < 10) {
      await runWebhookJobs(t.deps, 1);
      ticks++;
    }
    expect(ticks).toBe(1);
    expect(JSON.parse(rx.at("/honest")[0]!.body).data.mission_id).toBe(mission.id);
    // The dead hosts were tried in that same tick (and timed out), so fairness, not luck, let it through.
    const tried = await t.deps.database.db
      .select({ e: webhookDeliveries.lastError })
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.subscriptionId, dark), eq(webhookDeliveries.attemptCount, 1)));
    expect(tried.length).toBeGreaterThan(0);
    expect(tried.every((r) => r.e === "timeout")).toBe(true);
  }, 120_000);
});

// Last: its claims are never recorded (a crashed worker), which would hold the host cap of later tests.
describe("the per-host cap", () => {
  it("per destination host: at most WEBHOOK_HOST_CONCURRENCY (2) attempts in flight, across claims, until they end", async () => {
    const tag = "one-host";
    const ids = await darkSubscriptions(5, () => "victim.blackhole-victim.test", { tags: [tag] });
    await openMission(t, { tags: [tag] });
    await fanOutEvents(t.deps);
    const mine = (cs: Awaited<ReturnType<typeof claimDueDeliveries>>) =>
      cs.filter((c) => ids.includes(c.subscriptionId));
    // First claim: 2 of the 5; a second claim (another instance, say) while they are in flight: none.
    expect(mine(await claimDueDeliveries(t.deps, 100))).toHaveLength(2);
    expect(mine(await claimDueDeliveries(t.deps, 100))).toHaveLength(0);
    // A crashed worker's in-flight mark ends with its lease: the host is usable again.
    t.clock.advance(leaseMs(t.deps) + 1);
    expect(mine(await claimDueDeliveries(t.deps, 100))).toHaveLength(2);
  });
});
