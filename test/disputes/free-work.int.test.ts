import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missions } from "../../src/db/schema/index";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { runPendingChecks } from "../../src/jobs/checks";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { resolveDispute } from "./aip4-filing";

// No free work through disputes or predicates (docs/decisions.md "bad_spec" and "Predicates"), on
// the ledger rail through HTTP: a conceded bad_spec on a mission with submissions — filed by the
// creator itself or anonymously — and a predicate answering {"valid": false} end with the solver
// paid (the default policy), never with the creator refunded in full for work it has read.

const REWARD = 100_000_000n;
const DAY = 86_400_000;
let t: TestApp;
const servers: http.Server[] = [];
beforeAll(async () => {
  t = await makeTestApp({ OABP_TRUST_PROXY: "true" });
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await t?.close();
});

const evidence = { description: "The rule does not match the stated acceptance criteria" };
const balance = async (address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);
const pool = () => (REWARD * BigInt(t.deps.config.abuse.defaultAwardBps)) / 10_000n;
const mission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;
const concede = (id: string, token: string) =>
  t.call("POST", `/api/disputes/${id}/resolve`, { token, body: { outcome: "upheld", rationale: "conceded" } });
const submit = async (missionId: string, content: string) => {
  const a = await signIn(t);
  const r = await t.call("POST", `/missions/${missionId}/submissions`, { token: a.token, body: { content } });
  expect(r.status, r.text).toBe(201);
  return { agent: a, sub: r.body };
};

async function listen(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  const port = await new Promise<number>((r) =>
    s.listen(0, TEST_CONTENT_HOST, () => r((s.address() as AddressInfo).port)),
  );
  return `http://${TEST_CONTENT_HOST}:${port}`;
}

