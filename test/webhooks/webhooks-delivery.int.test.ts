import { describe, expect, it } from "vitest";
import { webhookSubscriptions } from "../../src/db/schema/index";
import { newId } from "../../src/lib/ids";
import { newWebhookSecret } from "../../src/lib/webhook-signature";
import { runPendingChecks } from "../../src/jobs/checks";
import { credit, missionBody, openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { verifyStandard, type Received, type Rule } from "../helpers/receiver";
import { useCanary } from "../helpers/canary";
import { uniqueTag, byEventId, types, useWebhookSuite } from "./webhooks-fixture";

// Webhooks end to end, deliveries that fail or are filtered (the subscriptions and a mission
// delivered whole: webhooks.int.test.ts): events from the real mission and submission flows,
// deliveries to a local receiver on 127.0.0.2 driven by calling
// the job with the manual clock (never by sleeping). Every test filters its subscriptions on a
// tag (or mission) of its own and listens on a path of its own, so tests share nothing.

const { t, rx, run, subscribe, submit } = useWebhookSuite();
const canary = useCanary();

/**
 * A receiver path answering by `rule`, and a new agent's subscription to `events` sent there,
 * filtered on a tag of the test's own.
 */
async function watched(path: string, rule: Rule, events: string[]) {
  const tag = uniqueTag();
  rx.on(path, rule);
  const watcher = await signIn(t);
  const w = await subscribe(watcher.token, { url: `${rx.base}${path}`, events, filters: { tags: [tag] } });
  return { tag, watcher, w };
}

describe("deliveries that fail, are refused or are filtered", () => {
  it("a receiver that fails twice then succeeds gets the same webhook-id and body each time, on the backoff schedule", async () => {
    const { tag, watcher, w } = await watched("/flaky", (n) => ({ status: n <= 2 ? 503 : 200 }), ["mission.created"]);
    await openMission(t, { tags: [tag] });
    const deliveries = async () =>
      (await t.call("GET", `/webhooks/${w.id}/deliveries`, { token: watcher.token })).body.deliveries;

    await run();
    expect(rx.at("/flaky")).toHaveLength(1);
    let [d] = await deliveries();
    expect(d).toMatchObject({
      status: "pending",
      attempt_count: 1,
      last_status_code: 503,
      last_error: "unexpected_status",
    });
    const wait1 = new Date(d.next_attempt_at).getTime() - t.clock.now().getTime();
    expect(wait1).toBeGreaterThanOrEqual(8_000); // 10 s ± 20 %
    expect(wait1).toBeLessThanOrEqual(12_000);
    await run();
    expect(rx.at("/flaky")).toHaveLength(1); // not due yet

    t.clock.advance(wait1);
    await run();
    expect(rx.at("/flaky")).toHaveLength(2);
    [d] = await deliveries();
    const wait2 = new Date(d.next_attempt_at).getTime() - t.clock.now().getTime();
    expect(wait2).toBeGreaterThanOrEqual(16_000); // 20 s ± 20 %
    expect(wait2).toBeLessThanOrEqual(24_000);
    t.clock.advance(wait2);
    await run();
    const got = rx.at("/flaky");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    expect(new Set(got.map((r) => r.headers["webhook-timestamp"])).size).toBe(3); // each attempt signs its own time
    expect(verifyStandard(w.secret, got[2]!, t.clock.now())).toMatchObject({ type: "mission.created" });
    [d] = await deliveries();
    expect(d).toMatchObject({ status: "delivered", attempt_count: 3, last_status_code: 200, next_attempt_at: null });
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([503, 503, 200]);
    const sub = (await t.call("GET", `/webhooks/${w.id}`, { token: watcher.token })).body;
    expect(sub).toMatchObject({ status: "active", failing_since: null, last_success_at: t.clock.now().toISOString() });
  });

  it("redirects are failures and never followed; private addresses are refused when subscribing and when delivering", async () => {
    const tag = uniqueTag();
    rx.on("/moved", () => ({ status: 302, headers: { location: `http://127.0.0.1:${canary.port}/stolen` } }));
    rx.on("/moved-here", () => ({ status: 307, headers: { location: "/landing" } }));
    const watcher = await signIn(t);
    const w1 = await subscribe(watcher.token, {
      url: `${rx.base}/moved`,
      events: ["mission.created"],
      filters: { tags: [tag] },
    });
    const w2 = await subscribe(watcher.token, {
      url: `${rx.base}/moved-here`,
      events: ["mission.created"],
      filters: { tags: [tag] },
    });
    await openMission(t, { tags: [tag] });
    await run();
    for (const [w, status] of [
      [w1, 302],
      [w2, 307],
    ] as const) {
      const [d] = (await t.call("GET", `/webhooks/${w.id}/deliveries`, { token: watcher.token })).body.deliveries;
      expect(d).toMatchObject({ status: "pending", last_status_code: status, last_error: "redirect_not_followed" });
    }
    expect(rx.at("/landing")).toHaveLength(0);

    const refuse = async (url: string, reason: string) => {
      const r = await t.call("POST", "/webhooks", { token: watcher.token, body: { url, events: ["mission.created"] } });
      expectError(r, 422, "UNPROCESSABLE");
      expect(r.body.details, url).toMatchObject({ field: "url", reason });
    };
    await refuse("https://10.0.0.1/hook", "blocked_address");
    await refuse(`http://127.0.0.1:${canary.port}/hook`, "blocked_address");
    await refuse("https://[::1]/hook", "blocked_address");
    await refuse("https://169.254.169.254/latest/meta-data", "blocked_address");
    await refuse("https://localhost/hook", "blocked_address");
    await refuse("http://agent.example/hook", "https_required");
    await refuse("https://user:secret@agent.example/hook", "credentials_in_url");
    await refuse("not a url", "invalid_url");

    // A URL that points somewhere private by the time it is delivered (as if its DNS changed):
    // the fetcher refuses at connect time with a stable error.
    const now = t.clock.now();
    await t.deps.database.db.insert(webhookSubscriptions).values({
      id: newId("whk", now.getTime()),
      owner: watcher.address,
      url: `http://127.0.0.1:${canary.port}/hook`,
      events: ["mission.created"],
      filterTags: [tag],
      secret: newWebhookSecret(),
      status: "active",
      createdAt: now,
      updatedAt: now,
    });
    await openMission(t, { tags: [tag] });
    await run();
    const mine = (await t.call("GET", "/webhooks", { token: watcher.token })).body.webhooks as {
      id: string;
      url: string;
    }[];
    const inserted = mine.find((x) => x.url.includes("127.0.0.1"))!;
    const [d] = (await t.call("GET", `/webhooks/${inserted.id}/deliveries`, { token: watcher.token })).body.deliveries;
    expect(d).toMatchObject({ status: "pending", last_status_code: null, last_error: "blocked_address" });
    expect(canary.connections).toBe(0);
  });

  it("410 Gone disables the subscription and ends its pending deliveries; nothing more is sent to it", async () => {
    const { tag, watcher, w } = await watched("/gone", () => ({ status: 410 }), ["mission.created", "mission.voided"]);
    const { creator, mission } = await openMission(t, { tags: [tag] });
    expect((await t.call("POST", `/missions/${mission.id}/void`, { token: creator.token })).status).toBe(200);
    await run();
    const sent = rx.at("/gone").length;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(2); // both may have been in flight together
    const sub = (await t.call("GET", `/webhooks/${w.id}`, { token: watcher.token })).body;
    expect(sub).toMatchObject({
      status: "disabled",
      disabled_reason: "endpoint_gone",
      disabled_at: t.clock.now().toISOString(),
    });
    const ds = (await t.call("GET", `/webhooks/${w.id}/deliveries`, { token: watcher.token })).body.deliveries;
    expect(ds.map((d: { status: string }) => d.status)).toEqual(["failed", "failed"]);
    expect(
      ds.some(
        (d: { last_status_code: number | null; last_error: string }) =>
          d.last_status_code === 410 && d.last_error === "endpoint_gone",
      ),
    ).toBe(true);

    await openMission(t, { tags: [tag] });
    t.clock.advance(3_600_000);
    await run();
    expect(rx.at("/gone")).toHaveLength(sent);
  });

  it("a failing endpoint: a delivery ends failed after WEBHOOK_MAX_ATTEMPTS (8); the subscription is disabled after 10 failures in a row", async () => {
    const { tag, watcher, w } = await watched("/down", () => ({ status: 500 }), ["mission.created"]);
    await openMission(t, { tags: [tag] });
    // Eight attempts on the backoff schedule take about 21 minutes (10 s × (1 + 2 + … + 64)).
    for (let i = 0; i < 40; i++) {
      await run();
      t.clock.advance(10 * 60_000);
    }
    const again = watcher;
    const [d] = (await t.call("GET", `/webhooks/${w.id}/deliveries`, { token: again.token })).body.deliveries;
    expect(d).toMatchObject({
      status: "failed",
      last_error: "unexpected_status",
      next_attempt_at: null,
      attempt_count: 8,
    });
    expect(rx.at("/down")).toHaveLength(8); // amplification per event per subscription: at most 8
    expect((await t.call("GET", `/webhooks/${w.id}`, { token: again.token })).body).toMatchObject({
      status: "active",
      consecutive_failures: 8,
    });
    // Two more failures in a row (another event) reach WEBHOOK_MAX_CONSECUTIVE_FAILURES = 10.
    await openMission(t, { tags: [tag] });
    for (let i = 0; i < 3; i++) {
      await run();
      t.clock.advance(10 * 60_000);
    }
    expect(rx.at("/down")).toHaveLength(10);
    const sub = (await t.call("GET", `/webhooks/${w.id}`, { token: again.token })).body;
    expect(sub).toMatchObject({ status: "disabled", disabled_reason: "failing_endpoint", consecutive_failures: 10 });
  });

  it("filters: mission_id, verification_type, creator and tags each narrow; an event before the subscription is not sent", async () => {
    const tag = uniqueTag();
    const other = uniqueTag();
    const creator2 = await signIn(t);
    await credit(t, creator2.address, 1_000_000_000n);
    const early = await openMission(t, { tags: [tag] }); // before any subscription below
    const watcher = await signIn(t);
    const cj = await openMission(t, { tags: [tag] });
    t.clock.advance(1000); // events at the very instant a subscription is created do reach it
    const byMission = await subscribe(watcher.token, {
      url: `${rx.base}/f/mission`,
      events: ["mission.created", "submission.created"],
      filters: { mission_id: [cj.mission.id] },
    });
    await subscribe(watcher.token, {
      url: `${rx.base}/f/type`,
      events: ["mission.created"],
      filters: { verification_type: ["first_valid_match"], tags: [tag, other] },
    });
    await subscribe(watcher.token, {
      url: `${rx.base}/f/creator`,
      events: ["mission.created"],
      filters: { creator: [creator2.address], tags: [tag] },
    });
    await subscribe(watcher.token, {
      url: `${rx.base}/f/none`,
      events: ["mission.created"],
      filters: { tags: [uniqueTag()] },
    });
    await subscribe(watcher.token, {
      url: `${rx.base}/f/tag`,
      events: ["mission.created"],
      filters: { tags: [other] },
    });
    const fvm = (
      await t.call("POST", "/missions", {
        token: cj.creator.token,
        body: missionBody(t, { tags: [tag], verification: { type: "first_valid_match", params: { expected: "x" } } }),
      })
    ).body;
    const by2 = (
      await t.call("POST", "/missions", { token: creator2.token, body: missionBody(t, { tags: [tag, other] }) })
    ).body;
    // cj was created before byMission: only its later submission reaches it.
    const s = await submit(cj.mission.id, { content: "work" });
    await run();
    const missionOf = (rs: Received[]) => byEventId(rs).map((r) => JSON.parse(r.body).data.mission_id as string);
    expect(types(rx.at("/f/mission"))).toEqual(["submission.created"]);
    expect(JSON.parse(rx.at("/f/mission")[0]!.body).data.submission_id).toBe(s.submission.id);
    expect(missionOf(rx.at("/f/type"))).toEqual([fvm.id]);
    expect(missionOf(rx.at("/f/creator"))).toEqual([by2.id]);
    expect(missionOf(rx.at("/f/tag"))).toEqual([by2.id]);
    expect(rx.at("/f/none")).toHaveLength(0);
    expect(rx.received.some((r) => r.body.includes(early.mission.id))).toBe(false);
    expect(byMission.id).toMatch(/^whk_/);
  });

  it("first_valid_match and content checks: rejections by the job and by the inline check are reported", async () => {
    const tag = uniqueTag();
    const watcher = await signIn(t);
    await subscribe(watcher.token, {
      url: `${rx.base}/checks`,
      events: [
        "submission.created",
        "submission.rejected",
        "submission.accepted",
        "mission.resolved",
        "payout.confirmed",
      ],
      filters: { tags: [tag] },
    });
    // A remote deliverable whose bytes do not hash to content_hash: the job's check rejects it.
    rx.on("/content.txt", () => ({ status: 200, body: "not what was promised" }));
    const { mission } = await openMission(t, { tags: [tag] });
    const remote = await submit(mission.id, {
      content_uri: `${rx.base}/content.txt`,
      content_hash: `sha256:${"ab".repeat(32)}`,
    });
    await runPendingChecks(t.deps);
    // first_valid_match inline: a wrong answer is rejected at once, the right one wins at once.
    const fvm = await openMission(t, {
      tags: [tag],
      verification: { type: "first_valid_match", params: { expected: "forty-two" } },
    });
    const wrong = await submit(fvm.mission.id, { content: "forty-one" });
    expect(wrong.submission).toMatchObject({ status: "rejected", reason: "expected_not_matched" });
    const right = await submit(fvm.mission.id, { content: "it is forty-two" });
    expect(right.submission.status).toBe("accepted");
    await run();
    const got = byEventId(rx.at("/checks")).map(
      (r) => JSON.parse(r.body) as { type: string; data: { submission_id?: string; reason?: string } },
    );
    expect(got.map((e) => [e.type, e.data.submission_id, e.data.reason])).toEqual([
      ["submission.created", remote.submission.id, "awaiting_judgement"],
      ["submission.rejected", remote.submission.id, "content_hash_mismatch"],
      ["submission.created", wrong.submission.id, "expected_not_matched"],
      ["submission.rejected", wrong.submission.id, "expected_not_matched"],
      ["submission.created", right.submission.id, "awaiting_verification"],
      ["submission.accepted", right.submission.id, "first_valid_match"],
      ["mission.resolved", undefined, undefined],
      ["payout.confirmed", right.submission.id, undefined],
    ]);
  });
});
