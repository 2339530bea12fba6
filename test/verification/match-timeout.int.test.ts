import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { submissions } from "../../src/db/schema/index";
import { MAX_CHECK_ATTEMPTS, runPendingChecks } from "../../src/jobs/checks";
import { matchContent } from "../../src/lib/safe-regex";
import { openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// A regex check over its time budget is retried with
// its own reason (match_timeout) and never becomes "expected_not_matched"; the matcher's queue is
// bounded (busy → the submission route answers 503 with Retry-After).

// A legal RE2 pattern that falls back to the NFA and takes seconds on large a/b input (safe-regex.ts).
const SLOW = "(?:.{0,50}a){15}[^\\w\\s]";
const slowInput = (n: number) => Array.from({ length: n }, () => (Math.random() < 0.5 ? "a" : "b")).join("");

const t = useTestApp({ OABP_BODY_LIMIT_BYTES: String(2 * 1024 * 1024) });

describe("regex checks over their time budget", () => {
  it("the submission stays pending (match_timeout), is retried by the job, and after the last attempt is rejected match_timeout — never expected_not_matched", async () => {
    const { mission } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: SLOW, match_mode: "regex" } },
      reward: { asset: "USDC", amount: "10000000" },
    });
    const agent = await signIn(t);
    const content = slowInput(700_000);
    const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: agent.token,
      body: { content_uri: `data:text/plain,${content}` },
    });
    expect(r.status, r.text.slice(0, 300)).toBe(201);
    expect(r.body).toMatchObject({ status: "pending", reason: "awaiting_verification" });
    const row = async () =>
      (await t.deps.database.db.select().from(submissions).where(eq(submissions.id, r.body.id)))[0]!;
    expect(await row()).toMatchObject({ checkResult: null, nextCheckAt: t.clock.now() });
    for (let i = 0; i < MAX_CHECK_ATTEMPTS; i++) {
      await runPendingChecks(t.deps);
      const s = await row();
      if (i < MAX_CHECK_ATTEMPTS - 1)
        expect(s).toMatchObject({ status: "pending", checkResult: null, checkReason: "match_timeout" });
      t.clock.advance(20 * 60_000);
    }
    expect(await row()).toMatchObject({ status: "rejected", reason: "match_timeout", checkResult: "invalid" });
  }, 60_000);
});

describe("bounded matcher queue", () => {
  it("past maxQueue waiting calls, a regex match answers busy at once", async () => {
    const input = slowInput(200_000);
    const calls = [
      matchContent("regex", SLOW, input, { timeoutMs: 300, maxQueue: 2 }),
      matchContent("regex", SLOW, input, { timeoutMs: 300, maxQueue: 2 }),
    ];
    // One of the two is queued (the other running, or both waiting for a fresh worker): full.
    expect(await matchContent("regex", "b", "b", { maxQueue: 1 })).toEqual({ ok: false, reason: "busy" });
    for (const r of await Promise.all(calls)) expect(r).not.toEqual({ ok: false, reason: "busy" }); // the two admitted ones ran
    // Drained: the next call runs.
    expect(await matchContent("regex", "b", "b", { maxQueue: 1 })).toEqual({ ok: true, matched: true });
  }, 30_000);
});
