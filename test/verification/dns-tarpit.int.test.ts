import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submissions, webhookDeliveries, webhookSubscriptions } from "../../src/db/schema/index";
import { fanOutEvents } from "../../src/features/webhooks/webhooks.delivery";
import { claimNextCheck } from "../../src/jobs/check-queue";
import { runPendingChecks } from "../../src/jobs/checks";
import { runWebhookJobs } from "../../src/jobs/webhooks";
import { createDnsResolver } from "../../src/lib/dns-resolver";
import { createSafeFetcher } from "../../src/lib/safe-fetch";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { startDnsServer, type DnsServer } from "../helpers/dns-server";
import { startReceiver, type Receiver } from "../helpers/receiver";

// docs/abuse.md "Resolver": a REAL local DNS server (UDP, test/helpers/dns-server.ts)
// answers the honest name and never answers any name under a tarpit domain; the fetcher resolves
// through it (OABP_DNS_SERVERS) with c-ares, never getaddrinfo. Assertions are on claim order,
// rounds and counters, never on wall-clock durations (`npm run bench:abuse` times it).

const HONEST = "files.honest.example";
const WORKERS = 32;
let t: TestApp;
let dns: DnsServer;
let content: http.Server;
let rx: Receiver;
let port = 0;
const body = "the honest deliverable\n";
const sha = (s: string | Buffer) => `sha256:${createHash("sha256").update(s).digest("hex")}`;

beforeAll(async () => {
  dns = await startDnsServer({ records: { [HONEST]: TEST_CONTENT_HOST }, tarpit: (n) => n.includes("tarpit") });
  t = await makeTestApp(
    { OABP_DNS_SERVERS: dns.address, OABP_MAX_SUBMISSIONS_PER_AGENT: "100" },
    { limits: { webhookTimeoutMs: 1000 } },
  );
  const a = t.deps.config.abuse;
  expect(a.dnsServers).toEqual([dns.address]);
  // Built as deps.build.ts builds it, plus the tests' content address.
  t.deps.fetcher = createSafeFetcher({
    timeoutMs: 2000,
    // Shorter DNS and connect budgets than production's (SAFE_FETCH_DEFAULTS), injected.
    connectTimeoutMs: 1000,
    dns: { servers: a.dnsServers, timeoutMs: 400 },
    perDomain: 1024,
    perAddress: 1024,
    now: () => t.clock.now().getTime(),
    allowAddress: (ip) => ip === TEST_CONTENT_HOST,
  });
  content = http.createServer((_req, res) => res.end(body));
  port = await new Promise<number>((r) =>
    content.listen(0, TEST_CONTENT_HOST, () => r((content.address() as AddressInfo).port)),
  );
  rx = await startReceiver();
});
afterAll(async () => {
  content?.closeAllConnections();
  await new Promise((r) => content?.close(r));
  await rx?.close();
  await dns?.close();
  await t?.close();
});

