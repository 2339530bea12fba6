import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missions, submissions } from "../../src/db/schema/index";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { SAMPLE_DIVISOR } from "../../src/features/verification/predicate-sample";
import { runPendingChecks } from "../../src/jobs/checks";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { sweptPastDeadline } from "../helpers/mission-flow";

// Work the creator never sees before paying (docs/decisions.md "No free work through disputes or
// predicates"): a real HTTP predicate that records everything it is sent. It is sent a commitment
// (content_hash, length) and a sample of at most an eighth of the bytes — the same on a retry —
// never the content_uri nor the work; the creator cannot read the deliverable through the API
// before the verdict binds; and when its predicate says false, the creator recovers the reward
// less the default pool (the policy), not more. After the mission resolves the work is readable.

const REWARD = 100_000_000n;
let t: TestApp;
let server: http.Server;
let base = "";
const sent: string[] = [];
let answers: number[] = [];
const WORK = `WORK:${randomBytes(3000).toString("hex")}`; // 6,005 bytes nobody could guess
const COMMITMENT = `sha256:${createHash("sha256").update(WORK).digest("hex")}`;

beforeAll(async () => {
  t = await makeTestApp();
  server = http.createServer((req, res) => {
    if (req.url === "/work") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(WORK);
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      sent.push(Buffer.concat(chunks).toString("utf8"));
      const status = answers.shift() ?? 200;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(status === 200 ? JSON.stringify({ valid: false }) : "{}");
    });
  });
  const port = await new Promise<number>((r) =>
    server.listen(0, TEST_CONTENT_HOST, () => r((server.address() as AddressInfo).port)),
  );
  base = `http://${TEST_CONTENT_HOST}:${port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await t?.close();
});

const balance = async (address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);

/** The bytes of the work a predicate learned from the samples it was sent. */
function learned(bodies: string[]): Set<number> {
  const at = new Set<number>();
  for (const b of bodies) {
    const { sample } = JSON.parse(b) as { sample: { windows: { offset: number; length: number; data: string }[] } };
    for (const w of sample.windows) {
      expect(Buffer.from(w.data, "base64").toString("latin1")).toBe(WORK.slice(w.offset, w.offset + w.length));
      for (let i = w.offset; i < w.offset + w.length; i++) at.add(i);
    }
  }
  return at;
}

describe("a predicate that says false: no free work", () => {
  it("the predicate sees a commitment and an eighth at most; the creator recovers no more than the policy", async () => {
    const { creator, mission: m } = await openMission(t, {
      verification: { type: "first_valid_match", params: { predicate_uri: "https://predicate.example/check" } },
    });
    // Creation accepts https only; the stored params point at the local predicate.
    await t.deps.database.db
      .update(missions)
      .set({ verificationParams: { ...m.verification.params, predicate_uri: `${base}/check` } })
      .where(eq(missions.id, m.id));
    const inline = await signIn(t);
    const a = await t.call("POST", `/missions/${m.id}/submissions`, { token: inline.token, body: { content: WORK } });
    expect(a.status, a.text).toBe(201);
    const remote = await signIn(t);
    const b = await t.call("POST", `/missions/${m.id}/submissions`, {
      token: remote.token,
      body: { content_uri: `${base}/work`, content_hash: a.body.content_hash },
    });
    expect(b.status, b.text).toBe(201);

    // First answers are a 503 each (retried), then {"valid": false}.
    answers = [503, 503];
    await runPendingChecks(t.deps);
    const retryAt = (await t.deps.database.db.select().from(submissions).where(eq(submissions.missionId, m.id)))
      .map((s) => s.nextCheckAt?.getTime() ?? 0)
      .reduce((x, y) => Math.max(x, y));
    t.clock.set(new Date(retryAt));
    await runPendingChecks(t.deps);
    expect(sent).toHaveLength(4);
    for (const s of [a, b])
      expect((await t.call("GET", `/submissions/${s.body.id}`)).body).toMatchObject({
        status: "pending",
        reason: "held_for_default",
      });

    // What the predicate was sent: no content_uri, never the work, the same sample on a retry.
    for (const body of sent) {
      const j = JSON.parse(body) as Record<string, unknown>;
      expect(j).toMatchObject({ mission_id: m.id, content_hash: COMMITMENT, content_length: WORK.length });
      expect(j.content_uri).toBeUndefined();
      expect(body).not.toContain("/work");
      expect(body).not.toContain(WORK.slice(0, 64));
    }
    const bySub = (id: string) => sent.filter((x) => JSON.parse(x).submission_id === id);
    for (const s of [a, b]) {
      const [first, retry] = bySub(s.body.id);
      expect(JSON.parse(first!).sample).toEqual(JSON.parse(retry!).sample);
      expect(learned([first!]).size).toBeLessThanOrEqual(Math.floor(WORK.length / SAMPLE_DIVISOR));
    }
    // Across both submissions (two ids, two samples) it holds at most a quarter of the work.
    expect(learned(sent).size).toBeLessThanOrEqual((2 * WORK.length) / SAMPLE_DIVISOR);

    // Nor can the creator read it through the API before the verdict binds.
    const view = await t.call("GET", `/missions/${m.id}/submissions/${a.body.id}`, { token: creator.token });
    expect(view.body.content_uri).toBeNull();
    const content = (token: string) =>
      t.app.request(`/missions/${m.id}/submissions/${a.body.id}/content`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await content(creator.token)).status).toBe(403);

    // The deadline: the verdict binds under the policy; the creator gets back the reward less the pool.
    const before = await balance(creator.address);
    expect(await sweptPastDeadline(t, m)).toMatchObject({
      status: "resolved",
      resolution_reason: "default_award_predicate_rejected",
    });
    const pool = (REWARD * BigInt(t.deps.config.abuse.defaultAwardBps)) / 10_000n;
    expect(await balance(creator.address)).toBe(before + REWARD - pool);
    expect((await balance(inline.address)) + (await balance(remote.address))).toBeGreaterThan(0n);
    expect((await verifyLedger(t.deps.database.db)).problems).toEqual([]);
    // Paid for (the pool): now the creator (signed in again a week later) may read the work.
    const later = await signIn(t, creator.account);
    const read = await content(later.token);
    expect(read.status).toBe(200);
    expect(await read.text()).toBe(WORK);
  }, 120_000);
});
