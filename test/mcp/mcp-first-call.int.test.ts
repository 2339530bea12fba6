import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyReceipt } from "../../packages/client/src/receipts";
import { makeTestApp, type TestApp } from "../helpers/app";
import { credit } from "../helpers/agents";

// An agent's first call over MCP (docs/mcp.md "Sign-in over MCP"): two agents that speak only MCP,
// through the official SDK client and with no Authorization header ever, sign in with auth_nonce +
// sign_in, post a mission with the defaults (whole-unit reward, creator_judges), solve it, award
// it, and reach a receipt that verifies offline. The only HTTP outside /mcp is the operator's
// ledger credit (setup) and the issuer manifest the offline verifier reads (AIP-1 §6.1).
let t: TestApp;
let server: ServerType;
let base: string;
// Every path the server was asked for, to prove the agents stayed on /mcp.
const paths: string[] = [];
beforeAll(async () => {
  t = await makeTestApp();
  server = await new Promise<ServerType>((resolve) => {
    const s = serve(
      {
        fetch: (req) => {
          paths.push(new URL(req.url).pathname);
          return t.app.fetch(req);
        },
        port: 0,
        hostname: "127.0.0.1",
      },
      () => resolve(s),
    );
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.close();
});

type Agent = { client: Client; account: PrivateKeyAccount; address: string };

async function call(a: Agent, name: string, args: Record<string, unknown>) {
  const r = (await a.client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
    structuredContent?: Record<string, any>;
  };
  return { isError: r.isError === true, body: JSON.parse(r.content[0]!.text) as Record<string, any> };
}

/** Connects with no credentials and signs in over MCP: auth_nonce (with the address) then sign_in. */
async function mcpAgent(): Promise<Agent> {
  const client = new Client({ name: "mcp-only-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  const account = privateKeyToAccount(generatePrivateKey());
  const agent = { client, account, address: account.address.toLowerCase() };
  const nonce = await call(agent, "auth_nonce", { address: account.address });
  expect(nonce.isError, JSON.stringify(nonce.body)).toBe(false);
  expect(nonce.body.message).toContain(nonce.body.nonce);
  const signature = await account.signMessage({ message: nonce.body.message });
  const signed = await call(agent, "sign_in", { message: nonce.body.message, signature });
  expect(signed.isError, JSON.stringify(signed.body)).toBe(false);
  expect(signed.body).toMatchObject({ agent_id: agent.address, token_type: "Bearer" });
  return agent;
}

describe("an MCP-only agent's first calls", () => {
  it("before signing in, a write names what to do", async () => {
    const client = new Client({ name: "anonymous", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const anon = { client, account: privateKeyToAccount(generatePrivateKey()), address: "" };
    const r = await call(anon, "create_mission", { title: "t" });
    expect(r.isError).toBe(true);
    expect(r.body.error).toBe("UNAUTHORIZED");
    expect(r.body.details.fix).toContain("auth_nonce");
    const bad = await call(anon, "sign_in", { message: "hello", signature: "0x00" });
    expect(bad.body).toMatchObject({ error: "UNAUTHORIZED", details: { reason: "malformed_message" } });
    await client.close();
  });

  it("signs in, posts with the defaults, is solved by another MCP-only agent, and reaches a verified receipt", async () => {
    const creator = await mcpAgent();
    const solver = await mcpAgent();
    await credit(t, creator.address, 100_000_000n); // the operator's setup: 100 USDC
    const mcpFrom = paths.length;

    const deadline = new Date(t.clock.now().getTime() + 3 * 86_400_000).toISOString();
    const created = await call(creator, "create_mission", {
      title: "Name the AIP-1 receipt fields",
      description: "List the fields of a §6.1 receipt.",
      reward: { asset: "USDC", amount: "10" },
      deadline,
    });
    expect(created.isError, JSON.stringify(created.body)).toBe(false);
    expect(created.body).toMatchObject({
      creator: creator.address,
      status: "open",
      reward: { asset: "USDC", amount: "10000000" },
      verification: { type: "creator_judges" },
    });
    const missionId = created.body.id as string;

    const sub = await call(solver, "submit_solution", {
      mission_id: missionId,
      content: "id, mission, digest, signature",
    });
    expect(sub.isError, JSON.stringify(sub.body)).toBe(false);
    expect(sub.body.submitter).toBe(solver.address);

    const awarded = await call(creator, "award_mission", {
      mission_id: missionId,
      winners: [{ submission_id: sub.body.id }],
    });
    expect(awarded.isError, JSON.stringify(awarded.body)).toBe(false);
    expect(awarded.body.status).toBe("resolved");

    const receipt = await call(solver, "get_receipt", { mission_id: missionId, submission_id: sub.body.id });
    expect(receipt.isError, JSON.stringify(receipt.body)).toBe(false);
    expect(paths.slice(mcpFrom).every((p) => p === "/mcp")).toBe(true); // the agents never left MCP

    const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
    const verdict = await verifyReceipt(receipt.body, manifest);
    expect(verdict.reasons).toEqual([]);
    expect(verdict.valid).toBe(true);
    await creator.client.close();
    await solver.client.close();
  });

  it("a session opened by one agent cannot be signed into by another", async () => {
    const first = await mcpAgent();
    const other = privateKeyToAccount(generatePrivateKey());
    const nonce = await call(first, "auth_nonce", { address: other.address });
    const signature = await other.signMessage({ message: nonce.body.message });
    const r = await call(first, "sign_in", { message: nonce.body.message, signature });
    expect(r.isError).toBe(true);
    expect(r.body).toMatchObject({ error: "FORBIDDEN", details: { reason: "session_of_another_agent" } });
    await first.client.close();
  });
});
