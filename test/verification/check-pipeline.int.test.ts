import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submissions } from "../../src/db/schema/index";
import { CHECK_PER_HOST, checkHostOf } from "../../src/jobs/check-queue";
import { runPendingChecks } from "../../src/jobs/checks";
import { createSafeFetcher } from "../../src/lib/safe-fetch";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";

// Submissions whose hosts never answer do not delay an honest deliverable's
// first check. The fetcher's test seam (`resolve`) is a resolver that never answers for names
// containing "never" — the state a dead or black-holed DNS server leaves a lookup in — and answers the honest
// host with the loopback address where the content server listens. Assertions count claims and
// job runs, never wall-clock time (the bench measures that: `npm run bench -- --scenario checks`).

const HONEST = "honest.example";
const WORKERS = 8;
const PER_HOST = CHECK_PER_HOST;
let t: TestApp;
let port = 0;
let server: http.Server;
const honestBody = "the honest deliverable\n";
/** Every name the fetcher asked the resolver for, in order. */
const lookups: string[] = [];

beforeAll(async () => {
  t = await makeTestApp({
    OABP_MAX_SUBMISSIONS_PER_AGENT: "100",
  });
  server = http.createServer((_req, res) => res.end(honestBody));
  port = await new Promise<number>((r) =>
    server.listen(0, TEST_CONTENT_HOST, () => r((server.address() as AddressInfo).port)),
  );
  t.deps.fetcher = createSafeFetcher({
    connectTimeoutMs: 200,
    timeoutMs: 2000,
    allowAddress: (ip) => ip === TEST_CONTENT_HOST,
    resolve: (host) => {
      lookups.push(host);
      if (host.includes("never")) return new Promise<string[]>(() => {}); // never answers
      if (host === HONEST) return Promise.resolve([TEST_CONTENT_HOST]);
      return Promise.reject(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" }));
    },
  });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t?.close();
});

const sha = (s: string | Buffer) => `sha256:${createHash("sha256").update(s).digest("hex")}`;
const row = async (id: string) =>
  (await t.deps.database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;

async function submit(missionId: string, contentUri: string, contentHash: string) {
  const agent = await signIn(t); // a fresh free identity each time (Sybil)
  const r = await t.call("POST", `/missions/${missionId}/submissions`, {
    token: agent.token,
    body: { content_uri: contentUri, content_hash: contentHash },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.id as string;
}

const junk = (host: (i: number) => string, missionId: string) =>
  Promise.all(Array.from({ length: 50 }, (_, i) => submit(missionId, `https://${host(i)}/x`, sha(randomBytes(8)))));

describe("verification pipeline: 50 never-answering hosts", () => {
  it("the connect budget: a resolver that never answers ends in connect_timeout; the address policy still applies", async () => {
    const f = createSafeFetcher({
      connectTimeoutMs: 50,
      timeoutMs: 5000,
      resolve: (h) => (h === "private.example" ? Promise.resolve(["10.0.0.1"]) : new Promise<string[]>(() => {})),
    });
    expect(await f.fetch("https://never.example/x")).toEqual({ ok: false, reason: "connect_timeout" });
    expect(await f.fetch("https://private.example/x")).toMatchObject({ ok: false, reason: "blocked_address" });
    expect(await f.fetch("http://127.0.0.1:9/x")).toMatchObject({ ok: false, reason: "blocked_address" });
  });

  it("checkHostOf buckets subdomains together, IP literals and ipfs CIDs apart", () => {
    expect(checkHostOf("https://j1.evil.never.test/a")).toBe("never.test");
    expect(checkHostOf("https://J2.Never.Test./b")).toBe("never.test");
    expect(checkHostOf("http://203.0.113.7:8080/x")).toBe("203.0.113.7");
    expect(checkHostOf("ipfs://bafyabc/x")).toBe("ipfs/bafyabc");
    expect(checkHostOf("data:,x")).toBeNull();
    expect(checkHostOf("data:,x", "https://pred.example.org/check")).toBe("example.org");
  });

  it("50 Sybil submissions on subdomains of one never-answering domain, then an honest one on the same mission: checked in the first round", async () => {
    const { mission } = await openMission(t);
    await junk((i) => `j${i}.sybil.never.test`, mission.id);
    const honest = await submit(mission.id, `http://${HONEST}:${port}/ok`, sha(honestBody));
    lookups.length = 0;
    // Sample the leases in flight on the junk domain while one round of the pool runs.
    let maxInflight = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const rows = await t.deps.database.db
          .select({ host: submissions.checkHost, until: submissions.checkClaimedUntil })
          .from(submissions)
          .where(eq(submissions.missionId, mission.id));
        maxInflight = Math.max(maxInflight, rows.filter((r) => r.host === "never.test" && r.until !== null).length);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await runPendingChecks(t.deps, { maxChecks: WORKERS, workers: WORKERS }); // one round: at most WORKERS claims
    sampling = false;
    await sampler;
    expect(await row(honest)).toMatchObject({ checkResult: "valid", checkClaimedUntil: null });
    // The junk domain held CHECK_PER_HOST leases, so the third claim was already the honest one.
    expect(lookups.indexOf(HONEST)).toBe(PER_HOST);
    expect(maxInflight).toBeGreaterThan(0);
    expect(maxInflight).toBeLessThanOrEqual(PER_HOST);
    // The junk that was tried waits its backoff with a transient reason, never a verdict.
    const tried = (
      await t.deps.database.db.select().from(submissions).where(eq(submissions.missionId, mission.id))
    ).filter((s) => s.checkAttempts > 0 && s.id !== honest);
    expect(tried.length).toBeGreaterThanOrEqual(PER_HOST);
    for (const s of tried)
      expect(s).toMatchObject({
        status: "pending",
        checkResult: null,
        checkReason: "content_unavailable",
        checkClaimedUntil: null,
      });
  });

  it("50 Sybil submissions on 50 different never-answering domains, honest one last on the same mission: checked within one job run", async () => {
    const { mission } = await openMission(t);
    await junk((i) => `host.never${i}.test`, mission.id); // 50 registrable domains
    const honest = await submit(mission.id, `http://${HONEST}:${port}/ok2`, sha(honestBody));
    // One run of the check loop (8 workers, 200 ms connect budget each). Its 20 s wall-clock budget
    // is lifted: on a busy machine it cut the run short, and the claim is about runs, not seconds.
    await runPendingChecks(t.deps, { budgetMs: 10 * 60_000, workers: WORKERS });
    expect(await row(honest)).toMatchObject({ checkResult: "valid" });
  });

  it("honest work on another mission is claimed in the first round whatever the backlog (round-robin across missions)", async () => {
    const spam = await openMission(t);
    await junk((i) => `z.never-other${i}.test`, spam.mission.id);
    const { mission } = await openMission(t);
    const honest = await submit(mission.id, `http://${HONEST}:${port}/ok3`, sha(honestBody));
    lookups.length = 0;
    await runPendingChecks(t.deps, { maxChecks: WORKERS, workers: WORKERS });
    expect(await row(honest)).toMatchObject({ checkResult: "valid" });
    expect(lookups.slice(0, WORKERS)).toContain(HONEST);
  });
});