describe("bad_spec conceded on a mission with submissions: never a refund for read work", () => {
  it("the creator's own bad_spec, conceded: the rule's rejection is voided and the solver paid", async () => {
    const { creator, mission: m } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: "the exact phrase nobody types" } },
    });
    const s = await submit(m.id, "a real answer the rule rejects");
    expect(s.sub).toMatchObject({ status: "rejected", reason: "expected_not_matched" });
    const before = await balance(creator.address);
    const d = await t.call("POST", "/api/disputes", {
      token: creator.token,
      body: { dispute_type: "bad_spec", mission_id: m.id, evidence },
    });
    expect(d.status, d.text).toBe(201);
    const r = await concede(d.body.dispute_id, creator.token);
    expect(r.status, r.text).toBe(200);
    expect(r.body.corrective_action).toMatchObject({
      action: "invalidate_rule",
      mission_voided: false,
      decisions_voided: [s.sub.id],
    });
    expect(await mission(m.id)).toMatchObject({
      status: "resolved",
      resolution_reason: "default_award_rule_invalidated",
    });
    expect(await balance(creator.address)).toBe(before + REWARD - pool());
    expect(await balance(s.agent.address)).toBeGreaterThan(0n);
    expect((await t.call("GET", `/submissions/${s.sub.id}`)).body).toMatchObject({
      status: "accepted",
      reason: "default_award",
    });
    // A direct void is still refused (409) — the dispute is no side door to it.
    expect((await t.call("POST", `/missions/${m.id}/void`, { token: creator.token })).status).toBe(409);
    expect((await verifyLedger(t.deps.database.db)).problems).toEqual([]);
  });

  it("an anonymous bad_spec conceded on a creator_judges mission: not voided; the creator re-judges or the default award pays", async () => {
    const { creator, mission: m } = await openMission(t);
    const s = await submit(m.id, "work the creator has read");
    const before = await balance(creator.address);
    const d = await t.call("POST", "/api/disputes", {
      body: { dispute_type: "bad_spec", mission_id: m.id, filed_by: "anonymous", evidence },
      headers: { "x-forwarded-for": "192.0.2.44" },
    });
    expect(d.status, d.text).toBe(201);
    const r = await concede(d.body.dispute_id, creator.token);
    expect(r.status, r.text).toBe(200);
    expect(r.body.corrective_action).toMatchObject({ action: "invalidate_rule", mission_voided: false });
    expect(await mission(m.id)).toMatchObject({ status: "open" });
    expect(await balance(creator.address)).toBe(before); // nothing refunded
    // The creator stays silent past its judging window: the default policy pays the solver.
    const m2 = await mission(m.id);
    t.clock.set(new Date(new Date(m2.deadline).getTime() + 1000));
    try {
      await sweepDueMissions(t.deps);
      t.clock.advance(t.deps.config.judgingWindowSeconds * 1000 + 1000);
      await sweepDueMissions(t.deps);
      expect(await mission(m.id)).toMatchObject({
        status: "resolved",
        resolution_reason: "default_award_judging_expired",
      });
      expect(await balance(s.agent.address)).toBeGreaterThan(0n);
      expect(await balance(creator.address)).toBe(before + REWARD - pool());
    } finally {
      t.clock.set(new Date("2026-06-01T00:00:00.000Z"));
    }
  });

  it("conceded while a deliverable is still being checked: no early exit — a valid match still wins in full", async () => {
    const body = "the exact phrase";
    const rx = await listen((_req, res) => {
      res.writeHead(200);
      res.end(body);
    });
    const { createHash } = await import("node:crypto");
    const { creator, mission: m } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: "the exact phrase" } },
    });
    const rejected = await submit(m.id, "inline, wrong");
    const remote = await signIn(t);
    const r1 = await t.call("POST", `/missions/${m.id}/submissions`, {
      token: remote.token,
      body: { content_uri: `${rx}/answer`, content_hash: `sha256:${createHash("sha256").update(body).digest("hex")}` },
    });
    expect(r1.body.status).toBe("pending");
    const before = await balance(creator.address);
    const d = await t.call("POST", "/api/disputes", {
      token: creator.token,
      body: { dispute_type: "bad_spec", mission_id: m.id, evidence },
    });
    const r = await concede(d.body.dispute_id, creator.token);
    expect(r.body.corrective_action).toMatchObject({ mission_voided: false, decisions_voided: [rejected.sub.id] });
    expect(await mission(m.id)).toMatchObject({ status: "open" });
    await runPendingChecks(t.deps);
    expect(await mission(m.id)).toMatchObject({ status: "resolved", resolution_reason: "first_valid_match" });
    expect(await balance(remote.address)).toBeGreaterThan((REWARD * 99n) / 100n);
    expect(await balance(creator.address)).toBe(before);
  });

  it("no submission: nobody's work was read, so the conceded bad_spec voids with a refund", async () => {
    const { creator, mission: m } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: "x" } },
    });
    const before = await balance(creator.address);
    const d = await t.call("POST", "/api/disputes", {
      token: creator.token,
      body: { dispute_type: "bad_spec", mission_id: m.id, evidence },
    });
    const r = await concede(d.body.dispute_id, creator.token);
    expect(r.body.corrective_action).toMatchObject({ mission_voided: true, refunded_to: creator.address });
    expect(await mission(m.id)).toMatchObject({ status: "voided", resolution_reason: "dispute_bad_spec" });
    expect(await balance(creator.address)).toBe(before + REWARD);
  });

  it("after resolution (a rule that accepted anything paid at once): upheld within the window, the payment stands; past it, refused", async () => {
    const { creator, mission: m } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: "0x" } },
    });
    const s = await submit(m.id, "0x0000000000000000000000000000000000000000 — any address passes");
    expect(s.sub).toMatchObject({ status: "accepted" });
    const paid = await balance(s.agent.address);
    const creatorBefore = await balance(creator.address);
    t.clock.advance(13 * DAY);
    try {
      const d = await t.call("POST", "/api/disputes", {
        body: { dispute_type: "bad_spec", mission_id: m.id, filed_by: "anonymous", evidence },
        headers: { "x-forwarded-for": "192.0.2.45" },
      });
      expect(d.status, d.text).toBe(201);
      const r = await resolveDispute(t, d.body.dispute_id, {
        outcome: "upheld",
        rationale: "the regex accepts any address",
      });
      expect(r.status, r.text).toBe(200);
      expect(r.body.corrective_action).toMatchObject({ applied: true, outcome_stands: true, clawback: false });
      expect(await mission(m.id)).toMatchObject({ status: "resolved", resolution_reason: "first_valid_match" });
      expect(await balance(s.agent.address)).toBe(paid);
      expect(await balance(creator.address)).toBe(creatorBefore);
      // The upheld dispute is the mission's public flag.
      const listed = (await t.call("GET", `/api/disputes?mission_id=${m.id}`)).body.disputes;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ outcome: "upheld", dispute_type: "bad_spec" });
      t.clock.advance(1 * DAY);
      const late = await t.call("POST", "/api/disputes", {
        body: { dispute_type: "bad_spec", mission_id: m.id, filed_by: "anonymous", evidence },
        headers: { "x-forwarded-for": "192.0.2.45" },
      });
      expect(late.status).toBe(422);
      expect(late.body.details.reason).toBe("mission_settled");
    } finally {
      t.clock.set(new Date("2026-06-01T00:00:00.000Z"));
    }
  });
});

