import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../src/lib/webhook-events";
import { runWebhookJobs } from "../../src/jobs/webhooks";
import { makeTestApp, PUBLIC_URL } from "../helpers/app";
import { missionBody, openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { verifyStandard } from "../helpers/receiver";
import { uniqueTag, byEventId, types, useWebhookSuite } from "./webhooks-fixture";

// Webhooks end to end: subscriptions over HTTP, events from the real
// mission and submission flows, deliveries to a local receiver on 127.0.0.2 driven by calling
// the job with the manual clock (never by sleeping). Every test filters its subscriptions on a
// tag (or mission) of its own and listens on a path of its own, so tests share nothing.

const { t, rx, run, subscribe, submit } = useWebhookSuite();

describe("subscriptions", () => {
  it("POST /webhooks returns the secret once; GET never shows it; events and filters are validated", async () => {
    const me = await signIn(t);
    const created = await subscribe(me.token, {
      url: `${rx.base}/crud`,
      events: ["mission.created", "mission.created"],
      filters: { tags: ["Alpha"], creator: [me.account.address] },
    });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^whk_/),
      status: "pending_verification",
      verified_at: null,
      events: ["mission.created"],
      filters: { tags: ["alpha"], creator: [me.address] },
    });
    const got = await t.call("GET", `/webhooks/${created.id}`, { token: me.token });
    expect(got.status).toBe(200);
    expect(got.text).not.toContain("whsec_");
    expect(got.body).toEqual({ ...created, secret: undefined });
    const list = await t.call("GET", "/webhooks", { token: me.token });
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toEqual([created.id]);
    expect(list.text).not.toContain("whsec_");

    const bad = (body: unknown) => t.call("POST", "/webhooks", { token: me.token, body });
    expectError(await bad({ url: `${rx.base}/x`, events: ["mission.exploded"] }), 400, "INVALID_PARAMETER");
    expectError(await bad({ url: `${rx.base}/x`, events: [] }), 400, "INVALID_PARAMETER");
    expectError(
      await bad({ url: `${rx.base}/x`, events: ["mission.created"], filters: { tag: ["a"] } }),
      400,
      "INVALID_PARAMETER",
    );
    expectError(
      await bad({ url: `${rx.base}/x`, events: ["mission.created"], filters: { mission_id: ["mis_nope"] } }),
      400,
      "INVALID_PARAMETER",
    );
    expectError(
      await bad({ url: `${rx.base}/x`, events: ["mission.created"], filters: { verification_type: ["vibes"] } }),
      400,
      "INVALID_PARAMETER",
    );
    const checksum = await bad({
      url: `${rx.base}/x`,
      events: ["mission.created"],
      filters: { creator: ["0xAbCdEf0000000000000000000000000000000000"] },
    });
    expectError(checksum, 400, "INVALID_PARAMETER");
    expectError(
      await bad({ url: `https://agent.example/${"a".repeat(2100)}`, events: ["mission.created"] }),
      400,
      "INVALID_PARAMETER",
    );
    expectError(await bad({ events: ["mission.created"] }), 400, "INVALID_PARAMETER");

    expect((await t.call("DELETE", `/webhooks/${created.id}`, { token: me.token })).status).toBe(204);
    expectError(await t.call("GET", `/webhooks/${created.id}`, { token: me.token }), 404, "NOT_FOUND");
    expectError(await t.call("DELETE", `/webhooks/${created.id}`, { token: me.token }), 404, "NOT_FOUND");
  });

  it("only the owner sees or deletes a subscription: others get 404, anonymous 401, the admin token 403", async () => {
    const owner = await signIn(t);
    const other = await signIn(t);
    const w = await subscribe(owner.token, {
      url: `${rx.base}/owned`,
      events: ["mission.created"],
      filters: { tags: [uniqueTag()] },
    });
    for (const [method, path] of [
      ["GET", `/webhooks/${w.id}`],
      ["DELETE", `/webhooks/${w.id}`],
      ["GET", `/webhooks/${w.id}/deliveries`],
    ] as const) {
      expectError(await t.call(method, path, { token: other.token }), 404, "NOT_FOUND");
      expectError(await t.call(method, path), 401, "UNAUTHORIZED");
      expectError(await t.call(method, `/api${path}`, { token: other.token }), 404, "NOT_FOUND");
    }
    expectError(await t.call("GET", "/webhooks/not-an-id", { token: owner.token }), 404, "NOT_FOUND");
    expect((await t.call("GET", "/webhooks", { token: other.token })).body.webhooks).toEqual([]);
    expectError(
      await t.call("POST", "/webhooks", { body: { url: `${rx.base}/x`, events: ["mission.created"] } }),
      401,
      "UNAUTHORIZED",
    );
    expectError(await t.call("GET", "/webhooks", { token: "test-admin-token-0123456789abcdef" }), 403, "FORBIDDEN");
    expect((await t.call("GET", `/webhooks/${w.id}`, { token: owner.token })).status).toBe(200);
  });

  it("caps subscriptions per agent (WEBHOOK_MAX_PER_AGENT, default 10), paged newest first", async () => {
    const me = await signIn(t);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push(
        (
          await subscribe(me.token, {
            url: `${rx.base}/cap/${i}`,
            events: ["mission.created"],
            filters: { tags: [uniqueTag()] },
          })
        ).id,
      );
    const over = await t.call("POST", "/webhooks", {
      token: me.token,
      body: { url: `${rx.base}/cap/10`, events: ["mission.created"] },
    });
    expectError(over, 409, "CONFLICT");
    expect(over.body.details).toMatchObject({ reason: "webhook_limit", limit: 10 });
    const page1 = await t.call("GET", "/webhooks?limit=6", { token: me.token });
    const page2 = await t.call("GET", `/webhooks?limit=6&cursor=${page1.body.next_cursor}`, { token: me.token });
    expect([...page1.body.webhooks, ...page2.body.webhooks].map((w: { id: string }) => w.id)).toEqual(
      [...ids].reverse(),
    );
    expect(page2.body.next_cursor).toBeNull();
    expect((await t.call("DELETE", `/webhooks/${ids[0]}`, { token: me.token })).status).toBe(204);
    await subscribe(me.token, {
      url: `${rx.base}/cap/10`,
      events: ["mission.created"],
      filters: { tags: [uniqueTag()] },
    });
  });
});

