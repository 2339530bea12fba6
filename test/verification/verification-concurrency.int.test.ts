import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerEntries } from "../../src/db/schema/index";
import { balancesOf, treasuryBalances, escrowAccount, verifyLedger } from "../../src/features/ledger/ledger.service";
import { awardMission } from "../../src/features/verification/creator-judges";
import { runPendingChecks } from "../../src/jobs/checks";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { isAppError } from "../../src/lib/errors";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { awardOnce } from "../../src/features/verification/verification.routes";
import { ctxForViewer } from "../../src/lib/context";
import { idempotent } from "../../src/lib/idempotency";

// Exactly-once resolution under real concurrency. PGlite is a single
// connection, so these run on the Postgres server named by DATABASE_URL (CI runs both).
describe.runIf(onRealPostgres)("verification under concurrency on real Postgres", () => {
  let t: TestApp;
  let content: http.Server;
  let base = "";
  const hits = new Map<string, number>();
  beforeAll(async () => {
    t = await makeTestApp({}, { poolMax: 20 });
    content = http.createServer((req, res) => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      // A little latency so concurrent workers overlap on the fetch.
      setTimeout(() => res.end(`ok from ${req.url}`), 20);
    });
    await new Promise<void>((r) => content.listen(0, TEST_CONTENT_HOST, () => r()));
    base = `http://${TEST_CONTENT_HOST}:${(content.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    content?.closeAllConnections();
    await new Promise((r) => (content ? content.close(r) : r(undefined)));
    await t?.close();
  });

  const REWARD = 10_000_000n;
  const FEE = 50_000n; // floor(reward × 50 / 10 000)
  const sha = (s: string) => `sha256:${createHash("sha256").update(s).digest("hex")}`;
  const db = () => t.deps.database.db;
  const balance = async (address: string) =>
    BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);
  const treasury = async () => (await treasuryBalances(db())).get("USDC") ?? 0n;
  const escrow = async (missionId: string) => (await balancesOf(db(), escrowAccount(missionId))).get("USDC") ?? 0n;
  /** Ledger transfers that moved this mission's escrow out (payouts and refunds). */
  async function settlements(missionId: string) {
    const rows = await db()
      .select({ kind: ledgerEntries.kind, n: sql<number>`count(distinct ${ledgerEntries.transferId})::int` })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.ref, missionId), sql`${ledgerEntries.kind} in ('mission_payout', 'mission_refund')`))
      .groupBy(ledgerEntries.kind);
    return Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)]));
  }
  async function signInMany(n: number) {
    const out: Awaited<ReturnType<typeof signIn>>[] = [];
    for (let i = 0; i < n; i += 20)
      out.push(...(await Promise.all(Array.from({ length: Math.min(20, n - i) }, () => signIn(t)))));
    return out;
  }

  it("100 concurrent valid submissions to one first_valid_match mission → exactly one winner, one credit, every other one refused with a reason", async () => {
    const { creator, mission } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: "the answer" } },
      reward: { asset: "USDC", amount: REWARD.toString() },
    });
    const agents = await signInMany(100);
    const treasuryBefore = await treasury();
    const creatorBefore = await balance(creator.address);
    const results = await Promise.all(
      agents.map((a) =>
        t.call("POST", `/missions/${mission.id}/submissions`, {
          token: a.token,
          body: { content: `The Answer, by ${a.address}` },
        }),
      ),
    );

    const accepted = results.filter((r) => r.status === 201 && r.body.status === "accepted");
    expect(accepted).toHaveLength(1);
    expect(accepted[0]!.body.reason).toBe("first_valid_match");
    for (const r of results) {
      if (r === accepted[0]) continue;
      if (r.status === 201)
        expect(r.body, r.text).toMatchObject({ status: "rejected", reason: expect.any(String), next_action: "none" });
      else {
        expect(r.status, r.text).toBe(409);
        expect(r.body.error).toBe("MISSION_NOT_OPEN");
      }
    }
    const winner = accepted[0]!.body.submitter as string;

    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({
      status: "resolved",
      payout_status: "confirmed",
      resolution_reason: "first_valid_match",
      resolution: { winner_submission_id: accepted[0]!.body.id, winner_agent_id: winner, fee_amount: FEE.toString() },
    });
    expect(m.resolution.winners).toEqual([
      {
        submission_id: accepted[0]!.body.id,
        agent_id: winner,
        amount: (REWARD - FEE).toString(),
        receipt_uri: expect.stringContaining(`/receipts/${accepted[0]!.body.id}`),
      },
    ]);
    // Every stored submission is decided: one accepted, the rest rejected with a reason.
    const stored = (await t.call("GET", `/missions/${mission.id}/submissions?limit=100`)).body.submissions as {
      status: string;
      reason: string;
    }[];
    expect(stored).toHaveLength(results.filter((r) => r.status === 201).length);
    expect(m.submission_count).toBe(stored.length);
    expect(stored.filter((s) => s.status === "accepted")).toHaveLength(1);
    for (const s of stored.filter((x) => x.status !== "accepted"))
      expect(s).toMatchObject({ status: "rejected", reason: expect.any(String) });

    const balances = await Promise.all(agents.map(async (a) => [a.address, await balance(a.address)] as const));
    for (const [address, b] of balances) expect(b, address).toBe(address === winner ? REWARD - FEE : 0n);
    expect((await treasury()) - treasuryBefore).toBe(FEE);
    expect(await balance(creator.address)).toBe(creatorBefore);
    expect(await escrow(mission.id)).toBe(0n);
    expect(await settlements(mission.id)).toEqual({ mission_payout: 1 });
    expect(await sweepDueMissions(t.deps)).toBe(0);
    expect((await verifyLedger(db())).problems).toEqual([]);
  }, 60_000);

  it("remote checks by 5 concurrent workers: each deliverable fetched once, the earliest valid submission wins", async () => {
    const { mission } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: "ok" } },
      reward: { asset: "USDC", amount: REWARD.toString() },
    });
    const agents = await signInMany(12);
    const subs = [];
    for (const [i, a] of agents.entries()) {
      const path = `/race-${mission.id}-${i}`;
      const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
        token: a.token,
        body: { content_uri: `${base}${path}`, content_hash: sha(`ok from ${path}`) },
      });
      expect(r.status, r.text).toBe(201);
      expect(r.body.status).toBe("pending");
      subs.push({ path, agent: a, sub: r.body });
    }
    // Five job runners (as on five servers) with small batches, several rounds each.
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        for (let round = 0; round < 6; round++) await runPendingChecks(t.deps, { maxChecks: 3 });
      }),
    );
    const fetched = subs.map((s) => hits.get(s.path) ?? 0);
    for (const n of fetched) expect(n).toBeLessThanOrEqual(1);
    expect(fetched[0]).toBe(1);
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ status: "resolved", resolution: { winner_submission_id: subs[0]!.sub.id } });
    expect(await balance(subs[0]!.agent.address)).toBe(REWARD - FEE);
    for (const s of subs.slice(1)) expect(await balance(s.agent.address)).toBe(0n);
    const list = (await t.call("GET", `/missions/${mission.id}/submissions?limit=100`)).body.submissions as {
      status: string;
    }[];
    expect(list.map((s) => s.status)).toEqual(["accepted", ...Array(11).fill("rejected")]);
    expect(await settlements(mission.id)).toEqual({ mission_payout: 1 });
  }, 60_000);

  it("20 concurrent POST /missions/{id}/award by the creator (same and different winners) → one 200, the rest 409 MISSION_NOT_OPEN, one payout", async () => {
    const { creator, mission } = await openMission(t, {
      verification: { type: "creator_judges", params: { max_winners: 2 } },
      reward: { asset: "USDC", amount: REWARD.toString() },
    });
    const agents = await signInMany(4);
    const subs = [];
    for (const a of agents) {
      const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
        token: a.token,
        body: { content: `work of ${a.address}` },
      });
      expect(r.status, r.text).toBe(201);
      subs.push(r.body.id as string);
    }
    const choices = [[subs[0]!], [subs[1]!], [subs[2]!, subs[3]!], [subs[0]!]];
    const treasuryBefore = await treasury();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.call("POST", `/missions/${mission.id}/award`, {
          token: creator.token,
          body: { winners: choices[i % choices.length]!.map((id) => ({ submission_id: id })) },
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status, r.text).toBe(409);
      expect(r.body.error).toBe("MISSION_NOT_OPEN");
    }
    const paid = ok[0]!.body.resolution.winners as { agent_id: string; amount: string }[];
    expect(ok[0]!.body).toMatchObject({
      status: "resolved",
      resolution_reason: "creator_award",
      payout_status: "confirmed",
    });
    expect(paid.reduce((s, w) => s + BigInt(w.amount), 0n)).toBe(REWARD - FEE);
    for (const a of agents) {
      const w = paid.find((p) => p.agent_id === a.address);
      expect(await balance(a.address)).toBe(w ? BigInt(w.amount) : 0n);
    }
    expect((await treasury()) - treasuryBefore).toBe(FEE);
    expect(await escrow(mission.id)).toBe(0n);
    expect(await settlements(mission.id)).toEqual({ mission_payout: 1 });
    expect((await verifyLedger(db())).problems).toEqual([]);
  }, 60_000);

  it("the sweeper racing an award at the end of the judging window: resolved exactly once, money conserved", async () => {
    // The award and the sweeper are called directly so each can be given its own instant: the
    // award was decided just inside the window (now = judging_deadline − 1 ms) while the
    // sweepers (two servers) already see the window closed. Both then race for the row lock.
    const outcomes: string[] = [];
    for (let round = 0; round < 8; round++) {
      const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount: REWARD.toString() } });
      const agents = await signInMany(3);
      const subs: string[] = [];
      for (const a of agents) {
        const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
          token: a.token,
          body: { content: `round ${round} by ${a.address}` },
        });
        expect(r.status, r.text).toBe(201);
        subs.push(r.body.id as string);
      }
      t.clock.set(new Date(new Date(mission.deadline).getTime() + 1));
      await sweepDueMissions(t.deps);
      const judging = (await t.call("GET", `/missions/${mission.id}`)).body;
      expect(judging).toMatchObject({ status: "escrowed", phase: "judging" });
      const jd = new Date(judging.judging_deadline).getTime();
      const treasuryBefore = await treasury();
      const creatorBefore = await balance(creator.address);

      t.clock.set(new Date(jd - 1));
      // The router's path: the verb under idempotent(), which answers the route's status.
      const award1 = { winners: [{ submission_id: subs[1]! }] };
      const startAward = () =>
        idempotent(
          ctxForViewer(t.deps, creator.address),
          { key: undefined, request: award1, ...awardOnce(creator.address, mission.id) },
          (ctx) => awardMission(ctx, { missionId: mission.id, award: award1 }),
        ).then(
          (r) => ({ ok: true as const, status: r.status }),
          (e: unknown) => ({ ok: false as const, code: isAppError(e) ? e.code : String(e) }),
        );
      let award: ReturnType<typeof startAward>;
      let sweeps: Promise<number>[];
      if (round % 2 === 0) {
        award = startAward(); // captures its instant synchronously
        t.clock.set(new Date(jd));
        sweeps = [sweepDueMissions(t.deps), sweepDueMissions(t.deps)];
      } else {
        t.clock.set(new Date(jd));
        sweeps = [sweepDueMissions(t.deps), sweepDueMissions(t.deps)];
        t.clock.set(new Date(jd - 1));
        award = startAward();
        t.clock.set(new Date(jd));
      }
      const [a, ...swept] = await Promise.all([award, ...sweeps]);
      const m = (await t.call("GET", `/missions/${mission.id}`)).body;
      expect(m.status).toBe("resolved");
      if (a.ok) {
        expect(a.status).toBe(200);
        expect(m.resolution_reason).toBe("creator_award");
        expect(swept.reduce((x, y) => x + y, 0)).toBe(0);
        expect(await balance(agents[1]!.address)).toBe(REWARD - FEE);
        expect(await balance(agents[0]!.address)).toBe(0n);
      } else {
        expect(a.code).toBe("MISSION_NOT_OPEN");
        expect(m.resolution_reason).toBe("default_award_judging_expired");
        expect(swept.reduce((x, y) => x + y, 0)).toBe(1);
        // default outcome (docs/abuse.md): the pool (20 %) split between the three submitters,
        // fee on the pool, dust to the first; the rest back to the creator
        const pool = REWARD / 5n;
        const poolFee = (pool * 50n) / 10_000n;
        const share = (pool - poolFee) / 3n;
        expect(await balance(agents[0]!.address)).toBe(pool - poolFee - 2n * share);
        expect(await balance(agents[1]!.address)).toBe(share);
        expect(await balance(agents[2]!.address)).toBe(share);
      }
      outcomes.push(m.resolution_reason);
      // Money conserved: the escrow is empty, the fee went to the treasury once, the winners got
      // the rest of what was paid, the creator got back what was not paid (nothing after an award).
      const paid = (m.resolution.winners as { amount: string }[]).reduce((s, w) => s + BigInt(w.amount), 0n);
      const fee = BigInt(m.resolution.fee_amount);
      expect((await treasury()) - treasuryBefore).toBe(fee);
      expect((await balance(creator.address)) - creatorBefore).toBe(REWARD - paid - fee);
      expect(await escrow(mission.id)).toBe(0n);
      expect(await settlements(mission.id)).toEqual({ mission_payout: 1 });
      // Nothing left for a later sweep.
      t.clock.advance(86_400_000);
      expect(await sweepDueMissions(t.deps)).toBe(0);
    }
    expect(outcomes).toHaveLength(8);
    expect((await verifyLedger(db())).problems).toEqual([]);
  }, 120_000);
});
