import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missions, submissions } from "../../src/db/schema/index";
import { treasuryBalances, verifyLedger } from "../../src/features/ledger/ledger.service";
import { MAX_CHECK_ATTEMPTS, runPendingChecks } from "../../src/jobs/checks";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";

// first_valid_match with remote deliverables and predicates (AIP-1 §4.2, README "Mission
// lifecycle and verification"): submissions arrive through HTTP, the remote checks run by calling
// the job functions directly with the manual clock. A server on TEST_CONTENT_HOST (127.0.0.2, the
// one loopback address the test fetcher may reach) serves the deliverables and the predicates; a
// canary on 127.0.0.1 must never see a connection.

interface Seen {
  method: string;
  path: string;
  body: string;
  headers: http.IncomingHttpHeaders;
}
interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}
type Handler = (req: Seen) => Reply | Promise<Reply>;

const handlers = new Map<string, Handler>();
const seen: Seen[] = [];
let base = "";
let canaryPort = 0;
let canaryConnections = 0;
const servers: http.Server[] = [];

const listen = (server: http.Server, host: string) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  const content = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rec: Seen = {
      method: req.method!,
      path: req.url!,
      body: Buffer.concat(chunks).toString("utf8"),
      headers: req.headers,
    };
    seen.push(rec);
    const handler = handlers.get(rec.path);
    const reply = handler ? await handler(rec) : { status: 404, body: "no such file" };
    res.writeHead(reply.status, { "content-type": "text/plain; charset=utf-8", ...reply.headers });
    res.end(reply.body ?? "");
  });
  base = `http://${TEST_CONTENT_HOST}:${await listen(content, TEST_CONTENT_HOST)}`;
  const canary = http.createServer((_req, res) => res.end("CANARY"));
  canary.on("connection", () => canaryConnections++);
  canaryPort = await listen(canary, "127.0.0.1");
  servers.push(content, canary);
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await t?.close();
});

const REWARD = 10_000_000n;
const FEE = 50_000n; // 0.5 % (OABP_FEE_BPS default 50)
const sha = (s: string) => `sha256:${createHash("sha256").update(s).digest("hex")}`;
const balance = async (address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);
const treasury = async () => (await treasuryBalances(t.deps.database.db)).get("USDC") ?? 0n;
const fvm = (params: Record<string, unknown>) => ({
  verification: { type: "first_valid_match", params },
  reward: { asset: "USDC", amount: REWARD.toString() },
});
const hits = (path: string) => seen.filter((s) => s.path === path).length;
const serve = (path: string, reply: Reply | Handler) =>
  handlers.set(path, typeof reply === "function" ? reply : () => reply);
const getMission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;
const getSub = async (missionId: string, id: string) =>
  (await t.call("GET", `/missions/${missionId}/submissions/${id}`)).body;