describe("deliveries", () => {
  it("a mission's life arrives signed per Standard Webhooks (verified with the official library), public data only", async () => {
    const tag = uniqueTag();
    const watcher = await signIn(t);
    const w = await subscribe(watcher.token, {
      url: `${rx.base}/life`,
      events: [...EVENT_TYPES],
      filters: { tags: [tag] },
    });
    const { creator, mission } = await openMission(t, { tags: [tag] });
    const a = await submit(mission.id, { content: "SECRET-ANSWER-A" });
    const b = await submit(mission.id, { content: "SECRET-ANSWER-B" });
    const award = await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: b.submission.id }] },
    });
    expect(award.status, award.text).toBe(200);
    const voided = (await t.call("POST", "/missions", { token: creator.token, body: missionBody(t, { tags: [tag] }) }))
      .body;
    expect((await t.call("POST", `/missions/${voided.id}/void`, { token: creator.token })).status).toBe(200);

    expect(rx.at("/life")).toHaveLength(0); // nothing is sent from a request: only the job delivers
    expect(await run()).toBe(9);
    const got = byEventId(rx.at("/life"));
    expect(types(got)).toEqual([
      "mission.created",
      "submission.created",
      "submission.created",
      "submission.accepted",
      "submission.rejected",
      "mission.resolved",
      "payout.confirmed",
      "mission.created",
      "mission.voided",
    ]);
    const now = t.clock.now();
    const bodies = got.map((r) => {
      const body = verifyStandard(w.secret, r, now) as {
        id: string;
        type: string;
        timestamp: string;
        data: Record<string, any>;
      };
      expect(body.id).toBe(r.headers["webhook-id"]);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(() => verifyStandard(w.secret, { ...r, body: r.body.replace(/"type"/, '"type" ') }, now)).toThrow();
      return body;
    });
    // Deliverables and secrets never travel: only ids, statuses, amounts, links.
    for (const r of got) {
      expect(r.body).not.toContain("SECRET-ANSWER");
      expect(r.body).not.toContain("content_uri");
      expect(r.body).not.toContain("whsec_");
    }
    const [created, , , accepted, rejected, resolved, paid] = bodies;
    expect(created!.data).toMatchObject({
      mission_id: mission.id,
      creator: creator.address,
      status: "open",
      verification_type: "creator_judges",
      reward: { asset: "USDC", amount: "100000000", chain: "ledger" },
      tags: [tag],
      links: { mission: `${PUBLIC_URL}/missions/${mission.id}` },
    });
    expect(created!.timestamp).toBe(mission.created_at);
    expect(accepted!.data).toMatchObject({
      submission_id: b.submission.id,
      submitter: b.address,
      status: "accepted",
      reason: "selected_by_creator",
      payout: { asset: "USDC", amount: "99500000" },
    });
    expect(rejected!.data).toMatchObject({
      submission_id: a.submission.id,
      submitter: a.address,
      status: "rejected",
      reason: "not_selected",
    });
    expect(resolved!.data).toMatchObject({
      status: "resolved",
      resolution_reason: "creator_award",
      fee_amount: "500000",
      payout_status: "confirmed",
      winners: [{ submission_id: b.submission.id, agent_id: b.address, amount: "99500000" }],
    });
    expect(paid!.data).toMatchObject({
      submission_id: b.submission.id,
      agent_id: b.address,
      amount: "99500000",
      chain: "ledger",
      payout_status: "confirmed",
      links: { receipt: `${PUBLIC_URL}/missions/${mission.id}/receipts/${b.submission.id}` },
    });
    expect(bodies[8]!.data).toMatchObject({
      mission_id: voided.id,
      status: "voided",
      resolution_reason: "creator_void",
      refund: { amount: "100000000", to: creator.address },
    });
    // The receipt link works.
    expect((await t.call("GET", new URL(paid!.data.links.receipt).pathname)).status).toBe(200);

    const log = await t.call("GET", `/webhooks/${w.id}/deliveries?limit=5`, { token: watcher.token });
    expect(log.status).toBe(200);
    expect(log.text).not.toContain("whsec_");
    const log2 = await t.call("GET", `/webhooks/${w.id}/deliveries?limit=5&cursor=${log.body.next_cursor}`, {
      token: watcher.token,
    });
    const all = [...log.body.deliveries, ...log2.body.deliveries];
    expect(all.map((d: { event_id: string }) => d.event_id)).toEqual(got.map((r) => r.headers["webhook-id"]).reverse()); // newest first
    expect(log2.body.next_cursor).toBeNull();
    expect(all[0]).toMatchObject({
      event_type: "mission.voided",
      status: "delivered",
      attempt_count: 1,
      last_status_code: 204,
      last_error: null,
      next_attempt_at: null,
      delivered_at: now.toISOString(),
    });
    expect(all[0].attempts).toEqual([
      { attempt: 1, at: now.toISOString(), duration_ms: expect.any(Number), status_code: 204, error: null },
    ]);
    expect(await run()).toBe(0); // delivered once; nothing left
  });
});

describe("OABP_WEBHOOKS_ENABLED", () => {
  it("is on by default (manifest lists /webhooks); off, the routes answer 503 and the manifest omits them", async () => {
    const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
    expect(manifest.endpoints.webhooks).toBe("/webhooks");
    const off = await makeTestApp({ OABP_WEBHOOKS_ENABLED: "false" });
    try {
      const me = await signIn(off);
      const r = await off.call("POST", "/webhooks", {
        token: me.token,
        body: { url: "https://agent.example/h", events: ["mission.created"] },
      });
      expectError(r, 503, "SERVICE_UNAVAILABLE");
      expect(r.body.details.reason).toBe("webhooks_disabled");
      expectError(await off.call("GET", "/webhooks", { token: me.token }), 503, "SERVICE_UNAVAILABLE");
      expect((await off.call("GET", "/.well-known/oabp.json")).body.endpoints.webhooks).toBeUndefined();
      expect(await runWebhookJobs(off.deps)).toBe(0);
    } finally {
      await off.close();
    }
  });
});
