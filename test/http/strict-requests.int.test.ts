import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import doc from "../../openapi/openapi.json" with { type: "json" };
import { editDistance } from "../../src/lib/unknown-fields";
import { ADMIN_TOKEN, makeTestApp, type TestApp } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";
import { callTool, openSession, request, rpc } from "../helpers/mcp";

// Strict requests (docs/decisions.md "Strict requests"): every documented operation with a JSON
// body, and every MCP tool, answers one misspelt field with 400 INVALID_PARAMETER naming it and
// its nearest known name; JSON nested far too deep is a 4xx before anything parses it, never a 500.

type Schema = { $ref?: string; properties?: Record<string, unknown>; additionalProperties?: unknown };
const components = (doc as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;
const resolve = (s: Schema | undefined): Schema | undefined =>
  s?.$ref ? resolve(components[s.$ref.replace("#/components/schemas/", "")]) : s;

/** A misspelling of one of `known` (its second letter dropped) whose nearest known name is it alone. */
function misspell(known: string[]): { wrong: string; right: string } | undefined {
  for (const right of known) {
    if (right.length < 4) continue;
    const wrong = right.slice(0, 1) + right.slice(2);
    const d = (k: string) => editDistance(wrong.toLowerCase(), k.toLowerCase());
    if (known.every((k) => k === right || d(k) > d(right))) return { wrong, right };
  }
  return undefined;
}

let t: TestApp;
let agent: { token: string; address: string };
const logged: string[] = [];
beforeAll(async () => {
  t = await makeTestApp();
  agent = await signIn(t);
  // Capture what the error handler logs (it reads the logger from deps at request time).
  const sink = new Writable({ write: (chunk, _e, done) => (logged.push(String(chunk)), done()) });
  t.deps.logger = pino({ level: "debug" }, sink);
});
afterAll(async () => t?.close());

const operations = Object.entries((doc as { paths: Record<string, Record<string, any>> }).paths).flatMap(
  ([path, ops]) =>
    Object.entries(ops)
      // /mcp is JSON-RPC: its tools are walked below, over MCP. /a2a answers in the A2A envelope:
      // its strict payloads are test/a2a/a2a-card.int.test.ts's.
      .filter(([, op]) => op?.requestBody?.content?.["application/json"] && path !== "/mcp" && path !== "/a2a")
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
);

describe("REST: one misspelt body field on every operation", () => {
  it("covers the documented operations with a JSON body", () => {
    expect(operations.length).toBeGreaterThan(40);
  });

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))("%s", async (_name, { method, path, op }) => {
    const schema = resolve(op.requestBody.content["application/json"].schema as Schema);
    // An open object (OADP ping, ADP card: their protocols say extra fields are kept) takes any key.
    if (schema?.additionalProperties !== undefined && schema.additionalProperties !== false) return;
    const known = Object.keys(schema?.properties ?? {});
    const pick = misspell(known);
    if (!pick) return; // a body without named fields of 4+ letters (a record, or `{}`): nothing to misspell
    const url = path.replace(/\{[^}]+\}/g, "x_1");
    const body = { [pick.wrong]: "x" };
    let r = await t.call(method, url, { body, token: agent.token });
    if (r.status === 401 || r.status === 403) r = await t.call(method, url, { body, token: ADMIN_TOKEN });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toBe("INVALID_PARAMETER");
    expect(r.body.message).toBe(`Received unknown parameter: ${pick.wrong}. Did you mean ${pick.right}?`);
    expect(r.body.details).toMatchObject({ field: pick.wrong, did_you_mean: pick.right, reason: "unknown_parameter" });
  });
});

