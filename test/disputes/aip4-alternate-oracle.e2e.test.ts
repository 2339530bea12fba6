import type { Abi, Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import mockOracle from "../../contracts/artifacts/MockOracle.json" with { type: "json" };
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { contentHashToBytes32, missionKey } from "../../src/lib/evm";
import { startAnvil, type Anvil } from "../helpers/anvil";
import { ADMIN_TOKEN, makeTestApp, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { ORACLE_POLL_SECONDS } from "../../src/features/verification/oracle";

// AIP-4 §4 "oracle_disagreement: Re-run verification with an alternate oracle; flag original
// oracle as unreliable". Two MockOracle contracts on anvil: the mission's own, which never attests
// the right answer, and the alternate named by OABP_ALTERNATE_ORACLES. An upheld dispute reads the
// alternate and pays the submission it attests through the award path; without an alternate
// (a second app) the oracle is only flagged. Run on PGlite and on Postgres (DATABASE_URL).

const abi = mockOracle.abi as Abi;
const IS_VALID = "isValid(bytes32,bytes32)";

let anvil: Anvil;
let own: Address;
let alternate: Address;
let t: TestApp;
let bare: TestApp;

beforeAll(async () => {
  anvil = await startAnvil();
  own = await anvil.deploy("MockOracle");
  alternate = await anvil.deploy("MockOracle");
  t = await makeTestApp({
    OABP_RPC_URL: anvil.rpcUrl,
    OABP_ALTERNATE_ORACLES: JSON.stringify([
      { chain: "base", address: own, method: IS_VALID }, // the mission's own oracle is never its alternate
      { chain: "base", address: alternate, method: IS_VALID },
    ]),
  });
  bare = await makeTestApp({ OABP_RPC_URL: anvil.rpcUrl });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await anvil?.stop();
});

const balance = async (app: TestApp, address: string) =>
  BigInt((await app.call("GET", `/agents/${address}/balance`)).body.aigen_balance);

/** An oracle mission (own oracle) with two submissions, closed and waiting for its oracle. */
async function waitingForOracle(app: TestApp) {
  const { mission: m } = await openMission(app, {
    reward: { asset: "USDC", amount: "100000000" },
    verification: { type: "oracle", params: { oracle_contract: own, oracle_method: IS_VALID } },
  });
  const subs = [];
  for (const content of ["the wrong answer", "the right answer"]) {
    const agent = await signIn(app);
    const r = await app.call("POST", `/missions/${m.id}/submissions`, { token: agent.token, body: { content } });
    expect(r.status, r.text).toBe(201);
    subs.push({ ...agent, id: r.body.id as string, hash: contentHashToBytes32(r.body.content_hash) });
  }
  app.clock.set(new Date(new Date(m.deadline).getTime() + 1000));
  await sweepDueMissions(app.deps); // closes submissions, polls the own oracle: undecided
  await sweepDueMissions(app.deps);
  // A week later: the submitters sign in again (sessions do not last that long).
  for (const s of subs) s.token = (await signIn(app, s.account)).token;
  expect((await app.call("GET", `/missions/${m.id}`)).body).toMatchObject({
    status: "escrowed",
    phase: "awaiting_oracle",
  });
  return { m, subs };
}

const disagree = (app: TestApp, m: { id: string }, sub: { id: string; token: string }) =>
  app.call("POST", "/api/disputes", {
    token: sub.token,
    body: {
      dispute_type: "oracle_disagreement",
      mission_id: m.id,
      submission_id: sub.id,
      evidence: {
        description: "The oracle never attests the right answer; the public registry shows it is right",
        oracle_response: "isValid → false",
        counter_source: { url: "https://registry.example/answer", content_hash: `0x${"ab".repeat(32)}` },
      },
    },
  });

async function program(oracle: Address, args: unknown[]) {
  const hash = await anvil.walletClient.writeContract({ address: oracle, abi, functionName: "setValid", args });
  expect((await anvil.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
}

describe("AIP-4 §4 oracle_disagreement: re-run with an alternate oracle", () => {
  it("upheld: the alternate oracle is read and the submission it attests is paid through the award path", async () => {
    const { m, subs } = await waitingForOracle(t);
    const right = subs[1]!;
    // Only the alternate attests the right answer; the mission's own oracle stays silent.
    await program(alternate, [missionKey(m.id), right.hash, true]);
    const filed = await disagree(t, m, right);
    expect(filed.status, filed.text).toBe(201);
    const r = await t.call("POST", `/api/disputes/${filed.body.dispute_id}/resolve`, {
      token: ADMIN_TOKEN,
      body: { outcome: "upheld", rationale: "the counter-source checks out" },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.corrective_action).toMatchObject({
      action: "flag_oracle",
      applied: true,
      oracle: `ledger:${own.toLowerCase()}`,
      rerun: {
        oracle: alternate.toLowerCase(),
        method: IS_VALID,
        verdict: "valid_submission",
        applied: true,
        awarded_submission_id: right.id,
        awarded_to: right.address,
      },
    });
    // The same settlement as any oracle award: reward − 0.5 % fee to the attested submission.
    expect((await t.call("GET", `/missions/${m.id}`)).body).toMatchObject({
      status: "resolved",
      resolution_reason: "oracle_attested",
      resolution: { winner_submission_id: right.id, winner_agent_id: right.address, fee_amount: "500000" },
    });
    expect(await balance(t, right.address)).toBe(99_500_000n);
    expect(await balance(t, subs[0]!.address)).toBe(0n);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("upheld while the alternate attests nothing: recorded, the mission keeps waiting for its oracle", async () => {
    const { m, subs } = await waitingForOracle(t);
    const filed = await disagree(t, m, subs[0]!);
    const r = await t.call("POST", `/api/disputes/${filed.body.dispute_id}/resolve`, {
      token: ADMIN_TOKEN,
      body: { outcome: "upheld", rationale: "worth a second reading" },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.corrective_action.rerun).toMatchObject({ verdict: "undecided", applied: false });
    expect((await t.call("GET", `/missions/${m.id}`)).body).toMatchObject({
      status: "escrowed",
      phase: "awaiting_oracle",
    });
  });

  it("upheld on a mission already decided: the re-run is recorded, the outcome stands (no clawback)", async () => {
    const { m, subs } = await waitingForOracle(t);
    const filed = await disagree(t, m, subs[0]!);
    // The own oracle attests the first submission; the mission resolves before the ruling.
    await program(own, [missionKey(m.id), subs[0]!.hash, true]);
    await program(alternate, [missionKey(m.id), subs[1]!.hash, true]);
    t.clock.advance(ORACLE_POLL_SECONDS * 1000);
    await sweepDueMissions(t.deps);
    expect((await t.call("GET", `/missions/${m.id}`)).body.status).toBe("resolved");
    const r = await t.call("POST", `/api/disputes/${filed.body.dispute_id}/resolve`, {
      token: ADMIN_TOKEN,
      body: { outcome: "upheld", rationale: "late" },
    });
    expect(r.body.corrective_action.rerun).toMatchObject({ oracle: alternate.toLowerCase(), applied: false });
    expect(r.body.corrective_action.rerun.detail).toMatch(/outcome stands/);
    expect(await balance(t, subs[0]!.address)).toBe(99_500_000n);
    expect(await balance(t, subs[1]!.address)).toBe(0n);
  });

  it("without an alternate oracle configured, an upheld dispute only flags the oracle", async () => {
    const { m, subs } = await waitingForOracle(bare);
    const filed = await disagree(bare, m, subs[1]!);
    const r = await bare.call("POST", `/api/disputes/${filed.body.dispute_id}/resolve`, {
      token: ADMIN_TOKEN,
      body: { outcome: "upheld", rationale: "flag it" },
    });
    expect(r.body.corrective_action).toEqual({
      action: "flag_oracle",
      oracle: `ledger:${own.toLowerCase()}`,
      applied: true,
      rerun: "not available: no alternate oracle is configured",
    });
    expect((await bare.call("GET", `/missions/${m.id}`)).body.status).toBe("escrowed");
  });
});
