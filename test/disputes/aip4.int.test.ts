import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createHash } from "node:crypto";
import { ctxForJob } from "../../src/lib/context";
import { sweepDisputes } from "../../src/features/disputes/disputes.index";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { runPendingChecks } from "../../src/jobs/checks";
import { startReceiver } from "../helpers/receiver";
import { ADMIN_TOKEN } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// AIP-4 end to end through HTTP: filing each type, the §1 qualification rules with their
// refusals, §3 outcomes and actors (server, creator concession, the appeal's peer vote, expiry),
// §4 corrective actions, §6.1 limits with the 429 body, and the §5 manifest fields.

// Behind a proxy: X-Forwarded-For gives the client IP, so the §6.1 test has its own bucket.
const t = useTestApp({ OABP_TRUST_PROXY: "true" });

const DAY = 86_400_000;
const file = (body: Record<string, unknown>, token?: string) =>
  t.call("POST", "/api/disputes", { body, ...(token && { token }) });
const evidence = { description: "The rule accepts any 0x address, not one matching the stated TVL criteria" };
const balance = async (address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);

describe("AIP-4 §5 discovery", () => {
  it("declares AIP-4 with dispute_endpoint, dispute_types_supported and cross_server_disputes", async () => {
    const m = (await t.call("GET", "/.well-known/oabp.json")).body;
    expect(m.aip_support).toContain("AIP-4");
    expect(m).toMatchObject({
      dispute_endpoint: "/api/disputes",
      dispute_types_supported: ["non_payment", "bad_spec", "dup_claim", "oracle_disagreement"],
      cross_server_disputes: true,
      payment_sla_hours: 48,
    });
  });
});

