import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../../src/db/rows";
import { gateOf } from "../../src/db/write-functions";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { credit, signIn } from "../helpers/agents";
import { submitAs } from "../helpers/judging";
import { useTestApp } from "../helpers/suite-app";
import { APPEAL, appealFixture } from "../disputes/appeal-fixture";

// An appealable award is one statement, `oabp_record_award` (drizzle/0044_award_in_one_statement.sql;
// docs/decisions/storage.md "A write is one statement"): checked against an unlocked read, written
// only if under its lock the mission is still the row version checked and every winner still
// awardable; it answers the mission as it left it.
const t = useTestApp();
const { appealMission, mission } = appealFixture(t);

/** oabp_record_award as the server sends it without a transaction: checked against `rowVersion`. */
async function recordAt(m: { id: string; creator: string }, winner: string, rowVersion: number) {
  const missionId = m.id;
  const now = t.clock.now().toISOString();
  const arg = JSON.stringify({
    mission_id: missionId,
    now,
    winners: [winner],
    award: { winners: [], awarded_at: now, appeal_deadline: now },
    appeal_deadline: now,
    event: {
      ...{ id: `evt_${missionId}`, type: "mission.awarded", occurred_at: now, mission_id: missionId, data: {} },
      ...{ creator: m.creator, verification_type: "creator_judges", tags: [] },
    },
    row_version: rowVersion,
  });
  return t.deps.database.db.execute(sql`select oabp_record_award(${arg}::jsonb)`);
}

const versionOf = async (id: string) =>
  Number(
    rowsOf<{ v: string }>(
      await t.deps.database.db.execute(sql`select row_version as v from missions where id = ${id}`),
    )[0]!.v,
  );

describe("an appealable award in one statement", () => {
  it("answers the mission as stored, its amounts to the last base unit", async () => {
    const creator = await signIn(t);
    const amount = "1000000000000000000000000000123"; // past 2^53: a JSON number would round it
    await credit(t, creator.address, BigInt(amount) * 2n);
    const posted = await t.call("POST", "/missions", {
      token: creator.token,
      body: {
        title: "Find the key",
        description: "Locate the configuration key and submit it.",
        reward: { asset: "USDC", amount },
        verification: { type: "creator_judges", params: { appeal: APPEAL } },
        deadline: new Date(t.clock.now().getTime() + 7 * 86_400_000).toISOString(),
      },
    });
    expect(posted.status, posted.text).toBe(201);
    const solver = await signIn(t);
    const sub = await submitAs(t, posted.body.id, solver, "the key is 42");
    const r = await t.call("POST", `/missions/${posted.body.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: sub }] },
    });
    expect(r.status, r.text).toBe(200);
    const stored = await mission(posted.body.id);
    expect(r.body.reward.amount).toBe(amount);
    // The answer is the row as a reader now sees it (the view's own fields aside).
    for (const k of ["status", "phase", "reward", "spam_fee", "award", "escrow", "payouts", "deadline", "tags"])
      expect(r.body[k], k).toEqual(stored[k]);
    expect(r.body.award.winners).toEqual([expect.objectContaining({ submission_id: sub, agent_id: solver.address })]);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("writes nothing when the mission changed since the row version it was checked against", async () => {
    const { mission: m, subs } = await appealMission({}, 1);
    const seen = await versionOf(m.id);
    // Any update of the row takes a new version (drizzle/0022_reads_mission_version.sql).
    await t.deps.database.db.execute(sql`update missions set updated_at = updated_at where id = ${m.id}`);
    const e = await recordAt(m, subs[0]!.sub.id, seen).catch((x: unknown) => x);
    expect(gateOf(e)).toEqual({ gate: "changed" });
    expect(await mission(m.id)).toMatchObject({ status: "open", award: null });
  });

  it("writes nothing when a winner is no longer awardable, though the mission is unchanged", async () => {
    const { mission: m, subs } = await appealMission({}, 2);
    const seen = await versionOf(m.id);
    const gone = subs[1]!.sub.id;
    await t.deps.database.db.execute(sql`update submissions set status = 'rejected' where id = ${gone}`);
    expect(gateOf(await recordAt(m, gone, seen).catch((x: unknown) => x))).toEqual({ gate: "changed" });
    expect(gateOf(await recordAt(m, "sub_nosuchsubmission", seen).catch((x: unknown) => x))).toEqual({
      gate: "changed",
    });
    expect(await mission(m.id)).toMatchObject({ status: "open", award: null });
    // At the version checked, with an awardable winner, it writes.
    await recordAt(m, subs[0]!.sub.id, seen);
    expect(await mission(m.id)).toMatchObject({ status: "escrowed", phase: "appeal" });
  });
});
