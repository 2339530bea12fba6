import { expect } from "vitest";
import type { TestApp } from "./app";

/** The headers of the AIP-1 §7.4 recipe (what an MCP 2025-06-18 client sends on every POST). */
export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
};

type Res = Awaited<ReturnType<TestApp["call"]>>;

/** POST /mcp with one JSON-RPC message (an object) or a raw string body. */
export function rpc(
  t: TestApp,
  body: unknown,
  o: { session?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<Res> {
  const headers: Record<string, string> = {
    ...MCP_HEADERS,
    ...(o.session ? { "mcp-session-id": o.session } : {}),
    ...(o.headers ?? {}),
  };
  return t.call("POST", "/mcp", { body, token: o.token, headers });
}

let nextId = 1;
export const request = (method: string, params?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method,
  ...(params ? { params } : {}),
});
export const INITIALIZE = () =>
  request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "oabp-test", version: "1.0.0" },
  });
export const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };

/** initialize only: the session is pending until notifications/initialized. */
export async function initialize(t: TestApp, token?: string): Promise<string> {
  const r = await rpc(t, INITIALIZE(), { token });
  expect(r.status, r.text).toBe(200);
  const id = r.headers.get("mcp-session-id");
  expect(id).toBeTruthy();
  return id!;
}

/** A complete handshake: initialize, then notifications/initialized. */
export async function openSession(t: TestApp, token?: string): Promise<string> {
  const id = await initialize(t, token);
  const r = await rpc(t, INITIALIZED, { session: id, token });
  expect(r.status, r.text).toBe(202);
  return id;
}

/** tools/call → the parsed result ({content, structuredContent?, isError}). */
export async function callTool(
  t: TestApp,
  session: string,
  name: string,
  args: Record<string, unknown>,
  token?: string,
) {
  const r = await rpc(t, request("tools/call", { name, arguments: args }), { session, token });
  expect(r.status, r.text).toBe(200);
  expect(r.body.error, r.text).toBeUndefined();
  return r.body.result as { content: { type: string; text: string }[]; structuredContent?: any; isError: boolean };
}

/** Asserts the AIP-1 §7.2.1 body: a JSON-RPC error plus the three sibling fields. */
export function expectTransportError(r: Res, status: number, code: number, publicUrl: string) {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  expect(r.body).toMatchObject({
    jsonrpc: "2.0",
    error: { code, message: expect.any(String) },
    canonical_endpoint: `${publicUrl}/mcp`,
    supported_transports: ["streamable_http"],
    documentation: expect.stringMatching(/^https:\/\/.+AIP-1\.md#7/),
  });
  expect(r.body).toHaveProperty("id");
}

/**
 * A peer_vote mission already in its voting phase, with one submission to vote for: the clock
 * jumps past its deadline (MCP sessions follow the injected clock: open them after this).
 */
export async function missionInVoting(t: TestApp) {
  const { openMission, signIn } = await import("./agents");
  const { sweepDueMissions } = await import("../../src/jobs/sweeper");
  const DAY = 86_400_000;
  const deadline = new Date(t.clock.now().getTime() + DAY);
  const pv = await openMission(t, {
    deadline: deadline.toISOString(),
    verification: {
      type: "peer_vote",
      params: {
        voting_deadline: new Date(deadline.getTime() + DAY).toISOString(),
        vote_token: "USDC",
        min_vote: "100",
        quorum: "100",
      },
    },
  });
  const author = await signIn(t);
  const pvSub = (
    await t.call("POST", `/missions/${pv.mission.id}/submissions`, {
      token: author.token,
      body: { content: "vote for me" },
    })
  ).body;
  t.clock.set(new Date(deadline.getTime() + 1000));
  await sweepDueMissions(t.deps);
  return { pv, pvSub };
}

/**
 * A REST mission body as MCP create_mission arguments: the base-unit reward moves to
 * `amount_base_units` (MCP's `amount` is whole units, docs/decisions.md "Amounts as people write them").
 */
export function mcpMission<B extends { reward: { amount: string } & Record<string, unknown> }>(body: B) {
  const { amount, ...reward } = body.reward;
  return { ...body, reward: { ...reward, amount_base_units: amount } };
}

/** A signed-in agent credited `amount`, with an open MCP session and its tool calls as that agent. */
export async function mcpAgent(t: TestApp, amount: bigint) {
  const { credit, signIn } = await import("./agents");
  const agent = await signIn(t);
  await credit(t, agent.address, amount);
  const session = await openSession(t, agent.token);
  return {
    ...agent,
    session,
    callTool: (name: string, args: Record<string, unknown>) => callTool(t, session, name, args, agent.token),
  };
}
