import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestApp, type TestApp } from "../helpers/app";

// The discovery documents crawlers read (docs/discovery.md), each checked against its published
// schema, and a crawler that reaches every one of them from /.well-known/oabp.json.
// Schemas:
// - MCP Registry server.json: test/wellknown/schemas/mcp-server.schema.2025-09-29.json, vendored
//   from the MCP Registry ($id https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json).
// - MCP Server Card (the MCP Server Card proposal, a draft): no schema file is published yet; the
//   card is server.json's fields plus its own, so it is validated against the server.json schema
//   and the proposal's required fields ($schema, name, version, capabilities) and remote fields.
// - Agent Skills discovery index (github.com/cloudflare/agent-skills-discovery-rfc, v0.2.0 of
//   2026-03-12): its schema URI (schemas.agentskills.io/discovery/0.2.0/schema.json) is not
//   vendorable here, so SKILLS_INDEX below is written from the RFC's field tables (required fields,
//   name rule, type values, digest form) and validated with the same validator.

const REGISTRY_KEY = Buffer.alloc(32, 7).toString("base64"); // a public key: 44 base64 characters
const SERVER_SCHEMA = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "schemas/mcp-server.schema.2025-09-29.json"), "utf8"),
) as Record<string, unknown>;

const SKILLS_INDEX = {
  type: "object",
  required: ["$schema", "skills"],
  properties: {
    $schema: { const: "https://schemas.agentskills.io/discovery/0.2.0/schema.json" },
    skills: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "type", "description", "url", "digest"],
        properties: {
          name: { type: "string", maxLength: 64, pattern: "^[a-z0-9]+(-[a-z0-9]+)*$" },
          type: { enum: ["skill-md", "archive"] },
          description: { type: "string", minLength: 1, maxLength: 1024 },
          url: { type: "string", minLength: 1 },
          digest: { type: "string", pattern: "^sha256:[0-9a-f]{64}$" },
        },
      },
    },
  },
};

const SERVER_CARD_EXTRA = {
  type: "object",
  required: ["$schema", "name", "version", "capabilities"],
  properties: {
    $schema: { const: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json" },
    capabilities: { type: "object" },
    remotes: {
      type: "array",
      items: {
        type: "object",
        properties: {
          supportedProtocolVersions: { type: "array", items: { type: "string" } },
          authentication: {
            type: "object",
            required: ["required", "schemes"],
            properties: { required: { type: "boolean" }, schemes: { type: "array", items: { type: "string" } } },
          },
        },
      },
    },
  },
};

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validServerJson = ajv.compile(SERVER_SCHEMA);
const validSkillsIndex = ajv.compile(SKILLS_INDEX);
const validServerCard = ajv.compile(SERVER_CARD_EXTRA);

let t: TestApp;
let bare: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ OABP_MCP_REGISTRY_PUBLIC_KEY: REGISTRY_KEY });
  bare = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
});

const sha256 = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
const pathOf = (url: string) => (url.startsWith("/") ? url : new URL(url).pathname);