const row = async (id: string) =>
  (await t.deps.database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;
let paths = 0;
/** A fresh path on the content server, so tests never share a URL. */
const fresh = (name: string) => `/${++paths}-${name}`;

async function submitRemote(missionId: string, url: string, contentHash: string) {
  const agent = await signIn(t);
  const r = await t.call("POST", `/missions/${missionId}/submissions`, {
    token: agent.token,
    body: { content_uri: url, content_hash: contentHash },
  });
  expect(r.status, r.text).toBe(201);
  return { agent, sub: r.body };
}

async function submitInline(missionId: string, content: string) {
  const agent = await signIn(t);
  const r = await t.call("POST", `/missions/${missionId}/submissions`, { token: agent.token, body: { content } });
  expect(r.status, r.text).toBe(201);
  return { agent, sub: r.body };
}

/**
 * Mission creation only accepts an https predicate_uri (validation), and the test fetcher cannot
 * trust a self-signed certificate; so the mission is created with a placeholder https URL and its
 * stored params are then pointed at the plain-http predicate endpoint on TEST_CONTENT_HOST. The
 * verifier reads the params from the row, so this exercises exactly the production check path.
 */
async function predicateMission(extra: Record<string, unknown> = {}, target?: string) {
  const name = fresh("predicate");
  const { creator, mission } = await openMission(
    t,
    fvm({ predicate_uri: "https://predicate.example/check", ...extra }),
  );
  const params = { ...mission.verification.params, predicate_uri: target ?? `${base}${name}` };
  await t.deps.database.db.update(missions).set({ verificationParams: params }).where(eq(missions.id, mission.id));
  return { creator, mission, path: name };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("first_valid_match: remote deliverables", () => {
  it("content that hashes to content_hash and matches `expected` wins once checked; winner credited reward − 0.5 %", async () => {
    const { creator, mission } = await openMission(t, fvm({ expected: "answer: 42" }));
    const path = fresh("ok");
    const bytes = "Our finding — the ANSWER: 42.\n";
    serve(path, { status: 200, body: bytes });
    const treasuryBefore = await treasury();
    const creatorBefore = await balance(creator.address);

    const a = await submitRemote(mission.id, `${base}${path}`, sha(bytes));
    // Remote content is never fetched inside the request: it is checked by the job runner.
    expect(a.sub).toMatchObject({
      status: "pending",
      reason: "awaiting_verification",
      next_action: expect.stringMatching(/^wait/),
    });
    expect(hits(path)).toBe(0);
    expect((await getMission(mission.id)).status).toBe("open");

    expect(await runPendingChecks(t.deps)).toBe(1);
    expect(hits(path)).toBe(1);
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({
      status: "accepted",
      reason: "first_valid_match",
      next_action: "none",
    });
    expect(await getMission(mission.id)).toMatchObject({
      status: "resolved",
      phase: "settled",
      payout_status: "confirmed",
      resolution_reason: "first_valid_match",
      resolution: { winner_submission_id: a.sub.id, winner_agent_id: a.agent.address, fee_amount: FEE.toString() },
    });
    expect(await balance(a.agent.address)).toBe(REWARD - FEE);
    expect((await treasury()) - treasuryBefore).toBe(FEE);
    expect(await balance(creator.address)).toBe(creatorBefore);
    // Checked once: nothing is due any more.
    expect(await runPendingChecks(t.deps)).toBe(0);
    expect(hits(path)).toBe(1);
    expect((await verifyLedger(t.deps.database.db)).problems).toEqual([]);
  });

  it("bytes that do not hash to content_hash → rejected content_hash_mismatch (tamper check)", async () => {
    const { mission } = await openMission(t, fvm({ expected: "answer" }));
    const path = fresh("tampered");
    serve(path, { status: 200, body: "the answer, swapped after submission" });
    const a = await submitRemote(mission.id, `${base}${path}`, sha("the answer, as submitted"));
    await runPendingChecks(t.deps);
    expect(hits(path)).toBe(1);
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({
      status: "rejected",
      reason: "content_hash_mismatch",
      next_action: "none",
    });
    expect(await getMission(mission.id)).toMatchObject({ status: "open", resolution: null });
    expect(await balance(a.agent.address)).toBe(0n);
  });

  it("content server answers 404 → rejected content_unavailable, not retried", async () => {
    const { mission } = await openMission(t, fvm({ expected: "answer" }));
    const path = fresh("missing"); // no handler: 404
    const a = await submitRemote(mission.id, `${base}${path}`, sha("anything"));
    await runPendingChecks(t.deps);
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "rejected", reason: "content_unavailable" });
    expect((await row(a.sub.id)).nextCheckAt).toBeNull();
    t.clock.advance(3_600_000);
    expect(await runPendingChecks(t.deps)).toBe(0);
    expect(hits(path)).toBe(1);
  });

  it("503 is transient: pending with a later retry, backoff growing; after 5 attempts → rejected content_unavailable", async () => {
    const { mission } = await openMission(t, fvm({ expected: "answer" }));
    const path = fresh("flaky");
    serve(path, { status: 503, body: "try later" });
    const a = await submitRemote(mission.id, `${base}${path}`, sha("the answer"));
    let lastDelay = 0;
    for (let attempt = 1; attempt < MAX_CHECK_ATTEMPTS; attempt++) {
      expect(await runPendingChecks(t.deps)).toBe(1);
      expect(hits(path)).toBe(attempt);
      expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "pending", reason: "awaiting_verification" });
      const r = await row(a.sub.id);
      expect(r).toMatchObject({ checkAttempts: attempt, checkResult: null, checkReason: "content_unavailable" });
      const delay = r.nextCheckAt!.getTime() - t.clock.now().getTime();
      expect(delay).toBeGreaterThan(lastDelay); // a retry is scheduled, later each time
      lastDelay = delay;
      // Not due before its time: no fetch.
      t.clock.advance(delay - 1);
      expect(await runPendingChecks(t.deps)).toBe(0);
      expect(hits(path)).toBe(attempt);
      t.clock.advance(1);
    }
    expect(await runPendingChecks(t.deps)).toBe(1);
    expect(hits(path)).toBe(MAX_CHECK_ATTEMPTS);
    expect(MAX_CHECK_ATTEMPTS).toBe(5);
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({
      status: "rejected",
      reason: "content_unavailable",
      next_action: "none",
    });
    expect((await row(a.sub.id)).nextCheckAt).toBeNull();
    t.clock.advance(3_600_000);
    expect(await runPendingChecks(t.deps)).toBe(0);
    expect(hits(path)).toBe(MAX_CHECK_ATTEMPTS);
    expect((await getMission(mission.id)).status).toBe("open");
  });

  it("a content server slower than the fetch time cap is transient too: pending, retried later", async () => {
    const { mission } = await openMission(t, fvm({ expected: "answer" }));
    const path = fresh("hangs");
    const released = deferred();
    serve(path, async () => {
      await released.promise; // longer than the test fetcher's 2 s cap
      return { status: 200, body: "the answer" };
    });
    const a = await submitRemote(mission.id, `${base}${path}`, sha("the answer"));
    // The server answers only after `released`: the checks returning first is the proof that the
    // fetch cap, not the server, ended the attempt (no wall-clock assertion needed).
    await runPendingChecks(t.deps);
    released.resolve();
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "pending" });
    const r = await row(a.sub.id);
    expect(r).toMatchObject({ checkAttempts: 1, checkResult: null, checkReason: "content_unavailable" });
    serve(path, { status: 200, body: "the answer" });
    t.clock.set(r.nextCheckAt!);
    await runPendingChecks(t.deps);
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "accepted" });
    expect(await balance(a.agent.address)).toBe(REWARD - FEE);
  });

  it("content_uri on 127.0.0.1 (not the allowed host), by name or by redirect → rejected content_unavailable; the canary sees no connection", async () => {
    const { mission } = await openMission(t, fvm({ expected: "secret" }));
    const redirect = fresh("to-canary");
    serve(redirect, { status: 302, headers: { location: `http://127.0.0.1:${canaryPort}/secret` } });
    const urls = [
      `http://127.0.0.1:${canaryPort}/secret`,
      `http://localhost:${canaryPort}/secret`,
      `http://2130706433:${canaryPort}/secret`,
      `http://[::ffff:127.0.0.1]:${canaryPort}/secret`,
      `${base}${redirect}`,
    ];
    const subs = [];
    for (const url of urls) subs.push((await submitRemote(mission.id, url, sha("secret"))).sub);
    await runPendingChecks(t.deps);
    for (const s of subs)
      expect(await getSub(mission.id, s.id), s.id).toMatchObject({ status: "rejected", reason: "content_unavailable" });
    expect(hits(redirect)).toBe(1);
    expect(canaryConnections).toBe(0);
  });
});

