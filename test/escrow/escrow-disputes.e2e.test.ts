import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { chainPayouts, missions } from "../../src/db/schema/index";
import { runPendingChecks } from "../../src/jobs/checks";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { missionBody, signIn } from "../helpers/agents";
import { escrowTick, settleMission, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";

// No free work through a bad_spec dispute on the base rail (docs/decisions.md "bad_spec"), on anvil
// through HTTP: the creator files bad_spec on its own funded first_valid_match mission after its
// rule rejected a solver's work, and concedes. The server queues a release to the solver (the
// default policy's pool; the escrow returns the rest of the slot to the funder) — never a refund
// of the creator's slot — and the release is paid on chain. Likewise a predicate that rejects the
// work it has seen: at the deadline, a release to the solver (docs/decisions.md "Predicates").

const REWARD = 100_000_000n; // 100 USDC
const SPAM_FEE = 5_000_000n;

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const mission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;

describe("bad_spec on the base rail", () => {
  it("the creator's own bad_spec, conceded: a release to the solver is queued and paid, no refund of the slot", async () => {
    const creator = await signIn(t);
    const created = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, {
        reward: { asset: "USDC", amount: REWARD.toString(), chain: "base" },
        verification: { type: "first_valid_match", params: { expected: "a phrase nobody will type" } },
      }),
    });
    expect(created.status, created.text).toBe(201);
    const m = created.body;
    await chain.fund(creator.account, m.escrow.mission_key as Hex, REWARD, SPAM_FEE);
    await chain.mine(2);
    await escrowTick(t);
    expect((await mission(m.id)).status).toBe("open");

    const solver = await signIn(t);
    const s = await t.call("POST", `/missions/${m.id}/submissions`, {
      token: solver.token,
      body: { content: "the work the rule wrongly rejects" },
    });
    expect(s.body).toMatchObject({ status: "rejected", reason: "expected_not_matched" });

    const creatorUsdc = await chain.usdcBalance(creator.address);
    const d = await t.call("POST", "/api/disputes", {
      token: creator.token,
      body: { dispute_type: "bad_spec", mission_id: m.id, evidence: { description: "my rule was wrong" } },
    });
    expect(d.status, d.text).toBe(201);
    const r = await t.call("POST", `/api/disputes/${d.body.dispute_id}/resolve`, {
      token: creator.token,
      body: { outcome: "upheld", rationale: "conceded" },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.corrective_action).toMatchObject({ mission_voided: false, decisions_voided: [s.body.id] });

    // What the server queues: one release, the solver its recipient; no refund.
    const payouts = await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, m.id));
    expect(payouts.map((p) => p.kind)).toEqual(["release"]);
    expect(payouts[0]!.recipients.map((x) => x.address.toLowerCase())).toEqual([solver.address.toLowerCase()]);
    expect(await mission(m.id)).toMatchObject({
      status: "resolved",
      resolution_reason: "default_award_rule_invalidated",
      payout_status: "queued",
    });

    // Paid on chain: the solver has its share of the pool; the creator only the rest of its slot.
    const pool = (REWARD * BigInt(t.deps.config.abuse.defaultAwardBps)) / 10_000n;
    // The default award is a release the server decided: the delayed path (proposed, then executed).
    await settleMission(t, chain, m.id);
    expect((await mission(m.id)).payout_status).toBe("confirmed");
    const paid = await chain.usdcBalance(solver.address);
    expect(paid).toBeGreaterThan(0n);
    expect(paid).toBeLessThanOrEqual(pool);
    expect(await chain.usdcBalance(creator.address)).toBe(creatorUsdc + REWARD - pool);
    expect(await chain.releasedLogs(m.escrow.mission_key as Hex)).toBe(1);
  });

  it('a predicate answering {"valid": false}: at the deadline a release to the solver, no refund of the slot', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ valid: false }));
      });
    });
    const port = await new Promise<number>((r) =>
      server.listen(0, TEST_CONTENT_HOST, () => r((server.address() as AddressInfo).port)),
    );
    try {
      const creator = await signIn(t);
      const created = await t.call("POST", "/missions", {
        token: creator.token,
        body: missionBody(t, {
          reward: { asset: "USDC", amount: REWARD.toString(), chain: "base" },
          verification: { type: "first_valid_match", params: { predicate_uri: "https://predicate.example/check" } },
        }),
      });
      expect(created.status, created.text).toBe(201);
      const m = created.body;
      // Creation accepts https only; the stored params point at the local predicate.
      await t.deps.database.db
        .update(missions)
        .set({
          verificationParams: {
            ...m.verification.params,
            predicate_uri: `http://${TEST_CONTENT_HOST}:${port}/check`,
          },
        })
        .where(eq(missions.id, m.id));
      await chain.fund(creator.account, m.escrow.mission_key as Hex, REWARD, SPAM_FEE);
      await chain.mine(2);
      await escrowTick(t);
      expect((await mission(m.id)).status).toBe("open");
      const solver = await signIn(t);
      const s = await t.call("POST", `/missions/${m.id}/submissions`, {
        token: solver.token,
        body: { content: "work the creator's predicate refuses" },
      });
      expect(s.status, s.text).toBe(201);
      await runPendingChecks(t.deps);
      expect((await t.call("GET", `/submissions/${s.body.id}`)).body).toMatchObject({
        status: "pending",
        reason: "held_for_default",
      });
      const creatorUsdc = await chain.usdcBalance(creator.address);
      t.clock.set(new Date(new Date(m.deadline).getTime() + 1000));
      await sweepDueMissions(t.deps);
      expect(await mission(m.id)).toMatchObject({
        status: "resolved",
        resolution_reason: "default_award_predicate_rejected",
      });
      const payouts = await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, m.id));
      expect(payouts.map((p) => p.kind)).toEqual(["release"]);
      expect(payouts[0]!.recipients.map((x) => x.address.toLowerCase())).toEqual([solver.address.toLowerCase()]);
      const pool = (REWARD * BigInt(t.deps.config.abuse.defaultAwardBps)) / 10_000n;
      await settleMission(t, chain, m.id);
      expect((await mission(m.id)).payout_status).toBe("confirmed");
      expect(await chain.usdcBalance(solver.address)).toBeGreaterThan(0n);
      expect(await chain.usdcBalance(creator.address)).toBe(creatorUsdc + REWARD - pool);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
