import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missions, submissions } from "../../src/db/schema/index";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { runPendingChecks } from "../../src/jobs/checks";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { CHECK_GRACE_SECONDS } from "../../src/features/verification/default-award";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { peerVote } from "../helpers/peer-vote";
import { acceptedSubmission } from "../helpers/mission-flow";

// The Sybil scenario of the issue — 9 free
// junk submissions ahead of 1 honest one on a 10 USDC reward — on every default path: the creator
// never judges, a peer vote without quorum, an oracle that never answers, a predicate that never
// answers. The junk submitters together must receive less than half of the reward.

const REWARD = 10_000_000n; // 10 USDC
const DAY = 86_400_000;
const servers: http.Server[] = [];
const apps: TestApp[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  for (const a of apps) await a.close();
});

async function listen(handler: http.RequestListener, host = TEST_CONTENT_HOST): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  const port = await new Promise<number>((r) => s.listen(0, host, () => r((s.address() as AddressInfo).port)));
  return `http://${host}:${port}`;
}

const balance = async (t: TestApp, address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);

/** 9 Sybil identities with unique junk, then 1 honest agent; returns their addresses in that order. */
async function sybilScenario(t: TestApp, missionId: string) {
  const junk: string[] = [];
  for (let i = 0; i < 9; i++) {
    const a = await signIn(t);
    const r = await t.call("POST", `/missions/${missionId}/submissions`, {
      token: a.token,
      body: { content: `junk ${i} ${a.address}` },
    });
    expect(r.status, r.text).toBe(201);
    junk.push(a.address);
  }
  const honest = await signIn(t);
  await acceptedSubmission(t, missionId, honest, "a careful, honest answer");
  return { junk, honest: honest.address };
}

/** The policy's bound, checked on the ledger: junk < half; the creator gets reward − pool back. */
async function expectBounded(
  t: TestApp,
  mission: { id: string; creator: string },
  junk: string[],
  creatorBefore: bigint,
  reason: string,
) {
  const m = (await t.call("GET", `/missions/${mission.id}`)).body;
  expect(m).toMatchObject({ status: "resolved", resolution_reason: reason });
  let junkTotal = 0n;
  for (const a of junk) junkTotal += await balance(t, a);
  expect(junkTotal * 2n).toBeLessThan(REWARD);
  const pool = (REWARD * BigInt(t.deps.config.abuse.defaultAwardBps)) / 10_000n; // 2 USDC by default
  expect(junkTotal).toBeLessThanOrEqual(pool);
  expect((await balance(t, mission.creator)) - creatorBefore).toBe(REWARD - pool);
  // At most OABP_DEFAULT_AWARD_MAX_WINNERS paid, each a partial outcome; money conserved.
  expect(m.resolution.winners.length).toBeLessThanOrEqual(t.deps.config.abuse.defaultAwardMaxWinners);
  expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  return junkTotal;
}