describe("first_valid_match: arrival order with remote checks", () => {
  it("A (remote, slow) arrives before B (inline, valid): B waits while A's fetch is in flight; A's check succeeds → A wins", async () => {
    const { mission } = await openMission(t, fvm({ expected: "ok" }));
    const path = fresh("slow-a");
    const requested = deferred();
    const release = deferred();
    serve(path, async () => {
      requested.resolve();
      await release.promise;
      return { status: 200, body: "ok from A" };
    });
    const a = await submitRemote(mission.id, `${base}${path}`, sha("ok from A"));
    const checks = runPendingChecks(t.deps); // claims A and fetches it, outside any transaction
    await requested.promise;
    const b = await submitInline(mission.id, "ok from B");
    // B is valid, but A arrived first and is still unchecked: B must not win yet.
    expect(b.sub).toMatchObject({ status: "pending", reason: "awaiting_verification" });
    expect(await getMission(mission.id)).toMatchObject({ status: "open", resolution: null });
    release.resolve();
    expect(await checks).toBe(1);
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "accepted", reason: "first_valid_match" });
    expect(await getSub(mission.id, b.sub.id)).toMatchObject({ status: "rejected", reason: "another_submission_won" });
    expect((await getMission(mission.id)).resolution.winner_agent_id).toBe(a.agent.address);
    expect(await balance(a.agent.address)).toBe(REWARD - FEE);
    expect(await balance(b.agent.address)).toBe(0n);
  });

  for (const then of ["succeeds", "fails"] as const) {
    it(`A (remote, 503 first) arrives before B (inline, valid): B waits through A's retries; A's check ${then} → ${then === "succeeds" ? "A" : "B"} wins`, async () => {
      const { mission } = await openMission(t, fvm({ expected: "ok" }));
      const path = fresh(`a-503-then-${then}`);
      serve(path, { status: 503 });
      const a = await submitRemote(mission.id, `${base}${path}`, sha("ok from A"));
      const b = await submitInline(mission.id, "ok from B");
      expect(b.sub).toMatchObject({ status: "pending", reason: "awaiting_verification" });
      await runPendingChecks(t.deps);
      expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "pending" });
      expect(await getSub(mission.id, b.sub.id)).toMatchObject({ status: "pending" });
      expect(await getMission(mission.id)).toMatchObject({ status: "open", resolution: null });
      // A second retry, still failing: B still waits.
      t.clock.set((await row(a.sub.id)).nextCheckAt!);
      await runPendingChecks(t.deps);
      expect(hits(path)).toBe(2);
      expect((await getMission(mission.id)).status).toBe("open");

      serve(
        path,
        then === "succeeds"
          ? { status: 200, body: "ok from A" }
          : { status: 200, body: "ok from A, edited after submitting" },
      );
      t.clock.set((await row(a.sub.id)).nextCheckAt!);
      expect(await runPendingChecks(t.deps)).toBe(1);
      const [winner, loser] = then === "succeeds" ? [a, b] : [b, a];
      expect(await getSub(mission.id, winner.sub.id)).toMatchObject({
        status: "accepted",
        reason: "first_valid_match",
      });
      expect(await getSub(mission.id, loser.sub.id)).toMatchObject({
        status: "rejected",
        reason: then === "succeeds" ? "another_submission_won" : "content_hash_mismatch",
      });
      expect(await getMission(mission.id)).toMatchObject({
        status: "resolved",
        resolution: { winner_submission_id: winner.sub.id, winner_agent_id: winner.agent.address },
      });
      expect(await balance(winner.agent.address)).toBe(REWARD - FEE);
      expect(await balance(loser.agent.address)).toBe(0n);
    });
  }

  it("the deadline passes while the earliest submission is unchecked: the mission waits (escrowed, verifying), then a later valid one wins when A fails", async () => {
    const { mission } = await openMission(t, fvm({ expected: "ok" }));
    const path = fresh("unchecked-at-deadline");
    serve(path, { status: 503 });
    const a = await submitRemote(mission.id, `${base}${path}`, sha("ok from A"));
    const b = await submitInline(mission.id, "ok from B");
    await runPendingChecks(t.deps);
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1));
    await sweepDueMissions(t.deps);
    expect(await getMission(mission.id)).toMatchObject({ status: "escrowed", phase: "verifying", resolution: null });
    serve(path, { status: 404 });
    expect((await row(a.sub.id)).nextCheckAt!.getTime()).toBeLessThan(t.clock.now().getTime()); // A's retry is due
    await runPendingChecks(t.deps);
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "rejected", reason: "content_unavailable" });
    expect(await getMission(mission.id)).toMatchObject({
      status: "resolved",
      resolution: { winner_submission_id: b.sub.id },
    });
    expect(await balance(b.agent.address)).toBe(REWARD - FEE);
  });
});