describe("AIP-4 bad_spec", () => {
  it("anonymous filing (§2.2), public listing (§2.4), creator concession runs the §4 corrective action", async () => {
    const { creator, mission } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: "0x" } },
    });
    const solver = await signIn(t);
    const wrong = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: solver.token,
      body: { content: "no prefix here" },
    });
    expect(wrong.body).toMatchObject({ status: "rejected", reason: "expected_not_matched" });
    const before = await balance(creator.address);
    const r = await file({
      dispute_type: "bad_spec",
      mission_id: mission.id,
      submission_id: "any",
      filed_by: "anonymous",
      evidence,
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      status: "open",
      dispute_type: "bad_spec",
      filed_by: "anonymous",
      outcome: null,
      submission_id: null,
      filed_at: "2026-06-01T00:00:00.000Z",
      resolution_deadline: "2026-06-15T00:00:00.000Z",
    });
    // AIP-4 §2.3: a server-assigned UUID (v7: time-ordered).
    expect(r.body.dispute_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const listed = (await t.call("GET", `/api/disputes?mission_id=${mission.id}&status=open`)).body;
    expect(listed.disputes.map((d: { dispute_id: string }) => d.dispute_id)).toEqual([r.body.dispute_id]);
    expect((await t.call("GET", `/disputes/${r.body.dispute_id}`)).body).toEqual(r.body);
    // The creator may concede, not rule against.
    const against = await t.call("POST", `/api/disputes/${r.body.dispute_id}/resolve`, {
      token: creator.token,
      body: { outcome: "rejected", rationale: "fine as is" },
    });
    expect(against.status).toBe(403);
    expect(against.body.details.reason).toBe("creator_conflict");
    const stranger = await signIn(t);
    expect(
      (
        await t.call("POST", `/api/disputes/${r.body.dispute_id}/resolve`, {
          token: stranger.token,
          body: { outcome: "upheld", rationale: "x" },
        })
      ).status,
    ).toBe(403);
    const upheld = await t.call("POST", `/api/disputes/${r.body.dispute_id}/resolve`, {
      token: creator.token,
      body: { outcome: "upheld", rationale: "the regex is too loose" },
    });
    expect(upheld.status, upheld.text).toBe(200);
    expect(upheld.body).toMatchObject({
      status: "resolved",
      outcome: "upheld",
      resolution_actor: "creator",
      corrective_action: {
        action: "invalidate_rule",
        applied: true,
        mission_voided: false,
        decisions_voided: [wrong.body.id],
        resolution_reason: "default_award_rule_invalidated",
      },
    });
    // The rule's rejection is voided and the work the creator has read is paid under the default
    // policy: never a full refund (docs/decisions.md "bad_spec").
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
      status: "resolved",
      resolution_reason: "default_award_rule_invalidated",
    });
    const pool = (100_000_000n * BigInt(t.deps.config.abuse.defaultAwardBps)) / 10_000n;
    expect(await balance(creator.address)).toBe(before + 100_000_000n - pool);
    expect(await balance(solver.address)).toBeGreaterThan(0n);
    expect((await t.call("GET", `/submissions/${wrong.body.id}`)).body).toMatchObject({
      status: "accepted",
      reason: "default_award",
    });
    // Decided once.
    expect(
      (
        await t.call("POST", `/api/disputes/${r.body.dispute_id}/resolve`, {
          token: ADMIN_TOKEN,
          body: { outcome: "rejected", rationale: "late" },
        })
      ).status,
    ).toBe(409);
  });

  it("refuses disputes on missions that do not qualify, with clear reasons", async () => {
    const { creator, mission } = await openMission(t);
    const a = await signIn(t);
    const sub = (
      await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content: "x" } })
    ).body;
    await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: sub.id }] },
    });
    // bad_spec stays open BAD_SPEC_WINDOW_DAYS (14) after resolution, then is refused.
    t.clock.advance(14 * DAY);
    try {
      const settled = await file({ dispute_type: "bad_spec", mission_id: mission.id, filed_by: "anonymous", evidence });
      expect(settled.status).toBe(422);
      expect(settled.body).toMatchObject({ error: "UNPROCESSABLE", details: { reason: "mission_settled" } });
    } finally {
      t.clock.advance(-14 * DAY);
    }
    expect(
      (
        await file({
          dispute_type: "bad_spec",
          mission_id: "mis_01JZ0000000000000000000000",
          filed_by: "anonymous",
          evidence,
        })
      ).status,
    ).toBe(404);
    const open = (await openMission(t)).mission;
    expect(
      (
        await file({
          dispute_type: "bad_spec",
          mission_id: open.id,
          submission_id: sub.id,
          filed_by: "anonymous",
          evidence,
        })
      ).body.details.reason,
    ).toBe("submission_not_found");
    expect(
      (
        await file({
          dispute_type: "non_payment",
          mission_id: open.id,
          submission_id: sub.id,
          filed_by: "anonymous",
          evidence,
        })
      ).body.details.reason,
    ).toBe("anonymous_not_allowed");
    expect(
      (await file({ dispute_type: "non_payment", mission_id: mission.id, submission_id: sub.id, evidence })).status,
    ).toBe(401);
    expect(
      (
        await file(
          {
            dispute_type: "bad_spec",
            mission_id: open.id,
            filed_by: "0x0000000000000000000000000000000000000001",
            evidence,
          },
          a.token,
        )
      ).status,
    ).toBe(403);
    const malformed = await file({ dispute_type: "wrong_type", mission_id: open.id, evidence });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe("INVALID_PARAMETER");
    expect(
      (
        await file({
          dispute_type: "bad_spec",
          mission_id: open.id,
          filed_by: "anonymous",
          evidence: { description: "x".repeat(2001) },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await file(
          {
            dispute_type: "dup_claim",
            mission_id: mission.id,
            submission_id: sub.id,
            evidence: { ...evidence, other_submission_id: sub.id },
          },
          a.token,
        )
      ).body.details.reason,
    ).toBe("not_first_valid_match");
    expect(
      (
        await file(
          { dispute_type: "oracle_disagreement", mission_id: mission.id, submission_id: sub.id, evidence },
          a.token,
        )
      ).body.details.reason,
    ).toBe("not_oracle_mission");
    expect((await t.call("GET", "/api/disputes/dsp_nope")).status).toBe(404);
    expect((await t.call("GET", "/api/disputes?cursor=bad")).status).toBe(400);
  });

  it("expires after 14 days without an outcome (§3.1), not upheld by default", async () => {
    const { mission } = await openMission(t, { deadline: new Date(t.clock.now().getTime() + 30 * DAY).toISOString() });
    const r = await file({ dispute_type: "bad_spec", mission_id: mission.id, filed_by: "anonymous", evidence });
    expect(r.status, r.text).toBe(201);
    t.clock.advance(14 * DAY);
    try {
      await sweepDisputes(ctxForJob(t.deps));
      expect((await t.call("GET", `/api/disputes/${r.body.dispute_id}`)).body).toMatchObject({
        status: "expired",
        outcome: "expired",
        resolution_actor: "server",
        corrective_action: null,
      });
      expect((await t.call("GET", `/missions/${mission.id}`)).body.status).toBe("open");
    } finally {
      t.clock.advance(-14 * DAY);
    }
  });

  it("on a creator_judges award under appeal, the appeal's peer vote decides (§3.3 peer_vote)", async () => {
    const appeal = { appeal_window_seconds: 86_400, vote_token: "USDC", min_vote: "100", quorum: "1000" };
    const { creator, mission } = await openMission(t, { verification: { type: "creator_judges", params: { appeal } } });
    const a = await signIn(t);
    const sub = (
      await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content: "y" } })
    ).body;
    const award = await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: sub.id }] },
    });
    expect(award.body).toMatchObject({ status: "escrowed", phase: "appeal" });
    const r = await file({ dispute_type: "bad_spec", mission_id: mission.id, filed_by: "anonymous", evidence });
    expect(r.status, r.text).toBe(201);
    t.clock.set(new Date(award.body.award.appeal_deadline));
    await sweepDueMissions(t.deps); // no quorum disputes the award: paid as awarded
    await sweepDisputes(ctxForJob(t.deps));
    expect((await t.call("GET", `/api/disputes/${r.body.dispute_id}`)).body).toMatchObject({
      status: "resolved",
      outcome: "rejected",
      resolution_actor: "peer_vote",
      corrective_action: null,
    });
    t.clock.set(new Date("2026-06-01T00:00:00.000Z"));
  });
});

