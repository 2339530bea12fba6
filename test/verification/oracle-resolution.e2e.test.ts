import type { Abi, Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import mockOracle from "../../contracts/artifacts/MockOracle.json" with { type: "json" };
import { treasuryBalances, verifyLedger } from "../../src/features/ledger/ledger.service";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { contentHashToBytes32, createOracleReader, missionKey } from "../../src/lib/evm";
import { sha256Hex } from "../../src/lib/hash";
import { startAnvil, type Anvil } from "../helpers/anvil";
import { makeTestApp, type TestApp } from "../helpers/app";
import { missionBody, openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";

// AIP-1 §4.4 oracle end to end through HTTP, against MockOracle on anvil:
// create (allow-listed → no warning; unknown → warning, resolves the same) → several agents
// submit → deadline → the oracle attests (per_submission isValid / per_mission winner) → the
// attested submission gets reward − 0.5 % fee; and the paths where the oracle never answers,
// the RPC is down or absent (default award after the oracle window), or nobody submits (void).

const abi = mockOracle.abi as Abi;
const IS_VALID = "isValid(bytes32,bytes32)";
const WINNER = "winner(bytes32)";
const POLL_MS = 60_000;

let anvil: Anvil;
let allowListed: Address;
let unknown: Address;
let t: TestApp;

beforeAll(async () => {
  anvil = await startAnvil();
  allowListed = await anvil.deploy("MockOracle");
  unknown = await anvil.deploy("MockOracle");
  t = await makeTestApp({
    OABP_RPC_URL: anvil.rpcUrl,
    OABP_ORACLES: JSON.stringify([{ chain: "base", address: allowListed, method: IS_VALID }]),
  });
});
afterAll(async () => {
  await t?.close();
  await anvil?.stop();
});

const balance = async (app: TestApp, address: string) =>
  BigInt((await app.call("GET", `/agents/${address}/balance`)).body.aigen_balance);
const treasury = async (app: TestApp) => (await treasuryBalances(app.deps.database.db)).get("USDC") ?? 0n;
const mission = async (app: TestApp, id: string) => (await app.call("GET", `/missions/${id}`)).body;
const submissionsOf = async (app: TestApp, id: string) =>
  (await app.call("GET", `/missions/${id}/submissions`)).body.submissions as {
    id: string;
    submitter: string;
    status: string;
    reason: string;
    next_action: string;
  }[];

async function program(oracle: Address, functionName: "setValid" | "setWinner", args: unknown[], chain = anvil) {
  const hash = await chain.walletClient.writeContract({ address: oracle, abi, functionName, args });
  expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
}

const oracleMission = (contract: string, method: string, amount = "100000000") => ({
  reward: { asset: "USDC", amount },
  verification: { type: "oracle", params: { oracle_contract: contract, oracle_method: method } },
});

/** Each content by a new signed-in agent (or by an earlier one when `by` names its index). */
async function submit(app: TestApp, missionId: string, contents: string[], by: (number | undefined)[] = []) {
  const out: { token: string; address: string; id: string; hash: Hex }[] = [];
  for (const [i, content] of contents.entries()) {
    const agent = by[i] !== undefined ? out[by[i]!]! : await signIn(app);
    const r = await app.call("POST", `/missions/${missionId}/submissions`, { token: agent.token, body: { content } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      status: "pending",
      reason: "awaiting_oracle",
      content_hash: `0x${sha256Hex(Buffer.from(content))}`,
    });
    out.push({
      token: agent.token,
      address: agent.address,
      id: r.body.id,
      hash: contentHashToBytes32(r.body.content_hash),
    });
  }
  return out;
}

/** Past the deadline; the first sweep closes submissions and schedules a poll at once. */
async function closeSubmissions(app: TestApp, m: { id: string; deadline: string }) {
  app.clock.set(new Date(new Date(m.deadline).getTime() + 1000));
  expect(await sweepDueMissions(app.deps)).toBeGreaterThanOrEqual(1);
  const after = await mission(app, m.id);
  expect(after).toMatchObject({ status: "escrowed", phase: "awaiting_oracle", payout_status: "not_applicable" });
  expect(after.judging_deadline).toBe(
    new Date(new Date(m.deadline).getTime() + app.deps.config.oracleWindowSeconds * 1000).toISOString(),
  );
}

/** One poll later; returns how many missions the sweep advanced. */
async function poll(app: TestApp) {
  app.clock.advance(POLL_MS);
  return sweepDueMissions(app.deps);
}

describe("oracle resolution on anvil (MockOracle)", () => {
  it("per_submission, allow-listed: no warning; the earliest submission the oracle attests wins reward − 0.5 %", async () => {
    const { mission: m } = await openMission(t, oracleMission(allowListed, IS_VALID));
    expect(m.warnings).toEqual([]);
    const subs = await submit(t, m.id, ["answer one", "answer two", "answer three"]);
    const treasuryBefore = await treasury(t);
    await closeSubmissions(t, m);

    // The oracle has not attested anything yet: the mission waits, nothing moves.
    expect(await sweepDueMissions(t.deps)).toBe(1);
    expect(await mission(t, m.id)).toMatchObject({ status: "escrowed", phase: "awaiting_oracle" });
    const waiting = await submissionsOf(t, m.id);
    expect(waiting.map((s) => [s.status, s.reason])).toEqual(Array(3).fill(["pending", "awaiting_oracle"]));
    expect(waiting[0]!.next_action).toMatch(/oracle/);
    expect(await sweepDueMissions(t.deps)).toBe(0); // next poll is scheduled, not spinning

    // The 2nd and 3rd are both valid: arrival order decides, the 2nd wins.
    await program(allowListed, "setValid", [missionKey(m.id), subs[2]!.hash, true]);
    await program(allowListed, "setValid", [missionKey(m.id), subs[1]!.hash, true]);
    expect(await poll(t)).toBe(1);
    const after = await mission(t, m.id);
    expect(after).toMatchObject({
      status: "resolved",
      phase: "settled",
      payout_status: "confirmed",
      resolution_reason: "oracle_attested",
      resolution: { winner_submission_id: subs[1]!.id, winner_agent_id: subs[1]!.address, fee_amount: "500000" },
    });
    expect(await balance(t, subs[1]!.address)).toBe(99_500_000n);
    expect(await balance(t, subs[0]!.address)).toBe(0n);
    expect(await balance(t, subs[2]!.address)).toBe(0n);
    expect((await treasury(t)) - treasuryBefore).toBe(500_000n);
    expect((await submissionsOf(t, m.id)).map((s) => [s.status, s.reason])).toEqual([
      ["rejected", "not_selected"],
      ["accepted", "oracle_attested"],
      ["rejected", "not_selected"],
    ]);

    // Nothing resolved twice, whatever the oracle says later.
    await program(allowListed, "setValid", [missionKey(m.id), subs[0]!.hash, true]);
    expect(await poll(t)).toBe(0);
    expect(await balance(t, subs[1]!.address)).toBe(99_500_000n);
    expect((await treasury(t)) - treasuryBefore).toBe(500_000n);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("per_mission, unknown oracle: accepted with a warning, resolves the same way; a copied hash loses to the original", async () => {
    const { mission: m } = await openMission(t, oracleMission(unknown, WINNER));
    expect(m.warnings).toEqual([expect.stringMatching(/^unknown_oracle/)]);
    // The 3rd agent submits the very content of the 2nd (its hash is public): the earlier one wins.
    const subs = await submit(t, m.id, ["alpha", "beta", "beta"]);
    await closeSubmissions(t, m);
    expect(await sweepDueMissions(t.deps)).toBe(1); // winner() is zero: undecided
    expect((await mission(t, m.id)).status).toBe("escrowed");

    // A hash that is no pending submission of this mission: ignored, polled again.
    await program(unknown, "setWinner", [
      missionKey(m.id),
      contentHashToBytes32(`sha256:${sha256Hex(Buffer.from("nobody sent this"))}`),
    ]);
    expect(await poll(t)).toBe(1);
    expect(await mission(t, m.id)).toMatchObject({ status: "escrowed", phase: "awaiting_oracle" });

    await program(unknown, "setWinner", [missionKey(m.id), subs[1]!.hash]);
    expect(await poll(t)).toBe(1);
    expect(await mission(t, m.id)).toMatchObject({
      status: "resolved",
      resolution_reason: "oracle_attested",
      warnings: m.warnings,
      resolution: { winner_submission_id: subs[1]!.id, winner_agent_id: subs[1]!.address },
    });
    expect(await balance(t, subs[1]!.address)).toBe(99_500_000n);
    expect(await balance(t, subs[2]!.address)).toBe(0n);
    expect((await submissionsOf(t, m.id)).map((s) => s.reason)).toEqual([
      "not_selected",
      "oracle_attested",
      "not_selected",
    ]);
    expect(await poll(t)).toBe(0);
  });

  it("an oracle that never attests: when the oracle window closes, the default outcome pays the bounded pool to the distinct submitters", async () => {
    const { creator, mission: m } = await openMission(t, oracleMission(allowListed, IS_VALID, "30000000"));
    const subs = await submit(t, m.id, ["x1", "y1", "x2"], [undefined, undefined, 0]); // the 1st agent submits twice
    const creatorBefore = await balance(t, creator.address);
    await closeSubmissions(t, m);
    expect(await sweepDueMissions(t.deps)).toBe(1);
    expect(await poll(t)).toBe(1);
    expect((await mission(t, m.id)).status).toBe("escrowed");

    t.clock.set(new Date(new Date(m.deadline).getTime() + t.deps.config.oracleWindowSeconds * 1000));
    expect(await sweepDueMissions(t.deps)).toBe(1);
    expect(await mission(t, m.id)).toMatchObject({
      status: "resolved",
      payout_status: "confirmed",
      resolution_reason: "default_award_oracle_timeout",
    });
    // docs/abuse.md: pool = 20 % (6 USDC), fee on the pool, the other 80 % back to the creator
    const net = 6_000_000n - 30_000n;
    expect(await balance(t, subs[0]!.address)).toBe(net / 2n);
    expect(await balance(t, subs[1]!.address)).toBe(net / 2n);
    expect((await balance(t, creator.address)) - creatorBefore).toBe(24_000_000n);
    expect((await submissionsOf(t, m.id)).map((s) => [s.status, s.reason])).toEqual([
      ["accepted", "default_award"],
      ["accepted", "default_award"],
      ["rejected", "not_selected"],
    ]);
    expect(await poll(t)).toBe(0);
  });

  it("nobody submits: voided at the deadline, reward refunded, spam fee kept", async () => {
    const { creator, mission: m } = await openMission(t, oracleMission(allowListed, WINNER));
    const before = await balance(t, creator.address);
    t.clock.set(new Date(new Date(m.deadline).getTime() + 1));
    expect(await sweepDueMissions(t.deps)).toBe(1);
    expect(await mission(t, m.id)).toMatchObject({
      status: "voided",
      phase: "closed",
      resolution_reason: "expired_without_submissions",
    });
    expect((await balance(t, creator.address)) - before).toBe(100_000_000n);
    expect(await poll(t)).toBe(0);
  });

  it("refuses an oracle_method neither shape can read (422 oracle_method_unsupported), allow-listed or not", async () => {
    const c = await signIn(t);
    // (A 4-byte selector and a namespaced RPC method are accepted forms: test/verification/oracle-forms.e2e.test.ts.)
    for (const [contract, method] of [
      [allowListed, "0xdeadbe"],
      [unknown, "get()"],
      [allowListed, "isValid(bytes32,uint256)"],
      [unknown, "function winner(bytes32) view returns (bool)"],
    ] as const) {
      const r = await t.call("POST", "/missions", {
        token: c.token,
        body: {
          title: "t",
          description: "d",
          deadline: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
          ...oracleMission(contract, method),
        },
      });
      expectError(r, 422, "UNPROCESSABLE");
      expect(r.body.details).toMatchObject({
        reason: "oracle_method_unsupported",
        field: "verification.params.oracle_method",
      });
    }
  });
});

describe("oracle unreachable", () => {
  it("RPC down: the mission stays escrowed and polls; the oracle window closes with the default award", async () => {
    const chain = await startAnvil();
    const app = await makeTestApp({ OABP_RPC_URL: chain.rpcUrl });
    try {
      const oracle = await chain.deploy("MockOracle");
      const { mission: m } = await openMission(app, oracleMission(oracle, WINNER));
      const subs = await submit(app, m.id, ["one", "two"]);
      await closeSubmissions(app, m);
      await chain.stop(); // before the oracle could attest (a winner set now could not be read)
      for (let i = 0; i < 3; i++) {
        expect(await (i === 0 ? sweepDueMissions(app.deps) : poll(app))).toBe(1);
        expect(await mission(app, m.id)).toMatchObject({
          status: "escrowed",
          phase: "awaiting_oracle",
          payout_status: "not_applicable",
        });
      }
      app.clock.set(new Date(new Date(m.deadline).getTime() + app.deps.config.oracleWindowSeconds * 1000));
      expect(await sweepDueMissions(app.deps)).toBe(1);
      expect(await mission(app, m.id)).toMatchObject({
        status: "resolved",
        resolution_reason: "default_award_oracle_timeout",
      });
      for (const s of subs) expect(await balance(app, s.address)).toBe(19_900_000n / 2n); // the 20 % pool less its fee
      expect(await poll(app)).toBe(0);
      expect((await verifyLedger(app.deps.database.db)).ok).toBe(true);
    } finally {
      await chain.stop();
      await app.close();
    }
  });

  it("no RPC configured: an oracle mission is refused at creation (422 oracle_no_rpc), nothing escrowed", async () => {
    const app = await makeTestApp();
    try {
      const c = await signIn(app);
      const r = await app.call("POST", "/missions", {
        token: c.token,
        body: missionBody(app, oracleMission(allowListed, IS_VALID)),
      });
      expectError(r, 422, "UNPROCESSABLE");
      expect(r.body.details).toMatchObject({ field: "verification.type", reason: "oracle_no_rpc" });
      expect(r.body.message).toMatch(/OABP_RPC_URL/);
    } finally {
      await app.close();
    }
  });

  it("an RPC that goes away after creation (no_rpc) behaves like an oracle that never answers", async () => {
    const app = await makeTestApp({ OABP_ORACLE_WINDOW_SECONDS: "3600", OABP_RPC_URL: anvil.rpcUrl });
    try {
      const { mission: m } = await openMission(app, oracleMission(allowListed, IS_VALID));
      app.deps.oracle = createOracleReader(undefined); // restarted without OABP_RPC_URL
      const subs = await submit(app, m.id, ["solo"]);
      await closeSubmissions(app, m);
      expect(await sweepDueMissions(app.deps)).toBe(1);
      expect(await poll(app)).toBe(1);
      expect((await mission(app, m.id)).status).toBe("escrowed");
      app.clock.set(new Date(new Date(m.deadline).getTime() + 3600 * 1000));
      expect(await sweepDueMissions(app.deps)).toBe(1);
      expect(await mission(app, m.id)).toMatchObject({
        status: "resolved",
        resolution_reason: "default_award_oracle_timeout",
      });
      expect(await balance(app, subs[0]!.address)).toBe(19_900_000n); // the 20 % pool less its fee
      expect(await poll(app)).toBe(0);
    } finally {
      await app.close();
    }
  });
});
