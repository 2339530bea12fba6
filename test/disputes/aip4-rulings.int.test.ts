import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { disputes } from "../../src/db/schema/index";
import { isId } from "../../src/lib/ids";
import { disputeKey } from "../../src/features/disputes/disputes.ids";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { ADMIN_TOKEN } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// AIP-4 rulings: §6.3 the filer of a rejected dispute pays −5 rating points, recorded in the history
// attestations count (never an anonymous filer, never an expired dispute); §3.2 `split` pays the
// ruling's shares through the award path.

const t = useTestApp({ OABP_TRUST_PROXY: "true" });

const evidence = { description: "The stated criteria and the judging rule disagree" };
const balance = async (address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);
const resolve = (id: string, body: Record<string, unknown>) =>
  t.call("POST", `/api/disputes/${id}/resolve`, { token: ADMIN_TOKEN, body });

/** A creator_judges mission with submissions from `solvers`, and a bad_spec filed by the first. */
async function disputed(n: number) {
  const { creator, mission } = await openMission(t);
  const solvers = [];
  for (let i = 0; i < n; i++) {
    const s = await signIn(t);
    const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: s.token,
      body: { content: `answer ${i}` },
    });
    expect(r.status, r.text).toBe(201);
    solvers.push({ ...s, submission: r.body.id as string });
  }
  const d = await t.call("POST", "/api/disputes", {
    token: solvers[0]!.token,
    body: { dispute_type: "bad_spec", mission_id: mission.id, submission_id: "any", evidence },
  });
  expect(d.status, d.text).toBe(201);
  return { creator, mission, solvers, dispute: d.body.dispute_id as string };
}

describe("AIP-4 §6.3 reputation cost", () => {
  it("AIP-4 §6.3: a rejected dispute costs its filer 5 rating points, recorded in the attestation log", async () => {
    const { solvers, dispute } = await disputed(1);
    const filer = solvers[0]!;
    const r = await resolve(dispute, { outcome: "rejected", rationale: "the rule matches the criteria" });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      outcome: "rejected",
      corrective_action: { action: "filer_penalty", penalty: -5, rating_before: 1400, rating_after: 1395 },
    });
    expect((await t.call("GET", `/agents/${filer.address}`)).body.rating).toBe(1395);
    const h = (await t.call("GET", `/agents/${filer.address}/history`)).body;
    expect(h.history[0]).toMatchObject({ kind: "dispute_rejected", delta: -5, before: 1400, after: 1395 });
    const att = (await t.call("GET", `/reputation/${filer.address}/attestation`)).body;
    expect(att.reputation).toMatchObject({ elo: 1395, disputes_rejected: 1 });
  });

  it("AIP-4 §6.3: never for an anonymous filer nor an upheld dispute", async () => {
    const { mission } = await openMission(t);
    const anon = await t.call("POST", "/api/disputes", {
      body: { dispute_type: "bad_spec", mission_id: mission.id, filed_by: "anonymous", evidence },
      headers: { "x-forwarded-for": "203.0.113.77" },
    });
    expect(anon.status, anon.text).toBe(201);
    const r = await resolve(anon.body.dispute_id, { outcome: "rejected", rationale: "no merit" });
    expect(r.body.corrective_action).toBeNull();
    const { solvers, dispute } = await disputed(1);
    await resolve(dispute, { outcome: "upheld", rationale: "yes" });
    expect((await t.call("GET", `/agents/${solvers[0]!.address}`)).body.rating).toBe(1400);
  });
});