describe("AIP-4 non_payment", () => {
  it("qualifies only for the awarded submitter, after payment_sla_hours, while the payout is not made", async () => {
    const { creator, mission } = await openMission(t);
    const a = await signIn(t);
    const b = await signIn(t);
    const sa = (await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content: "a" } }))
      .body;
    const sb = (await t.call("POST", `/missions/${mission.id}/submissions`, { token: b.token, body: { content: "b" } }))
      .body;
    await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: sa.id }] },
    });
    const np = (who: { token: string }, sid: string) =>
      file(
        {
          dispute_type: "non_payment",
          mission_id: mission.id,
          submission_id: sid,
          evidence: { description: "not paid" },
        },
        who.token,
      );
    // The ledger rail pays in the resolution's own transaction: nothing to dispute.
    expect((await np(a, sa.id)).body.details).toMatchObject({ reason: "already_paid", payout_status: "confirmed" });
    expect((await np(b, sb.id)).body.details.reason).toBe("submission_not_accepted");
    expect((await np(b, sa.id)).body.details.reason).toBe("not_your_submission");
    expect(
      (await file({ dispute_type: "non_payment", mission_id: mission.id, evidence: { description: "x" } }, a.token))
        .body.details.reason,
    ).toBe("submission_required");
    // A stalled payout (as the base rail reports it when the treasury lacks gas).
    await t.deps.database.db.execute(sql`update missions set payout_status = 'pending_gas' where id = ${mission.id}`);
    const early = await np(a, sa.id);
    expect(early.body.details).toMatchObject({ reason: "sla_not_elapsed", eligible_at: "2026-06-03T00:00:00.000Z" });
    t.clock.advance(48 * 3_600_000);
    try {
      const r = await np(await signIn(t, a.account), sa.id);
      expect(r.status, r.text).toBe(201);
      expect(r.body).toMatchObject({
        status: "resolved",
        outcome: "upheld",
        resolution_actor: "server",
        corrective_action: { action: "retry_settlement" },
      });
    } finally {
      t.clock.advance(-48 * 3_600_000);
    }
  });
});