const row = async (id: string) =>
  (await t.deps.database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;

async function submit(missionId: string, contentUri: string, contentHash: string) {
  const agent = await signIn(t); // a fresh free identity each time
  const r = await t.call("POST", `/missions/${missionId}/submissions`, {
    token: agent.token,
    body: { content_uri: contentUri, content_hash: contentHash },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.id as string;
}

async function tarpitThenHonest(domain: (i: number) => string, tag: string) {
  await parkBacklog();
  const { mission } = await openMission(t);
  for (let i = 0; i < 75; i++) await submit(mission.id, `https://j${i}.${domain(i)}/x`, sha(randomBytes(8)));
  const honest = await submit(mission.id, `http://${HONEST}:${port}/${tag}`, sha(body));
  return { mission, honest };
}

/** Earlier tests' backlog is parked, so each test's queue holds its own mission's work only. */
const parkBacklog = () => t.deps.database.db.update(submissions).set({ nextCheckAt: null, checkClaimedUntil: null });

describe("the resolver (c-ares against a real local DNS server)", () => {
  it("answers an honest name while 64 lookups of never-answering names are outstanding", async () => {
    const r = createDnsResolver({ servers: [dns.address], timeoutMs: 60_000, negativeTtlMs: 30_000, now: Date.now });
    const stop = new AbortController();
    let settled = 0;
    // 64: far more than libuv's 4 pool threads, few enough that the test server's UDP buffer holds them on a busy machine.
    const stuck = Array.from({ length: 64 }, (_, i) =>
      r.resolve(`n${i}.tarpit-many.test`, stop.signal).catch((e: { code?: string }) => {
        settled++;
        return e.code;
      }),
    );
    // getaddrinfo would queue this behind the stuck lookups on libuv's 4 pool threads.
    expect(await r.resolve(HONEST)).toEqual([TEST_CONTENT_HOST]);
    expect(settled).toBe(0);
    stop.abort(); // the caller's budget ends: every stuck lookup gives up at once
    expect(new Set(await Promise.all(stuck))).toEqual(new Set(["ECANCELLED"]));
  });

  it("a lookup ends at its timeout; a failed name is remembered briefly (no query), then asked again", async () => {
    let now = 1_000_000;
    const r = createDnsResolver({ servers: [dns.address], timeoutMs: 100, negativeTtlMs: 30_000, now: () => now });
    const asked = () => dns.queries.filter((q) => q.name === "once.tarpit-neg.test").length;
    await expect(r.resolve("once.tarpit-neg.test")).rejects.toMatchObject({ code: "ETIMEOUT" });
    const first = asked();
    expect(first).toBeGreaterThan(0);
    await expect(r.resolve("ONCE.tarpit-neg.test.")).rejects.toMatchObject({ code: "ETIMEOUT" });
    expect(asked()).toBe(first);
    expect(r.stats()).toMatchObject({ negativeHits: 1, timeouts: 1 });
    now += 30_001;
    await expect(r.resolve("once.tarpit-neg.test")).rejects.toMatchObject({ code: "ETIMEOUT" });
    expect(asked()).toBeGreaterThan(first);
    await expect(r.resolve("unknown.example")).rejects.toMatchObject({ code: "ENOTFOUND" });
  });
});

describe("fetch slots per registrable domain", () => {
  it("a hop past the domain's slots is host_busy at once; the slot comes back when the hop ends", async () => {
    const f = createSafeFetcher({
      perDomain: 1,
      timeoutMs: 2000,
      dns: { servers: [dns.address], timeoutMs: 100, negativeTtlMs: 0 },
      now: () => t.clock.now().getTime(),
    });
    const first = f.fetch("https://a.tarpit-slots.test/x"); // its DNS never answers
    expect(await f.fetch("https://b.tarpit-slots.test/y")).toEqual({
      ok: false,
      reason: "host_busy",
      detail: "domain",
    });
    expect(await first).toMatchObject({ ok: false, reason: "dns_error" });
    expect(await f.fetch("https://c.tarpit-slots.test/z")).toMatchObject({ ok: false, reason: "dns_error" });
  });
});

describe("75 submissions on never-answering domains do not hold an honest check", () => {
  for (const [label, domain] of [
    ["10 domains", (i: number) => `tarpit${i % 10}.test`],
    ["one domain", () => "tarpit-one.test"],
  ] as const) {
    it(`${label}: the honest check is claimed and verified in the first round and never rejected`, async () => {
      const { mission, honest } = await tarpitThenHonest(domain, label.replace(" ", "-"));
      dns.queries.length = 0;
      await runPendingChecks(t.deps, { maxChecks: WORKERS }); // one round: at most 32 claims
      expect(await row(honest)).toMatchObject({ checkResult: "valid", checkAttempts: 1 });
      const firstHonest = dns.queries.findIndex((q) => q.name === HONEST);
      // At most CHECK_PER_HOST (2) tarpit checks per registrable domain went first: each has
      // its own host name, so count the names asked before the honest one (the resolver re-sends
      // an unanswered query, so the number of queries depends on timing; the names do not).
      const domains = label === "one domain" ? 1 : 10;
      expect(firstHonest).toBeGreaterThanOrEqual(0);
      const namesFirst = new Set(dns.queries.slice(0, firstHonest).map((q) => q.name.toLowerCase()));
      expect(namesFirst.size).toBeLessThanOrEqual(2 * domains);
      // The tarpit checks that were tried wait their backoff with a transient reason, never a verdict.
      const junk = (
        await t.deps.database.db.select().from(submissions).where(eq(submissions.missionId, mission.id))
      ).filter((s) => s.id !== honest && s.checkAttempts > 0);
      expect(junk.length).toBeGreaterThanOrEqual(2 * domains);
      for (const s of junk)
        expect(s).toMatchObject({ status: "pending", checkResult: null, checkReason: "content_unavailable" });
      // The honest deliverable is never rejected for the attacker's delay: later rounds leave it valid.
      t.clock.advance(16 * 60_000);
      await runPendingChecks(t.deps, { maxChecks: WORKERS });
      expect(await row(honest)).toMatchObject({ status: "pending", checkResult: "valid" });
    }, 180_000);
  }

  it("an honest first check is not ranked behind other submitters' due retries on the same mission", async () => {
    await parkBacklog();
    const { mission } = await openMission(t);
    for (let i = 0; i < 6; i++) await submit(mission.id, `https://j.tarpit-retry${i}.test/x`, sha(randomBytes(8)));
    await runPendingChecks(t.deps, { maxChecks: WORKERS }); // every tarpit check tried once
    t.clock.advance(60_000); // their retries are due
    const honest = await submit(mission.id, `http://${HONEST}:${port}/retry`, sha(body));
    const claimed = await claimNextCheck(t.deps);
    expect(claimed?.id).toBe(honest);
  });
});

describe("deliveries to never-answering domains do not hold an honest delivery", () => {
  it("80 subscriptions on 10 tarpit domains: the honest delivery goes out in the first tick", async () => {
    const dark: string[] = [];
    for (let a = 0; a < 8; a++) {
      const agent = await signIn(t);
      for (let k = 0; k < 10; k++) {
        const r = await t.call("POST", "/webhooks", {
          token: agent.token,
          body: { url: `https://h${a}.tarpit-hook${k}.test/hook`, events: ["mission.created"] },
        });
        expect(r.status, r.text).toBe(201);
        dark.push(r.body.id);
      }
    }
    await t.deps.database.db
      .update(webhookSubscriptions)
      .set({ status: "active", verifiedAt: t.clock.now(), nextVerifyAt: null })
      .where(inArray(webhookSubscriptions.id, dark));
    for (let i = 0; i < 3; i++) await openMission(t);
    await fanOutEvents(t.deps);
    t.clock.advance(1000);
    const honest = await signIn(t);
    expect(
      (
        await t.call("POST", "/webhooks", {
          token: honest.token,
          body: { url: `${rx.base}/dns-honest`, events: ["mission.created"] },
        })
      ).status,
    ).toBe(201);
    await runWebhookJobs(t.deps, 1); // verification of the honest endpoint
    t.clock.advance(1000);
    const { mission } = await openMission(t);
    let ticks = 0;
    while (rx.at("/dns-honest").length === 0 && ticks < 10) {
      await runWebhookJobs(t.deps, 1);
      ticks++;
    }
    expect(ticks).toBe(1);
    expect(JSON.parse(rx.at("/dns-honest")[0]!.body).data.mission_id).toBe(mission.id);
    // The tarpit domains were tried in that tick; each lookup ended at SAFE_FETCH_DEFAULTS.dnsTimeoutMs.
    const tried = await t.deps.database.db
      .select({ e: webhookDeliveries.lastError })
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.subscriptionId, dark), eq(webhookDeliveries.attemptCount, 1)));
    expect(tried.length).toBeGreaterThan(0);
    expect(new Set(tried.map((r) => r.e))).toEqual(new Set(["dns_error"])); // the lookup timed out, within the budget
  }, 120_000);
});