describe("AIP-4 §3.2 split", () => {
  it("AIP-4 §3.2: a split ruling pays the named submissions their shares through the award path", async () => {
    const { creator, mission, solvers, dispute } = await disputed(3);
    const [a, b, c] = solvers as [(typeof solvers)[0], (typeof solvers)[0], (typeof solvers)[0]];
    const creatorBefore = await balance(creator.address);
    // Shares must sum to 10 000 bps and come with outcome split only.
    expect((await resolve(dispute, { outcome: "split", rationale: "x" })).status).toBe(400);
    expect(
      (
        await resolve(dispute, {
          outcome: "split",
          rationale: "x",
          split: [{ submission_id: a.submission, share_bps: 5000 }],
        })
      ).status,
    ).toBe(400);
    const r = await resolve(dispute, {
      outcome: "split",
      rationale: "both answers meet half the criteria",
      split: [
        { submission_id: a.submission, share_bps: 7500 },
        { submission_id: b.submission, share_bps: 2500 },
      ],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ outcome: "split", corrective_action: { action: "split_award", applied: true } });
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ status: "resolved", resolution_reason: "dispute_split" });
    const reward = 100_000_000n;
    const fee = (reward * BigInt(t.deps.config.feeBps)) / 10_000n;
    const net = reward - fee;
    const bShare = (net * 2500n) / 10_000n;
    expect(await balance(b.address)).toBe(bShare);
    expect(await balance(a.address)).toBe(net - bShare); // the dust goes to the first winner
    expect(await balance(c.address)).toBe(0n);
    expect(await balance(creator.address)).toBe(creatorBefore); // nothing refunded: the reward is paid out
    expect((await t.call("GET", `/submissions/${a.submission}`)).body).toMatchObject({
      status: "accepted",
      reason: "dispute_split",
    });
    expect((await t.call("GET", `/submissions/${c.submission}`)).body).toMatchObject({
      status: "rejected",
      reason: "not_selected",
    });
    // Rated as partial outcomes, with per-type reputation beside.
    expect((await t.call("GET", `/agents/${a.address}`)).body.mission_type_affinity.freeform.completions).toBe(1);
    // The ledger still verifies.
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("AIP-4 §3.2: on a mission already decided the split is recorded and nothing moves (no clawback)", async () => {
    const { creator, mission, solvers, dispute } = await disputed(2);
    const award = await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: solvers[1]!.submission }] },
    });
    expect(award.status, award.text).toBe(200);
    const before = await balance(solvers[1]!.address);
    const r = await resolve(dispute, {
      outcome: "split",
      rationale: "late",
      split: [{ submission_id: solvers[0]!.submission, share_bps: 10_000 }],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.corrective_action).toMatchObject({ action: "split_award", applied: false, clawback: false });
    expect(await balance(solvers[1]!.address)).toBe(before);
  });
});

describe("AIP-4 §2.3 dispute ids", () => {
  it("AIP-4 §2.3: dispute_id is a UUID; an id filed as dsp_<ULID> is migrated to the UUID of its bits and stays readable", async () => {
    const { dispute } = await disputed(1);
    expect(dispute).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // A dispute stored under the old id form, then the migration's conversion.
    const old = "dsp_01ARZ3NDEKTSV4RRFFQ69G5FAV"; // a ULID of 2016: filed before
    expect(isId("dsp", old)).toBe(true);
    const db = t.deps.database.db;
    const [row] = await db.select().from(disputes).where(eq(disputes.id, dispute));
    await db.insert(disputes).values({ ...row!, id: old });
    // The conversion is the migration's `DO $$ … $$` statement (one of its statement-breakpoint parts).
    const migration = readFileSync(
      new URL("../../drizzle/0036_spec_affinity_dispute_uuid.sql", import.meta.url),
      "utf8",
    );
    const conversion = migration.split("--> statement-breakpoint").find((part) => part.includes("DO $$"))!;
    await db.execute(sql.raw(conversion));
    const uuid = disputeKey(old)!;
    expect(uuid).toBe("01563e3a-b5d3-d676-4c61-efb99302bd5b"); // the ULID's 128 bits (ulid spec example)
    expect((await db.select({ id: disputes.id }).from(disputes).where(eq(disputes.id, uuid))).length).toBe(1);
    const byOld = await t.call("GET", `/api/disputes/${old}`);
    expect(byOld.status, byOld.text).toBe(200);
    expect(byOld.body.dispute_id).toBe(uuid);
    expect((await t.call("GET", `/api/disputes/${uuid}`)).body.dispute_id).toBe(uuid);
    // Filing order survives the conversion: the older dispute lists after the newer one.
    const list = (await t.call("GET", `/api/disputes?mission_id=${row!.missionId}`)).body.disputes;
    expect(list.map((d: { dispute_id: string }) => d.dispute_id)).toEqual([dispute, uuid]);
  });
});