describe("AIP-4 §6.1 rate limits", () => {
  it("the sixth anonymous bad_spec in 30 days from one IP gets 429 with the AIP-4 body", async () => {
    const ip = { "x-forwarded-for": "203.0.113.9" };
    const missions = [];
    for (let i = 0; i < 6; i++) missions.push((await openMission(t)).mission.id);
    const sent = [];
    for (const id of missions)
      sent.push(
        await t.call("POST", "/api/disputes", {
          body: { dispute_type: "bad_spec", mission_id: id, filed_by: "anonymous", evidence },
          headers: ip,
        }),
      );
    expect(sent.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 429]);
    const limited = sent[5]!;
    expect(limited.body).toMatchObject({ error: "rate_limited", dispute_type: "bad_spec" });
    expect(new Date(limited.body.reset_at).getTime()).toBeGreaterThan(t.clock.now().getTime());
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // A signed-in filer has its own bucket.
    const a = await signIn(t);
    expect((await file({ dispute_type: "bad_spec", mission_id: missions[0], evidence }, a.token)).status).toBe(201);
  });
});

describe("AIP-4 dup_claim", () => {
  it("two valid answers in the same server second: the recorded arrival order decides at filing", async () => {
    const body = "the answer is 42";
    const rx = await startReceiver({ "/a": () => ({ status: 200, body }), "/b": () => ({ status: 200, body }) });
    try {
      const { mission } = await openMission(t, {
        verification: { type: "first_valid_match", params: { expected: "42" } },
      });
      const hash = `sha256:${createHash("sha256").update(body).digest("hex")}`;
      const [a, b] = [await signIn(t), await signIn(t)];
      // Same manual-clock instant; remote content is checked by the job, in arrival order.
      const sa = (
        await t.call("POST", `/missions/${mission.id}/submissions`, {
          token: a.token,
          body: { content_uri: `${rx.base}/a`, content_hash: hash },
        })
      ).body;
      const sb = (
        await t.call("POST", `/missions/${mission.id}/submissions`, {
          token: b.token,
          body: { content_uri: `${rx.base}/b`, content_hash: hash },
        })
      ).body;
      await runPendingChecks(t.deps);
      expect((await t.call("GET", `/submissions/${sa.id}`)).body.status).toBe("accepted");
      const claim = (who: { token: string }, mine: string, other: string, missionId: string = mission.id) =>
        file(
          {
            dispute_type: "dup_claim",
            mission_id: missionId,
            submission_id: mine,
            evidence: { description: "same second", other_submission_id: other },
          },
          who.token,
        );
      const lost = await claim(b, sb.id, sa.id);
      expect(lost.status, lost.text).toBe(201);
      expect(lost.body).toMatchObject({
        status: "resolved",
        outcome: "rejected",
        resolution_actor: "server",
        // AIP-4 §6.3: the filer of a rejected dispute pays 5 rating points.
        corrective_action: { action: "filer_penalty", filer: b.address, penalty: -5 },
      });
      expect(lost.body.rationale).toContain(sa.id);
      const won = await claim(a, sa.id, sb.id);
      expect(won.body).toMatchObject({ outcome: "upheld", corrective_action: { action: "award_to_earliest" } });
      // Not the same second → refused.
      t.clock.advance(1000);
      try {
        const { mission: m2 } = await openMission(t, {
          verification: { type: "first_valid_match", params: { expected: "42" } },
        });
        const x = (
          await t.call("POST", `/missions/${m2.id}/submissions`, {
            token: (await signIn(t, a.account)).token,
            body: { content_uri: `${rx.base}/a`, content_hash: hash },
          })
        ).body;
        t.clock.advance(1000);
        const y = (
          await t.call("POST", `/missions/${m2.id}/submissions`, {
            token: (await signIn(t, b.account)).token,
            body: { content_uri: `${rx.base}/b`, content_hash: hash },
          })
        ).body;
        await runPendingChecks(t.deps);
        const r = await claim(await signIn(t, b.account), y.id, x.id, m2.id);
        expect(r.body.details.reason).toBe("not_same_second");
      } finally {
        t.clock.advance(-2000);
      }
    } finally {
      await rx.close();
    }
  });
});