describe("REST: the examples of docs/decisions.md, Strict requests", () => {
  it("`apeal` and `tag` are refused naming appeal and tags; nothing is created", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    const { tags: _tags, ...rest } = missionBody(t);
    const a = await t.call("POST", "/missions", { token: creator.token, body: { ...rest, tag: ["x"] } });
    expect(a.status, a.text).toBe(400);
    expect(a.body.message).toBe("Received unknown parameter: tag. Did you mean tags?");
    const b = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { verification: { type: "creator_judges", params: { apeal: false } } }),
    });
    expect(b.status, b.text).toBe(400);
    expect(b.body.message).toBe(
      "Received unknown parameter: verification.params.apeal. Did you mean verification.params.appeal?",
    );
    const nested = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { reward: { asset: "USDC", amount: "100000000", ammount: "1" } }),
    });
    expect(nested.status).toBe(400);
    expect(nested.body.details).toMatchObject({ field: "reward.ammount", did_you_mean: "reward.amount" });
    const mine = await t.call("GET", "/missions?mine=true", { token: creator.token });
    expect(mine.body.missions ?? []).toHaveLength(0);
  });

  it("an x- extension field passes", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    const r = await t.call("POST", "/missions", {
      token: creator.token,
      body: { ...missionBody(t), "x-client-note": { any: "thing" } },
    });
    expect(r.status, r.text).toBe(201);
  });

  it("queries: a misspelt parameter is refused, campaign tags and x- parameters pass", async () => {
    const bad = await t.call("GET", "/missions?stauts=open");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Received unknown parameter: stauts. Did you mean status?");
    expect(bad.body.details.in).toBe("query");
    const ok = await t.call("GET", "/missions?utm_source=newsletter&fbclid=1&x-trace=2&status=open");
    expect(ok.status, ok.text).toBe(200);
  });
});

describe("MCP: one misspelt argument on every tool", () => {
  it("every tool answers isError with the field and its nearest known name", async () => {
    const session = await openSession(t, agent.token);
    const list = await rpc(t, request("tools/list"), { session, token: agent.token });
    const tools = list.body.result.tools as { name: string; inputSchema: { properties?: Record<string, unknown> } }[];
    expect(tools.length).toBeGreaterThan(15);
    let checked = 0;
    for (const tool of tools) {
      const pick = misspell(Object.keys(tool.inputSchema.properties ?? {}));
      if (!pick) continue;
      const res = await callTool(t, session, tool.name, { [pick.wrong]: "x" }, agent.token);
      expect(res.isError, tool.name).toBe(true);
      const body = JSON.parse(res.content[0]!.text);
      expect(body.error, tool.name).toBe("INVALID_PARAMETER");
      expect(body.message, tool.name).toBe(`Received unknown parameter: ${pick.wrong}. Did you mean ${pick.right}?`);
      expect(body.details.in).toBe("arguments");
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
  });
});

describe("nesting depth is bounded before parsing", () => {
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
  const deepObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);

  it("100,000 deep on a REST route, a relay and MCP: 4xx, and no stack trace in the log", async () => {
    logged.length = 0;
    const routes: [string, string, string][] = [
      ["POST", "/missions", deep(100_000)],
      ["POST", "/missions", `{"title":"t","metadata":${deepObject(100_000)}}`],
      ["POST", "/skills/x_1/invoke", `{"payload":${deepObject(10_000)}}`],
      ["POST", "/skills", `{"name":"s","inputSchema":${deepObject(5_000)}}`],
      ["POST", "/adp/adp.advertise", `{"id":"a","metadata":${deepObject(5_000)}}`],
    ];
    for (const [method, path, body] of routes) {
      const r = await t.call(method, path, { body, token: agent.token });
      expect(r.status, `${path}: ${r.text}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${path}: ${r.text}`).toBeLessThan(500);
      if (r.status === 400) expect(r.body.details?.reason, path).toBe("too_deep");
    }
    const mcp = await rpc(t, `{"jsonrpc":"2.0","id":1,"method":"ping","params":${deepObject(100_000)}}`);
    expect(mcp.status).toBe(400);
    expect(mcp.body.error.message).toMatch(/deeper than 64/);
    expect(logged.join("")).not.toMatch(/"stack"|\n\s+at /);
  });

  it("64 levels still parse", async () => {
    const r = await t.call("POST", "/missions", { body: `{"x-deep":${deepObject(62)}}`, token: agent.token });
    expect(r.status).toBe(400);
    expect(r.body.details.reason).not.toBe("too_deep");
  });
});