describe("first_valid_match: predicate_uri", () => {
  it("the predicate receives the submission JSON by POST; 200 {valid: true} → accepted and paid", async () => {
    const { mission, path } = await predicateMission();
    serve(path, {
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ valid: true }),
    });
    const content = "a deliverable only the predicate can judge";
    const a = await submitInline(mission.id, content);
    // A predicate needs the network, so even inline content waits for the job runner.
    expect(a.sub).toMatchObject({ status: "pending", reason: "awaiting_verification" });
    expect(hits(path)).toBe(0);
    await runPendingChecks(t.deps);
    const calls = seen.filter((s) => s.path === path);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe("POST");
    expect(calls[0]!.headers["content-type"]).toMatch(/^application\/json/);
    const sent = JSON.parse(calls[0]!.body);
    // A commitment and a sample, never the work (docs/decisions.md "No free work through disputes or predicates").
    expect(sent).toMatchObject({
      mission_id: mission.id,
      submission_id: a.sub.id,
      submitter: a.agent.address,
      content_hash: sha(content),
      content_length: Buffer.byteLength(content),
      sample: { total_bytes: Buffer.byteLength(content) },
      submitted_at: a.sub.submitted_at,
    });
    expect(sent.content_uri).toBeUndefined();
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "accepted", reason: "first_valid_match" });
    expect(await getMission(mission.id)).toMatchObject({
      status: "resolved",
      resolution: { winner_agent_id: a.agent.address },
    });
    expect(await balance(a.agent.address)).toBe(REWARD - FEE);
  });

  it("remote content is fetched and hash-checked before the predicate is asked", async () => {
    const { mission, path } = await predicateMission();
    serve(path, { status: 200, body: JSON.stringify({ valid: true }) });
    const good = fresh("predicate-content");
    const bad = fresh("predicate-content-tampered");
    serve(good, { status: 200, body: "remote deliverable" });
    serve(bad, { status: 200, body: "remote deliverable, tampered" });
    const tampered = await submitRemote(mission.id, `${base}${bad}`, sha("remote deliverable, original"));
    await runPendingChecks(t.deps);
    expect(await getSub(mission.id, tampered.sub.id)).toMatchObject({
      status: "rejected",
      reason: "content_hash_mismatch",
    });
    expect(hits(path)).toBe(0); // never asked about tampered content
    const a = await submitRemote(mission.id, `${base}${good}`, sha("remote deliverable"));
    await runPendingChecks(t.deps);
    expect(hits(good)).toBe(1);
    const sent = JSON.parse(seen.filter((s) => s.path === path)[0]!.body);
    expect(sent).toMatchObject({ submission_id: a.sub.id, content_hash: sha("remote deliverable") });
    expect(sent.content_uri).toBeUndefined(); // the predicate is not told where the work is
    expect(hits(good)).toBe(1);
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "accepted" });
  });

  it("200 {valid: false} or a non-JSON body → held for the default outcome (pending), never a final rejection", async () => {
    const { mission, path } = await predicateMission();
    serve(path, { status: 200, body: JSON.stringify({ valid: false, why: "wrong" }) });
    const no = await submitInline(mission.id, "first try");
    await runPendingChecks(t.deps);
    // The creator's predicate has seen the work: its rejection holds the submission for the
    // default outcome (docs/decisions.md "Predicates") instead of rejecting it.
    expect(await getSub(mission.id, no.sub.id)).toMatchObject({ status: "pending", reason: "held_for_default" });
    expect(await row(no.sub.id)).toMatchObject({ checkResult: "invalid", checkReason: "predicate_rejected" });
    serve(path, { status: 200, body: "yes, looks fine to me" });
    const garbled = await submitInline(mission.id, "second try");
    await runPendingChecks(t.deps);
    expect(await getSub(mission.id, garbled.sub.id)).toMatchObject({ status: "pending", reason: "held_for_default" });
    expect(hits(path)).toBe(2);
    expect(await getMission(mission.id)).toMatchObject({ status: "open", resolution: null });
  });

  it("500 from the predicate → retried later; when it recovers the submission is judged", async () => {
    const { mission, path } = await predicateMission();
    serve(path, { status: 500, body: "internal error" });
    const a = await submitInline(mission.id, "please judge me");
    await runPendingChecks(t.deps);
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "pending" });
    const r = await row(a.sub.id);
    expect(r).toMatchObject({ checkAttempts: 1, checkResult: null, checkReason: "predicate_unavailable" });
    expect(r.nextCheckAt!.getTime()).toBeGreaterThan(t.clock.now().getTime());
    serve(path, { status: 200, body: JSON.stringify({ valid: true }) });
    t.clock.set(r.nextCheckAt!);
    await runPendingChecks(t.deps);
    expect(hits(path)).toBe(2);
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "accepted" });
    expect(await balance(a.agent.address)).toBe(REWARD - FEE);
  });

  it("the predicate takes precedence over `expected`: valid although expected does not match, and vice versa", async () => {
    const yes = await predicateMission({ expected: "this phrase is never submitted" });
    serve(yes.path, { status: 200, body: JSON.stringify({ valid: true }) });
    const a = await submitInline(yes.mission.id, "something else entirely");
    await runPendingChecks(t.deps);
    expect(await getSub(yes.mission.id, a.sub.id)).toMatchObject({ status: "accepted", reason: "first_valid_match" });
    expect(await balance(a.agent.address)).toBe(REWARD - FEE);

    const no = await predicateMission({ expected: "magic words" });
    serve(no.path, { status: 200, body: JSON.stringify({ valid: false }) });
    const b = await submitInline(no.mission.id, "the magic words, exactly");
    await runPendingChecks(t.deps);
    expect(await getSub(no.mission.id, b.sub.id)).toMatchObject({ status: "pending", reason: "held_for_default" });
  });

  it("a predicate_uri on 127.0.0.1 is never called: zero canary connections; the submission is kept as unanswered (docs/abuse.md)", async () => {
    const { mission } = await predicateMission({}, `http://127.0.0.1:${canaryPort}/predicate`);
    // Deadline after the voided-path test's, whose sweep must not reach this mission.
    const later = new Date(t.clock.now().getTime() + 60 * 86_400_000);
    await t.deps.database.db
      .update(missions)
      .set({ deadline: later, nextActionAt: later })
      .where(eq(missions.id, mission.id));
    const a = await submitInline(mission.id, "judge me");
    await runPendingChecks(t.deps);
    // The creator's predicate never answered: not the submitter's fault, so not a rejection.
    expect(await getSub(mission.id, a.sub.id)).toMatchObject({ status: "pending" });
    expect(await row(a.sub.id)).toMatchObject({ checkResult: "unanswered", checkReason: "predicate_unavailable" });
    expect(canaryConnections).toBe(0);
  });
});