describe("discovery documents, each against its schema", () => {
  it("server.json validates against the MCP Registry schema 2025-09-29", async () => {
    const r = await t.call("GET", "/.well-known/mcp/server.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(validServerJson(r.body), ajv.errorsText(validServerJson.errors)).toBe(true);
    expect(r.body).toMatchObject({ name: "test.oabp/missions", remotes: [{ type: "streamable-http" }] });
    expect(r.body.remotes[0].url).toMatch(/\/mcp$/);
    // The validator is live: a description over the schema's 100 characters fails.
    expect(validServerJson({ ...r.body, description: "x".repeat(101) })).toBe(false);
  });

  it("the server card validates against server.json's schema and the proposal's own fields", async () => {
    const r = await t.call("GET", "/.well-known/mcp/server-card.json");
    expect(r.status).toBe(200);
    expect(validServerJson(r.body), ajv.errorsText(validServerJson.errors)).toBe(true);
    expect(validServerCard(r.body), ajv.errorsText(validServerCard.errors)).toBe(true);
    expect(r.body.remotes[0].supportedProtocolVersions.length).toBeGreaterThan(0);
    const { capabilities: _c, ...noCaps } = r.body;
    expect(validServerCard(noCaps)).toBe(false);
  });

  it("the Agent Skills index validates, and each digest is the sha256 of the bytes at its url", async () => {
    const r = await t.call("GET", "/.well-known/agent-skills/index.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(validSkillsIndex(r.body), ajv.errorsText(validSkillsIndex.errors)).toBe(true);
    for (const skill of r.body.skills) {
      const doc = await t.call("GET", pathOf(skill.url));
      expect(doc.status).toBe(200);
      expect(doc.headers.get("content-type")).toMatch(/^text\/markdown/);
      expect(sha256(doc.text)).toBe(skill.digest);
      // The SKILL.md frontmatter names the same skill, with the same description.
      expect(doc.text).toContain(`\nname: ${skill.name}\n`);
      expect(doc.text).toContain(`\ndescription: ${skill.description}\n`);
      // /skill.md is the same document, with the OADP comment.
      expect((await t.call("GET", "/skill.md")).text).toBe(doc.text);
      expect(doc.text).toMatch(/<!-- OADP:1\.0 hub=http:\/\/oabp\.test reg=http:\/\/oabp\.test\/auth\/siwe -->\n$/);
    }
    expect(validSkillsIndex({ ...r.body, skills: [{ ...r.body.skills[0], digest: "sha256:xyz" }] })).toBe(false);
  });

  it("the MCP Registry's HTTP domain proof: the configured key, or 404 naming the setting", async () => {
    const r = await t.call("GET", "/.well-known/mcp-registry-auth");
    expect(r.status).toBe(200);
    expect(r.text).toBe(`v=MCPv1; k=ed25519; p=${REGISTRY_KEY}\n`);
    const none = await bare.call("GET", "/.well-known/mcp-registry-auth");
    expect(none.status).toBe(404);
    expect(none.body.details).toEqual({ setting: "OABP_MCP_REGISTRY_PUBLIC_KEY" });
    expect((await bare.call("GET", "/.well-known/oabp.json")).body.endpoints.mcp_registry_auth).toBeUndefined();
  });
});

/** Paths a crawler follows: same-origin `/.well-known/…`, `/skill.md`, `/llms.txt` in JSON strings and Markdown links. */
function linksIn(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?:http:\/\/oabp\.test)?(\/(?:\.well-known\/[A-Za-z0-9._/-]+|skill\.md|llms\.txt))/g))
    found.add(m[1]!);
  return [...found];
}

describe("a crawler starting at /.well-known/oabp.json", () => {
  it("reaches every discovery document", async () => {
    const reached = new Map<string, number>();
    const queue = ["/.well-known/oabp.json"];
    while (queue.length > 0 && reached.size < 50) {
      const p = queue.shift()!;
      if (reached.has(p)) continue;
      const r = await t.call("GET", p);
      reached.set(p, r.status);
      if (r.status === 200) for (const next of linksIn(r.text)) if (!reached.has(next)) queue.push(next);
    }
    const served = [
      "/.well-known/mcp/server-card.json",
      "/.well-known/mcp/server.json",
      "/.well-known/mcp-registry-auth",
      "/.well-known/agent-skills/index.json",
      "/.well-known/agent-skills/oabp-missions/SKILL.md",
      "/skill.md",
      "/llms.txt",
      "/.well-known/agent-card.json",
    ];
    for (const p of served) expect(reached.get(p), p).toBe(200);
    // The ERC-8004 registration file is linked from the manifest; another feature serves it
    // (docs/discovery.md), and llms.txt names it once it does.
    expect(reached.has("/.well-known/agent-registration.json")).toBe(true);
    // llms.txt names each document too.
    const llms = (await t.call("GET", "/llms.txt")).text;
    for (const p of ["/.well-known/mcp/server-card.json", "/.well-known/mcp/server.json"])
      expect(llms).toContain(`http://oabp.test${p}`);
    expect(llms).toContain("http://oabp.test/.well-known/agent-skills/index.json");
  });
});
