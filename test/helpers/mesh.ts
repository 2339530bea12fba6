import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { expect } from "vitest";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "./app";

// The Agent Mesh fixtures (docs/neighbours.md "Agent Mesh"): the provider process
// (test/helpers/mesh-provider.mjs) on 127.0.0.2 — the one loopback address the test app's
// SSRF-safe fetcher may reach, as for content servers — and a hub with that provider registered.

const PROVIDER_SCRIPT = path.resolve(import.meta.dirname, "mesh-provider.mjs");

interface Received {
  path: string;
  from_header: string | null;
  message: any;
}

export interface MeshProvider {
  port: number;
  /** `http://127.0.0.2:<port>` */
  base: string;
  /** What it received so far: one entry per skill_invocation message. */
  received(): Promise<Received[]>;
  stop(): Promise<void>;
}

/** Starts the provider process; resolves once it listens. */
export function startMeshProvider(): Promise<MeshProvider> {
  const child = spawn(process.execPath, [PROVIDER_SCRIPT], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`provider exited (${code})`)));
    createInterface({ input: child.stdout! }).once("line", (line) => {
      const { port } = JSON.parse(line) as { port: number };
      const base = `http://${TEST_CONTENT_HOST}:${port}`;
      resolve({
        port,
        base,
        received: async () => (await (await fetch(`${base}/received`)).json()) as Received[],
        async stop() {
          if (child.exitCode !== null) return;
          const exited = new Promise((r) => child.once("exit", r));
          child.kill("SIGTERM");
          await exited;
        },
      });
    });
  });
}

/** The provider's registration: the Mesh document's example agent, at the provider's /mesh. */
export const providerRegistration = (providerBase: string) => ({
  name: "SearchBot",
  endpoint: `${providerBase}/mesh`,
  capabilities: ["web_search", "data_extraction"],
});

/** The provider's schema-checked, rate-limited skill (3 calls a minute per caller): it echoes. */
export const echoSkill = (agentId: string, providerBase: string) => ({
  agentId,
  name: "web_search",
  description: "Search the web for current information",
  endpoint: `${providerBase}/mesh/skills/echo`,
  version: "1.0.0",
  inputSchema: {
    type: "object",
    required: ["query"],
    properties: { query: { type: "string", minLength: 1, maxLength: 100 }, limit: { type: "integer", minimum: 1 } },
    additionalProperties: false,
  },
  outputSchema: { type: "object", required: ["echo"] },
  tags: ["web", "search"],
  rateLimit: { maxCalls: 3, periodMs: 60_000 },
});

/** The provider's other skills, in registration order: key, Mesh name and the provider's path. */
export const PLAIN_SKILLS = [
  ["bare", "data_answer", "bare"],
  ["slow", "sys_sleep", "slow"],
  ["boom", "data_explode", "boom"],
] as const;

/** Registers a plain skill (tagged `data`) at one of the provider's paths: its id. */
export async function registerPlainSkill(
  t: TestApp,
  o: { apiKey: string; providerBase: string; name: string; path: string },
): Promise<string> {
  const r = await t.call("POST", "/api/skills", {
    headers: { "x-api-key": o.apiKey },
    body: {
      name: o.name,
      description: `the ${o.path} skill`,
      endpoint: `${o.providerBase}/mesh/skills/${o.path}`,
      tags: ["data"],
    },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.id as string;
}

/**
 * The provider registered on the hub with its four skills (web_search, data_answer, sys_sleep,
 * data_explode): its agent id, API key and the skills' ids by key.
 */
export async function registerMeshProvider(t: TestApp, providerBase: string) {
  const r = await t.call("POST", "/api/agents/register", { body: providerRegistration(providerBase) });
  expect(r.status, r.text).toBe(200);
  const providerId = r.body.agentId as string;
  const apiKey = r.body.api_key as string;
  const echo = await t.call("POST", "/api/skills", {
    headers: { "x-api-key": apiKey },
    body: echoSkill(providerId, providerBase),
  });
  expect(echo.status, echo.text).toBe(200);
  const skills: Record<string, string> = { echo: echo.body.id };
  for (const [key, name, p] of PLAIN_SKILLS)
    skills[key] = await registerPlainSkill(t, { apiKey, providerBase, name, path: p });
  return { providerId, apiKey, skills, asProvider: () => ({ "x-api-key": apiKey }) };
}

/** A test app as a Mesh hub beside a provider process; `close` ends both. */
export async function startMeshHub() {
  // The hub's own time cap is short so the silent provider's timeout comes quickly; nothing
  // asserts a duration, only the outcome. Five skills per agent: the bounds test reaches the cap.
  const t = await makeTestApp({ OABP_MESH_SKILLS_PER_AGENT: "5" }, { limits: { meshInvokeTimeoutMs: 400 } });
  const provider = await startMeshProvider().catch(async (e: unknown) => {
    await t.close();
    throw e;
  });
  return {
    t,
    provider,
    async close() {
      await provider.stop();
      await t.close();
    },
  };
}

export type RegisteredProvider = Awaited<ReturnType<typeof registerMeshProvider>>;