describe("default outcomes a Sybil farm cannot profit from", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
    apps.push(t);
  });

  it("creator never judges: junk < half, creator refunded all but the bounded pool", async () => {
    const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount: REWARD.toString() } });
    const { junk } = await sybilScenario(t, mission.id);
    const before = await balance(t, creator.address);
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps);
    t.clock.advance(t.deps.config.judgingWindowSeconds * 1000);
    await sweepDueMissions(t.deps);
    await expectBounded(t, { id: mission.id, creator: creator.address }, junk, before, "default_award_judging_expired");
  });

  it("a second copy of the same content earns nothing; one identity is one share", async () => {
    const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount: REWARD.toString() } });
    const a = await signIn(t);
    const b = await signIn(t);
    const c = await signIn(t);
    for (const [who, content] of [
      [a, "same bytes"],
      [a, "other bytes"],
      [b, "same bytes"],
      [c, "third"],
    ] as const) {
      expect(
        (await t.call("POST", `/missions/${mission.id}/submissions`, { token: who.token, body: { content } })).status,
      ).toBe(201);
    }
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps);
    t.clock.advance(t.deps.config.judgingWindowSeconds * 1000);
    await sweepDueMissions(t.deps);
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m.resolution.winners.map((w: { agent_id: string }) => w.agent_id)).toEqual([a.address, c.address]);
    expect(await balance(t, b.address)).toBe(0n);
    expect(creator.address).not.toBe(b.address);
  });

  it("peer_vote without quorum: junk < half", async () => {
    const deadline = new Date(t.clock.now().getTime() + DAY);
    const { creator, mission } = await openMission(
      t,
      peerVote(deadline, { minVote: "100", quorum: "1000000", reward: REWARD.toString() }),
    );
    const { junk } = await sybilScenario(t, mission.id);
    const before = await balance(t, creator.address);
    t.clock.set(new Date(deadline.getTime() + 1000));
    await sweepDueMissions(t.deps);
    t.clock.advance(DAY);
    await sweepDueMissions(t.deps);
    await expectBounded(t, { id: mission.id, creator: creator.address }, junk, before, "default_award_no_quorum");
  });

  it("predicate that never answers: submissions are kept (not rejected), then junk < half", async () => {
    const predicate = await listen((_req, res) => {
      res.writeHead(503);
      res.end("down");
    });
    const { creator, mission } = await openMission(t, {
      reward: { asset: "USDC", amount: REWARD.toString() },
      verification: { type: "first_valid_match", params: { predicate_uri: "https://predicate.example/check" } },
    });
    // Creation accepts https only; the stored params point at the local never-valid predicate.
    await t.deps.database.db
      .update(missions)
      .set({ verificationParams: { ...mission.verification.params, predicate_uri: `${predicate}/check` } })
      .where(eq(missions.id, mission.id));
    const { junk, honest } = await sybilScenario(t, mission.id);
    const before = await balance(t, creator.address);
    // Every attempt fails transiently; after the last one each submission is "unanswered".
    for (let i = 0; i < 8; i++) {
      await runPendingChecks(t.deps);
      t.clock.advance(20 * 60_000);
    }
    const rows = await t.deps.database.db.select().from(submissions).where(eq(submissions.missionId, mission.id));
    expect(rows.map((r) => [r.status, r.checkResult])).toEqual(rows.map(() => ["pending", "unanswered"]));
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps);
    await expectBounded(
      t,
      { id: mission.id, creator: creator.address },
      junk,
      before,
      "default_award_predicate_silent",
    );
    expect(await balance(t, honest)).toBe(0n); // the pool went to the three earliest
  });

  it("a deliverable still being checked holds the judging window, at most for the grace", async () => {
    const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount: REWARD.toString() } });
    const a = await signIn(t);
    // Remote content on a host that answers 503: its check is retried (not the submitter's fault yet).
    const flaky = await listen((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: a.token,
      body: { content_uri: `${flaky}/x`, content_hash: `sha256:${"ab".repeat(32)}` },
    });
    expect(r.status).toBe(201);
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps);
    t.clock.advance(t.deps.config.judgingWindowSeconds * 1000);
    await sweepDueMissions(t.deps);
    // Not closed: the check is still due; the window moved on with it.
    const held = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(held).toMatchObject({ status: "escrowed", phase: "judging" });
    expect(new Date(held.judging_deadline).getTime()).toBeGreaterThan(t.clock.now().getTime());
    // Past the grace the window closes whatever is left (nothing eligible here → refund).
    t.clock.advance(CHECK_GRACE_SECONDS * 1000);
    await sweepDueMissions(t.deps);
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({ status: "voided" });
    expect(creator.address).toBeTruthy();
  });
});

describe("oracle that never answers", () => {
  it("junk < half when the oracle window closes without an attestation", async () => {
    // A JSON-RPC endpoint that answers every call with an error: the oracle never attests.
    const rpc = await listen(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}") as { id?: number } | { id?: number }[];
      const one = (b: { id?: number }) => ({
        jsonrpc: "2.0",
        id: b.id ?? 1,
        error: { code: -32000, message: "execution reverted" },
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(Array.isArray(body) ? body.map(one) : one(body)));
    }, "127.0.0.1");
    const t = await makeTestApp({ OABP_RPC_URL: rpc });
    apps.push(t);
    const { creator, mission } = await openMission(t, {
      reward: { asset: "USDC", amount: REWARD.toString() },
      verification: {
        type: "oracle",
        params: {
          oracle_contract: "0x00000000000000000000000000000000000000aa",
          oracle_method: "isValid(bytes32,bytes32)",
        },
      },
    });
    const { junk } = await sybilScenario(t, mission.id);
    const before = await balance(t, creator.address);
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps); // closes submissions, waits for the oracle
    await sweepDueMissions(t.deps); // one poll: no answer
    t.clock.advance(t.deps.config.oracleWindowSeconds * 1000);
    await sweepDueMissions(t.deps);
    await expectBounded(t, { id: mission.id, creator: creator.address }, junk, before, "default_award_oracle_timeout");
  });
});