describe("first_valid_match: voided path", () => {
  it("the deadline passes with only invalid submissions (inline and remote) → voided, reward refunded exactly, spam fee kept", async () => {
    // Runs last: moving the clock past this deadline also sweeps the missions of earlier tests.
    const { creator, mission } = await openMission(t, fvm({ expected: "the right answer" }));
    const tampered = fresh("void-tampered");
    serve(tampered, { status: 200, body: "the right answer, but not what was hashed" });
    const subs = [
      await submitInline(mission.id, "a wrong answer"),
      await submitRemote(mission.id, `${base}${tampered}`, sha("the right answer")),
      await submitRemote(mission.id, `${base}${fresh("void-missing")}`, sha("the right answer")),
    ];
    expect(subs[0]!.sub).toMatchObject({ status: "rejected", reason: "expected_not_matched" });
    await runPendingChecks(t.deps);
    expect(await getSub(mission.id, subs[1]!.sub.id)).toMatchObject({
      status: "rejected",
      reason: "content_hash_mismatch",
    });
    expect(await getSub(mission.id, subs[2]!.sub.id)).toMatchObject({
      status: "rejected",
      reason: "content_unavailable",
    });
    const creatorBefore = await balance(creator.address);
    // Earlier tests' predicate missions hold submissions for a default award (fee to the treasury):
    // keep them out of this sweep so the treasury figure is this mission's alone.
    await t.deps.database.db
      .update(missions)
      .set({ deadline: new Date("2030-01-01T00:00:00Z"), nextActionAt: new Date("2030-01-01T00:00:00Z") })
      .where(and(ne(missions.id, mission.id), inArray(missions.status, ["open", "escrowed"])));
    const treasuryBefore = await treasury();

    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1));
    await sweepDueMissions(t.deps);
    expect(await getMission(mission.id)).toMatchObject({
      status: "voided",
      phase: "closed",
      resolution_reason: "no_valid_submission",
      resolution: null,
    });
    expect((await balance(creator.address)) - creatorBefore).toBe(REWARD);
    expect(await treasury()).toBe(treasuryBefore);
    for (const s of subs) expect(await balance(s.agent.address)).toBe(0n);
    // Nothing left to do, nothing done twice.
    expect(await sweepDueMissions(t.deps)).toBe(0);
    expect((await balance(creator.address)) - creatorBefore).toBe(REWARD);
    expect((await verifyLedger(t.deps.database.db)).problems).toEqual([]);
  });

  it("the only submission is remote and still unchecked at the deadline: the mission waits, then voids when the check fails", async () => {
    const { creator, mission } = await openMission(t, fvm({ expected: "the right answer" }));
    const path = fresh("void-late-check");
    serve(path, { status: 503 });
    const a = await submitRemote(mission.id, `${base}${path}`, sha("the right answer"));
    await runPendingChecks(t.deps);
    const creatorBefore = await balance(creator.address);
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1));
    await sweepDueMissions(t.deps);
    expect(await getMission(mission.id)).toMatchObject({ status: "escrowed", phase: "verifying" });
    expect(await balance(creator.address)).toBe(creatorBefore);
    serve(path, { status: 410 });
    expect((await row(a.sub.id)).nextCheckAt!.getTime()).toBeLessThan(t.clock.now().getTime()); // A's retry is due
    await runPendingChecks(t.deps);
    expect(await getMission(mission.id)).toMatchObject({ status: "voided", resolution_reason: "no_valid_submission" });
    expect((await balance(creator.address)) - creatorBefore).toBe(REWARD);
    t.clock.advance(3_600_000);
    expect(await sweepDueMissions(t.deps)).toBe(0);
    expect((await balance(creator.address)) - creatorBefore).toBe(REWARD);
  });
});
