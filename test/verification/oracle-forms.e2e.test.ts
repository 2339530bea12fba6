import http from "node:http";
import type { AddressInfo } from "node:net";
import { toFunctionSelector, type Abi, type Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import mockOracle from "../../contracts/artifacts/MockOracle.json" with { type: "json" };
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { contentHashToBytes32, missionKey } from "../../src/lib/evm";
import { startAnvil, type Anvil } from "../helpers/anvil";
import { makeTestApp, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import pkg from "../../package.json" with { type: "json" };

// — AIP-1 §4.4 oracle params: "oracle_method": "string (function selector or RPC
// method)". Both spec forms are accepted and decide missions end to end over HTTP: a 4-byte
// selector read by eth_call on anvil (MockOracle), and a namespaced RPC method answered by an
// oracle node (a small JSON-RPC server here); node namespaces are refused.

const abi = mockOracle.abi as Abi;
let anvil: Anvil;
let oracle: Address;
let t: TestApp;
let rpc: http.Server;
let rpcUrl = "";
const rpcCalls: { method: string; params: unknown; ua: string | undefined }[] = [];
/** What the oracle node answers for a mission id (null: undecided). */
const rpcWinners = new Map<string, string>();

beforeAll(async () => {
  anvil = await startAnvil();
  oracle = await anvil.deploy("MockOracle");
  rpc = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      id: number;
      method: string;
      params: [{ mission_id: string }];
    };
    rpcCalls.push({ method: body.method, params: body.params, ua: req.headers["user-agent"] });
    res.writeHead(200, { "content-type": "application/json" });
    if (body.method !== "oracle_winner")
      return res.end(
        JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32601, message: "method not found" } }),
      );
    res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: rpcWinners.get(body.params[0].mission_id) ?? null }));
  });
  await new Promise<void>((r) => rpc.listen(0, "127.0.0.1", () => r()));
  rpcUrl = `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`;
  t = await makeTestApp({ OABP_RPC_URL: anvil.rpcUrl });
});
afterAll(async () => {
  await t?.close();
  await anvil?.stop();
  rpc?.closeAllConnections();
  await new Promise((r) => rpc?.close(r));
});

const oracleMission = (method: string) => ({
  verification: { type: "oracle", params: { oracle_contract: oracle, oracle_method: method } },
});

async function submitTwo(app: TestApp, missionId: string) {
  const out: { id: string; address: string; hash: `0x${string}` }[] = [];
  for (const content of ["first answer", "second answer"]) {
    const a = await signIn(app);
    const r = await app.call("POST", `/missions/${missionId}/submissions`, { token: a.token, body: { content } });
    expect(r.status, r.text).toBe(201);
    out.push({ id: r.body.id, address: a.address, hash: contentHashToBytes32(r.body.content_hash) });
  }
  return out;
}

async function closeAndPoll(app: TestApp, deadline: string) {
  app.clock.set(new Date(new Date(deadline).getTime() + 1000));
  await sweepDueMissions(app.deps); // closes submissions, schedules the first poll
  app.clock.advance(60_000);
  return sweepDueMissions(app.deps);
}

describe('AIP-1 §4.4 "oracle_method": "string (function selector or RPC method)"', () => {
  it("a function selector: eth_call with selector ‖ missionKey, the 32 bytes back name the winner", async () => {
    const selector = toFunctionSelector("winner(bytes32)"); // MockOracle's per-mission read, by selector
    const { mission } = await openMission(t, oracleMission(selector));
    expect(mission.verification.params.oracle_method).toBe(selector);
    const subs = await submitTwo(t, mission.id);
    // Undecided (zero) first: the mission waits.
    expect(await closeAndPoll(t, mission.deadline)).toBe(1);
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
      status: "escrowed",
      phase: "awaiting_oracle",
    });
    const hash = await anvil.walletClient.writeContract({
      address: oracle,
      abi,
      functionName: "setWinner",
      args: [missionKey(mission.id), subs[1]!.hash],
    });
    await anvil.publicClient.waitForTransactionReceipt({ hash });
    t.clock.advance(60_000);
    expect(await sweepDueMissions(t.deps)).toBe(1);
    expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
      status: "resolved",
      resolution_reason: "oracle_attested",
      resolution: { winner_submission_id: subs[1]!.id },
    });
  });

  it("the example selector 0x6d4ce63c is accepted; a contract without it never decides (call_reverted, polled until the window closes)", async () => {
    const { mission } = await openMission(t, oracleMission("0x6d4ce63c"));
    expect(mission.status).toBe("open");
    await submitTwo(t, mission.id);
    expect(await closeAndPoll(t, mission.deadline)).toBe(1);
    expect((await t.call("GET", `/missions/${mission.id}`)).body.status).toBe("escrowed");
  });

  it("an RPC method: JSON-RPC to the configured RPC with {oracle_contract, mission_id, mission_key}; a 0x bytes32 result names the winner", async () => {
    const app = await makeTestApp({ OABP_RPC_URL: rpcUrl });
    try {
      const { mission } = await openMission(app, oracleMission("oracle_winner"));
      const subs = await submitTwo(app, mission.id);
      expect(await closeAndPoll(app, mission.deadline)).toBe(1);
      expect((await app.call("GET", `/missions/${mission.id}`)).body.status).toBe("escrowed"); // null: undecided
      const call = rpcCalls.find((c) => c.method === "oracle_winner")!;
      expect(call.params).toEqual([
        { oracle_contract: oracle.toLowerCase(), mission_id: mission.id, mission_key: missionKey(mission.id) },
      ]);
      expect(call.ua).toBe(`oabp-server/${pkg.version} (+${app.deps.config.publicUrl}/.well-known/agent-card.json)`); // §7.5.1 on RPC too
      rpcWinners.set(mission.id, subs[0]!.hash);
      app.clock.advance(60_000);
      expect(await sweepDueMissions(app.deps)).toBe(1);
      expect((await app.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
        status: "resolved",
        resolution: { winner_submission_id: subs[0]!.id },
      });
    } finally {
      await app.close();
    }
  }, 120_000); // a second app on a fresh database

  it.each([
    ["eth_sendRawTransaction", "oracle_rpc_method_reserved"],
    ["debug_traceCall", "oracle_rpc_method_reserved"],
    ["admin_stopRPC", "oracle_rpc_method_reserved"],
    ["anvil_mine", "oracle_rpc_method_reserved"],
    ["0x6d4ce6", "oracle_method_unsupported"],
    ["get()", "oracle_method_unsupported"],
    ["oracle winner", "oracle_method_unsupported"],
  ])("%s → 422 %s", async (method, reason) => {
    const c = await signIn(t);
    const { credit, missionBody } = await import("../helpers/agents");
    await credit(t, c.address, 1_000_000_000n);
    const r = await t.call("POST", "/missions", { token: c.token, body: missionBody(t, oracleMission(method)) });
    expectError(r, 422, "UNPROCESSABLE");
    expect(r.body.details).toMatchObject({ field: "verification.params.oracle_method", reason });
  });
});
