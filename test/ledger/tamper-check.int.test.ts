import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPendingChecks } from "../../src/jobs/checks";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { awardedTo } from "../helpers/mission-flow";

// docs/design.md "Submissions": every remote deliverable is fetched and must hash to content_hash,
// whatever the verification method — a tampered one can never be awarded, voted for or paid.
let t: TestApp;
let server: Server;
let base: string;
const files: Record<string, string> = { "/honest.txt": "honest work", "/tampered.txt": "swapped after submitting" };

beforeAll(async () => {
  t = await makeTestApp();
  server = createServer((req, res) => {
    const body = files[req.url ?? ""];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/plain" }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, TEST_CONTENT_HOST, r));
  base = `http://${TEST_CONTENT_HOST}:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.close();
  await t?.close();
});

const sha = (s: string) => `sha256:${createHash("sha256").update(s).digest("hex")}`;

describe("tamper check for every method", () => {
  it("creator_judges: a remote deliverable is checked; a mismatch is rejected; nothing unverified can be awarded", async () => {
    const { creator, mission } = await openMission(t);
    const honest = await signIn(t);
    const cheat = await signIn(t);
    const h = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: honest.token,
      body: { content_uri: `${base}/honest.txt`, content_hash: sha("honest work") },
    });
    const c = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: cheat.token,
      body: { content_uri: `${base}/tampered.txt`, content_hash: sha("the original text") },
    });
    expect([h.status, c.status]).toEqual([201, 201]);
    const early = await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: h.body.id }] },
    });
    expect(early.status).toBe(422);
    expect(early.body.details.reason).toBe("content_not_verified");
    await runPendingChecks(t.deps);
    const subs = (await t.call("GET", `/missions/${mission.id}/submissions`, { token: creator.token })).body
      .submissions;
    expect(subs.find((s: { id: string }) => s.id === c.body.id)).toMatchObject({
      status: "rejected",
      reason: "content_hash_mismatch",
    });
    expect(subs.find((s: { id: string }) => s.id === h.body.id)).toMatchObject({
      status: "pending",
      reason: "awaiting_judgement",
    });
    expect(
      (
        await t.call("POST", `/missions/${mission.id}/award`, {
          token: creator.token,
          body: { winners: [{ submission_id: c.body.id }] },
        })
      ).body.details.reason,
    ).toBe("submission_not_pending");
    await awardedTo(t, mission.id, creator, h.body.id);
  });
});
