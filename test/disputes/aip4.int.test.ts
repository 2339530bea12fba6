import { describe, expect, it } from "vitest";
import { ctxForJob } from "../../src/lib/context";
import { sweepDisputes } from "../../src/features/disputes/disputes.index";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { openMission, signIn } from "../helpers/agents";
import { submittedAndAwarded } from "../helpers/mission-flow";
import { useTestApp } from "../helpers/suite-app";
import { balanceOf } from "../helpers/judging";
import { DAY, evidence, fileDispute, resolveDispute } from "./aip4-filing";

// AIP-4 end to end through HTTP: the §5 manifest fields, then bad_spec — the §1 qualification rules
// with their refusals, §3 outcomes and actors (server, creator concession, the appeal's peer vote,
// expiry) and §4 corrective actions. The other types and §6.1: aip4-non-payment.int.test.ts.

// Behind a proxy: X-Forwarded-For gives the client IP, so each anonymous filer has its own §6.1 bucket.
const t = useTestApp({ OABP_TRUST_PROXY: "true" });

const file = (body: Record<string, unknown>, token?: string) => fileDispute(t, body, token);
const balance = (address: string) => balanceOf(t, address);

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
    const against = await resolveDispute(
      t,
      r.body.dispute_id,
      { outcome: "rejected", rationale: "fine as is" },
      creator.token,
    );
    expect(against.status).toBe(403);
    expect(against.body.details.reason).toBe("creator_conflict");
    const stranger = await signIn(t);
    expect(
      (await resolveDispute(t, r.body.dispute_id, { outcome: "upheld", rationale: "x" }, stranger.token)).status,
    ).toBe(403);
    const upheld = await resolveDispute(
      t,
      r.body.dispute_id,
      { outcome: "upheld", rationale: "the regex is too loose" },
      creator.token,
    );
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
    expect((await resolveDispute(t, r.body.dispute_id, { outcome: "rejected", rationale: "late" })).status).toBe(409);
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
    const { award } = await submittedAndAwarded(t, mission.id, creator, "y");
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
