import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { missions } from "../../src/db/schema/index";
import { runPendingChecks } from "../../src/jobs/checks";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { REWARD, FEE, sha, fvm, deferred, useFvmRemote } from "./fvm-remote-fixture";
import { openMission } from "../helpers/agents";

// first_valid_match with remote checks, second part (the first: fvm-remote.int.test.ts): the
// arrival order while a remote check is in flight, and predicate_uri (AIP-1 §4.2, README "Mission
// lifecycle and verification"): submissions arrive through HTTP, the remote checks run by calling
// the job functions directly with the manual clock. A server on TEST_CONTENT_HOST (127.0.0.2, the
// one loopback address the test fetcher may reach) serves the deliverables and the predicates; a
// canary on 127.0.0.1 must never see a connection.

const f = useFvmRemote();
const {
  t,
  canary,
  seen,
  fresh,
  balance,
  hits,
  serve,
  getMission,
  getSub,
  row,
  submitRemote,
  submitInline,
  predicateMission,
} = f;
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
    const a = await submitRemote(mission.id, `${f.base}${path}`, sha("ok from A"));
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
      const a = await submitRemote(mission.id, `${f.base}${path}`, sha("ok from A"));
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
    const a = await submitRemote(mission.id, `${f.base}${path}`, sha("ok from A"));
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
    const tampered = await submitRemote(mission.id, `${f.base}${bad}`, sha("remote deliverable, original"));
    await runPendingChecks(t.deps);
    expect(await getSub(mission.id, tampered.sub.id)).toMatchObject({
      status: "rejected",
      reason: "content_hash_mismatch",
    });
    expect(hits(path)).toBe(0); // never asked about tampered content
    const a = await submitRemote(mission.id, `${f.base}${good}`, sha("remote deliverable"));
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
    const { mission } = await predicateMission({}, `http://127.0.0.1:${canary.port}/predicate`);
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
    expect(canary.connections).toBe(0);
  });
});