describe("predicate_uri: a predicate the creator controls cannot refund work it has seen", () => {
  it('{"valid": false} for every submission → at the deadline the default award pays the solvers, not a full refund', async () => {
    let asked = 0;
    const predicate = await listen((req, res) => {
      req.resume();
      req.on("end", () => {
        asked++;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ valid: false }));
      });
    });
    const { creator, mission: m } = await openMission(t, {
      verification: { type: "first_valid_match", params: { predicate_uri: "https://predicate.example/check" } },
    });
    // Creation accepts https only; the stored params point at the local predicate.
    await t.deps.database.db
      .update(missions)
      .set({ verificationParams: { ...m.verification.params, predicate_uri: `${predicate}/check` } })
      .where(eq(missions.id, m.id));
    const a = await submit(m.id, "a correct answer the predicate refuses");
    const b = await submit(m.id, "another answer");
    await runPendingChecks(t.deps);
    expect(asked).toBe(2);
    for (const s of [a, b])
      expect((await t.call("GET", `/submissions/${s.sub.id}`)).body).toMatchObject({
        status: "pending",
        reason: "held_for_default",
      });
    expect(await mission(m.id)).toMatchObject({ status: "open" });
    const before = await balance(creator.address);
    t.clock.set(new Date(new Date(m.deadline).getTime() + 1000));
    try {
      await sweepDueMissions(t.deps);
      expect(await mission(m.id)).toMatchObject({
        status: "resolved",
        resolution_reason: "default_award_predicate_rejected",
      });
      expect(await balance(creator.address)).toBe(before + REWARD - pool());
      expect(await balance(a.agent.address)).toBeGreaterThan(0n);
      expect(await balance(b.agent.address)).toBeGreaterThan(0n);
    } finally {
      t.clock.set(new Date("2026-06-01T00:00:00.000Z"));
    }
    expect((await verifyLedger(t.deps.database.db)).problems).toEqual([]);
  });
});

describe("AIP-4 §6.1 and per-mission bounds", () => {
  it("dup_claim: at most 3 per mission from one filer (the fourth and fifth get 429, no Retry-After)", async () => {
    const body = "the answer is 42";
    const rx = await listen((_req, res) => {
      res.writeHead(200);
      res.end(body);
    });
    const { createHash } = await import("node:crypto");
    const hash = `sha256:${createHash("sha256").update(body).digest("hex")}`;
    const { mission: m } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: "42" } },
    });
    const [a, b] = [await signIn(t), await signIn(t)];
    const sa = (
      await t.call("POST", `/missions/${m.id}/submissions`, {
        token: a.token,
        body: { content_uri: `${rx}/a`, content_hash: hash },
      })
    ).body;
    const sb = (
      await t.call("POST", `/missions/${m.id}/submissions`, {
        token: b.token,
        body: { content_uri: `${rx}/b`, content_hash: hash },
      })
    ).body;
    await runPendingChecks(t.deps);
    const statuses = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await t.call("POST", "/api/disputes", {
        token: b.token,
        body: {
          dispute_type: "dup_claim",
          mission_id: m.id,
          submission_id: sb.id,
          evidence: { description: "same second", other_submission_id: sa.id },
        },
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(last!.body).toMatchObject({ error: "rate_limited", dispute_type: "dup_claim" });
    expect(last!.headers.get("retry-after")).toBeNull();
  });
});
