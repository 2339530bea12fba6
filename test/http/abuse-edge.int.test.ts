import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSafeFetcher } from "../../src/lib/safe-fetch";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { INITIALIZE, INITIALIZED, rpc } from "../helpers/mcp";

// 's small items not covered elsewhere (docs/abuse-edge.md): lone UTF-16 surrogates in
// JSON bodies → 400, and ar:// deliverables through the configured Arweave gateway. (SIWE:
// test/auth/identity.int.test.ts; receipts/verify: test/receipts/receipts.int.test.ts.)

const TX = "bNbA3TEQVL60xlgQ1Fs5Zp-D9mY0ZyF0Qw2A5h0HwDk"; // 43 base64url characters
let t: TestApp;
let gateway: http.Server;
const seen: string[] = [];

beforeAll(async () => {
  gateway = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain" }).end(`arweave:${req.url}`);
  });
  await new Promise<void>((resolve) => gateway.listen(0, TEST_CONTENT_HOST, resolve));
  const port = (gateway.address() as AddressInfo).port;
  t = await makeTestApp({ OABP_ARWEAVE_GATEWAY: `http://${TEST_CONTENT_HOST}:${port}/gw/` });
});
afterAll(async () => {
  await new Promise((r) => gateway?.close(r));
  await t?.close();
});

describe("lone UTF-16 surrogates in JSON bodies → 400, never 500", () => {
  const lone = (s: string) => JSON.stringify(s); // JSON.stringify escapes a lone surrogate as \udXXX

  it("an ADP card (the reported 500), a mission and an MCP tool call are refused with invalid_text", async () => {
    const a = await signIn(t);
    const card = `{"id":"agent://bot-x","name":${lone("bot \ud800")},"description":"d","version":"1.0.0","skills":["python"],"extensions":{"oabp":{"agent_id":"${a.address}"}}}`;
    const r = await t.call("POST", "/adp/adp.advertise", { token: a.token, body: card });
    expectError(r, 400, "INVALID_PARAMETER");
    expect(r.body.details.reason).toBe("invalid_text");
    // A lone low surrogate in a key, deep in a mission body.
    const mission = `{"title":"t","description":"d","tags":["x"],"reward":{"asset":"USDC","amount":"1"},"verification":{"type":"creator_judges","params":{${lone("\udc00k")}:1}}}`;
    expectError(await t.call("POST", "/missions", { token: a.token, body: mission }), 400, "INVALID_PARAMETER");
    // MCP: the same rule on its own endpoint.
    const init = await rpc(t, INITIALIZE(), { token: a.token });
    const session = init.headers.get("mcp-session-id")!;
    await rpc(t, INITIALIZED, { session, token: a.token });
    const call = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_missions","arguments":{"q":${lone("\ud83d")}}}}`;
    const m = await rpc(t, call, { session, token: a.token });
    expect(m.status).toBe(400);
    expect(m.body.error.message).toMatch(/lone UTF-16 surrogate/);
  });

  it("a well-formed pair written as escapes (\\ud83d\\ude00) is just text", async () => {
    const { mission } = await openMission(t);
    const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: (await signIn(t)).token,
      body: '{"content":"smile \\ud83d\\ude00"}',
    });
    expect(r.status, r.text).toBe(201);
  });
});

describe("ar:// deliverables through OABP_ARWEAVE_GATEWAY", () => {
  it("the fetcher rewrites ar://<tx id>[/path] to the gateway and fetches it like https; refuses without a gateway or with a bad id", async () => {
    const r = await t.deps.fetcher.fetch(`ar://${TX}/data.txt?x=1`);
    expect(r.ok && r.body.toString()).toBe(`arweave:/gw/${TX}/data.txt?x=1`);
    const bad = await t.deps.fetcher.fetch("ar://not-a-tx-id/x");
    expect(!bad.ok && bad.reason).toBe("invalid_url");
    // Dot segments stay under <gateway><tx id>: resolved away or refused, never above the prefix.
    const climb = await t.deps.fetcher.fetch(`ar://${TX}/../../secret`);
    if (climb.ok) expect(climb.body.toString().startsWith(`arweave:/gw/${TX}`)).toBe(true);
    else expect(climb.reason).toBe("invalid_url");
    const none = await createSafeFetcher({ allowAddress: (ip) => ip === TEST_CONTENT_HOST }).fetch(`ar://${TX}`);
    expect(!none.ok && none.reason).toBe("arweave_gateway_not_configured");
    expect(t.deps.config.arweaveGateway).toMatch(/\/gw\/$/);
    expect((await makeTestAppConfigDefault()).arweaveGateway).toBe("https://arweave.net/");
  });

  it("a submission naming a well-formed ar:// transaction is accepted; a malformed one is refused at submission (it could never be fetched)", async () => {
    const { mission } = await openMission(t);
    const solver = await signIn(t);
    const hash = "sha256:" + "ab".repeat(32);
    const ok = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: solver.token,
      body: { content_uri: `ar://${TX}`, content_hash: hash },
    });
    expect(ok.status, ok.text).toBe(201);
    const other = await signIn(t);
    const bad = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: other.token,
      body: { content_uri: "ar://short", content_hash: hash },
    });
    expectError(bad, 400, "INVALID_PARAMETER");
    expect(bad.body.details.field).toBe("content_uri");
  });
});

async function makeTestAppConfigDefault() {
  const { parseEnv } = await import("../../src/env");
  return parseEnv({});
}
