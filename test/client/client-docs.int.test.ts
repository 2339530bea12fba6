import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ENV } from "../../packages/client/src/cli/context";
import { BOOL_FLAGS, COMMANDS, STRING_FLAGS, SUBCOMMANDS } from "../../packages/client/src/cli/run";
import { EnvSchema } from "../../src/env.settings";
import { TOOLS } from "../../src/features/mcp/mcp.tools";
import { PARAMS_BY_TYPE } from "../../src/features/missions/missions.verification";
import { makeTestApp, type TestApp } from "../helpers/app";
import { ROOT } from "../helpers/process";

// Every command, flag, route, MCP tool and setting named in the walkthrough (docs/first-mission.md),
// the README's client lines, /llms.txt and /skill.md exists — so the docs an agent is taught from
// cannot drift from the server and the CLI.

let t: TestApp;
const docs: Record<string, string> = {};
beforeAll(async () => {
  t = await makeTestApp();
  docs["docs/first-mission.md"] = readFileSync(path.join(ROOT, "docs/first-mission.md"), "utf8");
  docs["README.md (client lines)"] = readFileSync(path.join(ROOT, "README.md"), "utf8")
    .split("\n")
    .filter((l) => /oabp (mcp|login|receipt)|first-mission/.test(l))
    .join("\n");
  for (const p of ["/llms.txt", "/skill.md"]) {
    const r = await t.call("GET", p);
    expect(r.status, p).toBe(200);
    docs[p] = r.text;
  }
});
afterAll(() => t?.close());

const openapi = JSON.parse(readFileSync(path.join(ROOT, "openapi/openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, unknown>>;
};
const norm = (p: string) =>
  p
    .replace(/\/api(?=\/)/, "")
    .replace(/(\{[^}]*\}|<[^>]*>|\$[A-Za-z_]+)/g, "*")
    .replace(/\/+$/, "");
const routes = new Set(Object.keys(openapi.paths).map(norm));

/** Every property name, enum value and parameter name of the OpenAPI document. */
function wireWords(): Set<string> {
  const words = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== "object") return;
    const o = v as Record<string, unknown>;
    if (o.properties && typeof o.properties === "object") for (const k of Object.keys(o.properties)) words.add(k);
    if (Array.isArray(o.enum)) for (const e of o.enum) if (typeof e === "string") words.add(e);
    if (o.in && typeof o.name === "string") words.add(o.name);
    Object.values(o).forEach(walk);
  };
  walk(openapi);
  return words;
}

describe("names in the agent-facing docs exist", () => {
  it("oabp commands, subcommands and flags", () => {
    for (const [doc, text] of Object.entries(docs)) {
      for (const m of text.matchAll(/(?<![\w@/-])oabp ([a-z]+)(?: ([a-z]+))?/g)) {
        const [, cmd, sub] = m;
        expect(Object.keys(COMMANDS), `${doc}: oabp ${cmd}`).toContain(cmd);
        if (SUBCOMMANDS[cmd!] && sub) expect(SUBCOMMANDS[cmd!], `${doc}: oabp ${cmd} ${sub}`).toContain(sub);
      }
      for (const line of text.split("\n").filter((l) => /(?<![\w@/-])oabp /.test(l))) {
        for (const f of line.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g))
          expect([...STRING_FLAGS, ...BOOL_FLAGS], `${doc}: --${f[1]} in "${line.trim()}"`).toContain(f[1]);
      }
    }
  });

  it("routes", async () => {
    let checked = 0;
    const missing: string[] = [];
    for (const [doc, text] of Object.entries(docs)) {
      const found = [
        ...text.matchAll(/\b(?:GET|POST|PUT|DELETE|PATCH) (?:https?:\/\/[^/\s`]+|\$S)?(\/[^\s`?#)"'\]]*)/g),
        ...text.matchAll(/\$S(\/[^\s`?#)"'\]]*)/g),
        ...text.matchAll(/https?:\/\/(?:oabp\.test|localhost:3000)(\/[^\s`?#)"'\]]*)/g),
      ].map((m) => m[1]!.replace(/[.,:;]+$/, ""));
      for (const p of found) {
        if (p === "" || p === "/") continue;
        checked++;
        // Not in the OpenAPI document (e.g. /openapi.json itself): it must answer.
        if (
          !routes.has(norm(p)) &&
          (p.includes("{") || p.includes("$") || p.includes("<") || (await t.call("GET", p)).status === 404)
        )
          missing.push(`${doc}: ${p}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it("MCP tools and wire names: every snake_case name in code spans is a tool, a field, an enum value or a parameter", async () => {
    const tools = new Set(TOOLS.map((x) => x.name));
    const known = new Set([...tools, ...wireWords()]);
    // Each verification method's params: an open object on the wire, named in its description.
    for (const w of PARAMS_BY_TYPE.matchAll(/[a-z]+(?:_[a-z0-9]+)+/g)) known.add(w[0]);
    // Keys of the live discovery documents (free-form JSON in the OpenAPI document).
    for (const p of [
      "/.well-known/oabp.json",
      "/.well-known/oauth-protected-resource",
      "/.well-known/agent-card.json",
      "/.well-known/agent-protocol.json",
    ]) {
      JSON.stringify((await t.call("GET", p)).body, (k, v) => (known.add(k), v));
    }
    const unknown: string[] = [];
    for (const [doc, text] of Object.entries(docs)) {
      for (const span of text.matchAll(/`([^`\n]+)`/g)) {
        for (const w of span[1]!.matchAll(/(?<![\w./$-])([a-z]+(?:_[a-z0-9]+)+)(?![\w.(-])/g))
          if (!known.has(w[1]!)) unknown.push(`${doc}: ${w[1]} in \`${span[1]}\``);
      }
    }
    expect(unknown).toEqual([]);
    expect(docs["/skill.md"]).toContain("claim_mission");
  });

  it("settings", () => {
    const serverEnv = new Set(Object.keys(EnvSchema.shape));
    for (const [doc, text] of Object.entries(docs)) {
      for (const m of text.matchAll(/\b(OABP_[A-Z0-9_]+|XDG_[A-Z_]+)/g)) {
        expect(serverEnv.has(m[1]!) || CLI_ENV.includes(m[1]!), `${doc}: ${m[1]}`).toBe(true);
      }
    }
  });

  it("the nonce answer carries what the SIWE message must say", async () => {
    const r = await t.call("POST", "/auth/nonce");
    expect(r.body).toMatchObject({ domain: "oabp.test", uri: "http://oabp.test", chain_ids: [8453] });
  });
});
