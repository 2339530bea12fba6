import { and, inArray, ne } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { missions } from "../../src/db/schema/index";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { MAX_CHECK_ATTEMPTS, runPendingChecks } from "../../src/jobs/checks";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { REWARD, FEE, sha, fvm, deferred, useFvmRemote } from "./fvm-remote-fixture";
import { openMission } from "../helpers/agents";

// first_valid_match with remote deliverables (AIP-1 §4.2, README "Mission lifecycle and
// verification"), the void path included; arrival order and predicates: fvm-remote-checks.int.test.ts.
// Submissions arrive through HTTP, the remote checks run by calling
// the job functions directly with the manual clock. A server on TEST_CONTENT_HOST (127.0.0.2, the
// one loopback address the test fetcher may reach) serves the deliverables and the predicates; a
// canary on 127.0.0.1 must never see a connection.

const f = useFvmRemote();
const { t, canary, fresh, balance, treasury, hits, serve, getMission, getSub, row, submitRemote, submitInline } = f;

describe("first_valid_match: remote deliverables", () => {
  it("content that hashes to content_hash and matches `expected` wins once checked; winner credited reward − 0.5 %", async () => {
    const { creator, mission } = await openMission(t, fvm({ expected: "answer: 42" }));
    const path = fresh("ok");
    const bytes = "Our finding — the ANSWER: 42.\n";
    serve(path, { status: 200, body: bytes });
    const treasuryBefore = await treasury();
    const creatorBefore = await balance(creator.address);

    const a = await submitRemote(mission.id, `${f.base}${path}`, sha(bytes));
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
    const a = await submitRemote(mission.id, `${f.base}${path}`, sha("the answer, as submitted"));
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
    const a = await submitRemote(mission.id, `${f.base}${path}`, sha("anything"));
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
    const a = await submitRemote(mission.id, `${f.base}${path}`, sha("the answer"));
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
    const a = await submitRemote(mission.id, `${f.base}${path}`, sha("the answer"));
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
    serve(redirect, { status: 302, headers: { location: `http://127.0.0.1:${canary.port}/secret` } });
    const urls = [
      `http://127.0.0.1:${canary.port}/secret`,
      `http://localhost:${canary.port}/secret`,
      `http://2130706433:${canary.port}/secret`,
      `http://[::ffff:127.0.0.1]:${canary.port}/secret`,
      `${f.base}${redirect}`,
    ];
    const subs = [];
    for (const url of urls) subs.push((await submitRemote(mission.id, url, sha("secret"))).sub);
    await runPendingChecks(t.deps);
    for (const s of subs)
      expect(await getSub(mission.id, s.id), s.id).toMatchObject({ status: "rejected", reason: "content_unavailable" });
    expect(hits(redirect)).toBe(1);
    expect(canary.connections).toBe(0);
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
      await submitRemote(mission.id, `${f.base}${tampered}`, sha("the right answer")),
      await submitRemote(mission.id, `${f.base}${fresh("void-missing")}`, sha("the right answer")),
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
    const a = await submitRemote(mission.id, `${f.base}${path}`, sha("the right answer"));
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
