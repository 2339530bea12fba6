import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { openMission, signIn } from "../helpers/agents";
import { sweptPastDeadline } from "../helpers/mission-flow";
import { useTestApp } from "../helpers/suite-app";

// first_valid_match end to end through HTTP (AIP-1 §4.2) with inline deliverables: the first
// valid submission in arrival order wins and the mission resolves at once.
const t = useTestApp();

const sha = (s: string) => `sha256:${createHash("sha256").update(s).digest("hex")}`;
const balance = async (address: string) =>
  BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);
const fvm = (params: Record<string, unknown>) => ({
  verification: { type: "first_valid_match", params },
  reward: { asset: "USDC", amount: "10000000" },
});

async function submit(missionId: string, content: string, agent?: Awaited<ReturnType<typeof signIn>>) {
  const a = agent ?? (await signIn(t));
  const r = await t.call("POST", `/missions/${missionId}/submissions`, { token: a.token, body: { content } });
  return { agent: a, r };
}

describe("first_valid_match", () => {
  it("expected (substring, the default, case-insensitive): wrong answers are rejected at once, the first match wins and pays", async () => {
    const { mission } = await openMission(t, fvm({ expected: "Verdict: SAFE" }));
    const wrong = await submit(mission.id, "verdict: unsafe, sorry");
    expect(wrong.r.body).toMatchObject({ status: "rejected", reason: "expected_not_matched", next_action: "none" });
    const right = await submit(mission.id, "After review — the VERDICT: safe.");
    expect(right.r.status).toBe(201);
    expect(right.r.body).toMatchObject({ status: "accepted", reason: "first_valid_match" });
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({
      status: "resolved",
      payout_status: "confirmed",
      resolution_reason: "first_valid_match",
      resolution: { winner_agent_id: right.agent.address, fee_amount: "50000" },
    });
    expect(await balance(right.agent.address)).toBe(9_950_000n);
    const late = await submit(mission.id, "verdict: safe");
    expect(late.r.status).toBe(409);
    expect(late.r.body.error).toBe("MISSION_NOT_OPEN");
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("target_hash: exact sha256 match of the content", async () => {
    const { mission } = await openMission(t, fvm({ target_hash: sha("the key is 42").replace("sha256:", "0x") }));
    expect((await submit(mission.id, "the key is 41")).r.body).toMatchObject({
      status: "rejected",
      reason: "target_hash_mismatch",
    });
    expect((await submit(mission.id, "the key is 42")).r.body).toMatchObject({ status: "accepted" });
  });

  it("match_mode exact and regex (RE2, search semantics)", async () => {
    const exact = (await openMission(t, fvm({ expected: "0xabc", match_mode: "exact" }))).mission;
    expect((await submit(exact.id, "0xABC")).r.body.status).toBe("rejected");
    expect((await submit(exact.id, "0xabc")).r.body.status).toBe("accepted");
    const regex = (await openMission(t, fvm({ expected: "^0x[0-9a-f]{40}$", match_mode: "regex" }))).mission;
    expect((await submit(regex.id, "0x1234")).r.body.status).toBe("rejected");
    expect((await submit(regex.id, `0x${"ab".repeat(20)}`)).r.body.status).toBe("accepted");
  });

  it("only the first valid submission wins; the others, valid or not, are rejected with a reason", async () => {
    const { mission } = await openMission(t, fvm({ expected: "ok" }));
    const a = await submit(mission.id, "OK from a");
    const b = await submit(mission.id, "ok from b");
    expect(a.r.body.status).toBe("accepted");
    expect(b.r.body.error).toBe("MISSION_NOT_OPEN");
    expect(await balance(b.agent.address)).toBe(0n);
  });

  it("voided path: no valid submission by the deadline → refund, spam fee kept, rejections stay", async () => {
    const { creator, mission } = await openMission(t, fvm({ expected: "never" }));
    await submit(mission.id, "nope");
    const before = await balance(creator.address);
    expect(await sweptPastDeadline(t, mission, 1)).toMatchObject({
      status: "voided",
      resolution_reason: "no_valid_submission",
    });
    expect((await balance(creator.address)) - before).toBe(10_000_000n);
    expect(await sweepDueMissions(t.deps)).toBe(0);
  });
});
