import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Abi, Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import mockOracle from "../../contracts/artifacts/MockOracle.json" with { type: "json" };
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { contentHashToBytes32, missionKey } from "../../src/lib/evm";
import { startAnvil, type Anvil } from "../helpers/anvil";
import { serveTestApp, type ServedTestApp } from "../helpers/served";
import { openMission, signIn } from "../helpers/agents";

// MCP Tasks (2025-11-25 basic/utilities/tasks) for an oracle mission, with the official SDK client
// against a listening server and MockOracle on anvil: submit_solution as a task → CreateTaskResult
// (working) → tasks/get polled while the oracle has not attested → the deadline passes, the oracle
// attests, the sweeper resolves → tasks/get completed → tasks/result is the accepted, paid
// submission. The task belongs to the agent, not the session: it is polled from a later session
// (docs/mcp.md "Tasks").

const IS_VALID = "isValid(bytes32,bytes32)";
let anvil: Anvil;
let oracle: Address;
let t: ServedTestApp;

beforeAll(async () => {
  anvil = await startAnvil();
  oracle = await anvil.deploy("MockOracle");
  t = await serveTestApp({
    OABP_RPC_URL: anvil.rpcUrl,
    OABP_ORACLES: JSON.stringify([{ chain: "base", address: oracle, method: IS_VALID }]),
  });
});
afterAll(async () => {
  await t?.close();
  await anvil?.stop();
});

async function connect(token: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "oabp-tasks", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("MCP Tasks: an oracle mission", () => {
  it("creates a task on submit, reports working until the oracle attests, then completed with the paid submission", async () => {
    const { mission } = await openMission(t, {
      reward: { asset: "USDC", amount: "100000000" },
      verification: { type: "oracle", params: { oracle_contract: oracle, oracle_method: IS_VALID } },
    });
    const solver = await signIn(t);
    const first = await connect(solver.token);
    expect(first.getServerCapabilities()?.tasks?.requests?.tools?.call).toEqual({});
    await first.listTools(); // the SDK learns which tools run as tasks

    // The SDK's task-augmented call: its first message is the CreateTaskResult.
    const stream = first.experimental.tasks.callToolStream(
      { name: "submit_solution", arguments: { mission_id: mission.id, content: "the oracle's answer" } },
      CallToolResultSchema,
      { task: { ttl: 10 * 86_400_000 } },
    );
    const created = (await stream.next()).value;
    await stream.return(undefined);
    expect(created).toMatchObject({ type: "taskCreated", task: { status: "working", ttl: 10 * 86_400_000 } });
    const taskId = (created as { task: { taskId: string } }).task.taskId;
    expect((await first.experimental.tasks.getTask(taskId)).status).toBe("working");
    await first.close();

    // Past the deadline: submissions close, the oracle is polled but has not attested yet.
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps);
    // The solver signs in again (its token followed the clock) and polls from a new session.
    const later = await connect((await signIn(t, solver.account)).token);
    expect((await later.experimental.tasks.getTask(taskId)).status).toBe("working");
    expect((await later.experimental.tasks.listTasks()).tasks.map((x) => x.taskId)).toContain(taskId);

    // The oracle attests the submission; the next poll resolves and pays it.
    const subs = (await t.call("GET", `/missions/${mission.id}/submissions`)).body.submissions;
    const hash = contentHashToBytes32(subs[0].content_hash);
    const tx = await anvil.walletClient.writeContract({
      address: oracle,
      abi: mockOracle.abi as Abi,
      functionName: "setValid",
      args: [missionKey(mission.id), hash, true],
    });
    await anvil.publicClient.waitForTransactionReceipt({ hash: tx });
    t.clock.advance(60_000);
    expect(await sweepDueMissions(t.deps)).toBe(1);

    const done = await later.experimental.tasks.getTask(taskId);
    expect(done).toMatchObject({ taskId, status: "completed" });
    const result = await later.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ id: subs[0].id, status: "accepted", submitter: solver.address });
    expect(result._meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId } });
    // A finished task cannot be cancelled (tasks §Task Cancellation: -32602).
    await expect(later.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/already completed/);
    await later.close();

    // Another agent does not see it.
    const other = await connect((await signIn(t)).token);
    await expect(other.experimental.tasks.getTask(taskId)).rejects.toThrow(/Task not found/);
    await other.close();
  });
});
