import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submissions } from "../../src/db/schema/index";
import { startJobRunner } from "../../src/jobs/runner";
import { createSafeFetcher } from "../../src/lib/safe-fetch";
import { makeTestApp, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";

// The job loop's other work never waits behind remote fetches. A check whose
// host never answers (the fetcher's resolver seam) is in flight while the sweeper voids another
// mission: the assertion is on order of events (the sweep happened while the lease was held), not
// on wall-clock time.

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  t.deps.fetcher = createSafeFetcher({
    connectTimeoutMs: 3000,
    timeoutMs: 3000,
    resolve: () => new Promise<string[]>(() => {}),
  });
});
afterAll(async () => t?.close());

describe("job loops", () => {
  it("a sweep completes while a remote check is still in flight", async () => {
    const slow = await openMission(t);
    const agent = await signIn(t);
    const r = await t.call("POST", `/missions/${slow.mission.id}/submissions`, {
      token: agent.token,
      body: { content_uri: "https://never.example/x", content_hash: `sha256:${"cd".repeat(32)}` },
    });
    expect(r.status).toBe(201);
    const empty = await openMission(t, { deadline: new Date(t.clock.now().getTime() + 30_000).toISOString() });
    const runner = startJobRunner(t.deps, 20);
    try {
      // Wait for the check to be claimed (its lease held: the fetch is waiting on DNS)…
      const lease = async () =>
        (await t.deps.database.db.select().from(submissions).where(eq(submissions.id, r.body.id)))[0]!
          .checkClaimedUntil;
      for (let i = 0; i < 200 && (await lease()) === null; i++) await new Promise((res) => setTimeout(res, 10));
      expect(await lease()).not.toBeNull();
      // …then let the empty mission's deadline pass: the sweeper voids it meanwhile.
      t.clock.advance(31_000); // inside the 60 s lease: nobody may reclaim the check
      let status = "";
      for (let i = 0; i < 200 && status !== "voided"; i++) {
        status = (await t.call("GET", `/missions/${empty.mission.id}`)).body.status;
        if (status !== "voided") await new Promise((res) => setTimeout(res, 10));
      }
      expect(status).toBe("voided");
      expect(await lease()).not.toBeNull(); // the fetch had not finished
    } finally {
      await runner.stop();
    }
  });
});
