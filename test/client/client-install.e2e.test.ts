import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, stopServer } from "../helpers/cli";
import { E2E_ADMIN, freshPostgresDatabase, ROOT, type ServerProcess } from "../helpers/process";

// docs/client-install.md: from an empty directory outside the checkout, with nothing but a running
// server, npm installs the client the server serves (/client.tgz, integrity in the manifest),
// `oabp --help` answers, `oabp login` signs in, and the official MCP SDK drives `npx -y
// <server>/client.tgz mcp` over stdio with that login. npm's registry is pointed at a closed port:
// the package bundles its dependencies, so nothing but the server is asked.

const run = promisify(execFile);
let proc: ServerProcess;
let dropDb: (() => Promise<void>) | undefined;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oabp-install-"));
  const serverEnv: Record<string, string> = { OABP_DATA_DIR: path.join(dir, "data") };
  if (process.env.DATABASE_URL) {
    const fresh = await freshPostgresDatabase("oabp_install");
    serverEnv.DATABASE_URL = fresh.url;
    dropDb = fresh.drop;
  } else serverEnv.DATABASE_URL = "";
  proc = await startLocalServer(serverEnv);
  // A user's shell: no variable of this repository's npm run, an empty npm cache, no registry.
  env = {
    PATH: process.env.PATH ?? "",
    HOME: path.join(dir, "home"),
    npm_config_cache: path.join(dir, "npm-cache"),
    npm_config_registry: "http://127.0.0.1:9/",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    OABP_URL: proc.base,
    OABP_CONFIG_DIR: path.join(dir, "config"),
  };
}, 180_000);
afterAll(async () => {
  await stopServer(proc);
  await dropDb?.();
  rmSync(dir, { recursive: true, force: true });
});

describe("the client, installed from the server", () => {
  it(
    "npm install <server>/client.tgz → oabp --help → oabp login → stdio MCP via npx",
    { timeout: 240_000 },
    async () => {
      const work = mkdtempSync(path.join(dir, "empty-"));
      expect(path.relative(ROOT, work).startsWith("..")).toBe(true); // outside the checkout

      const manifest = (await (await fetch(`${proc.base}/.well-known/oabp.json`)).json()) as {
        client: { package: string; version: string; tarball: string; tarball_versioned: string; integrity: string };
      };
      expect(manifest.client).toMatchObject({ package: "@oabp/client", tarball: "/client.tgz" });
      const versioned = await fetch(`${proc.base}${manifest.client.tarball_versioned}`);
      expect(versioned.status).toBe(200);

      await run("npm", ["install", `${proc.base}/client.tgz`], { cwd: work, env });
      // npm's own integrity of what it downloaded is the manifest's.
      const lock = JSON.parse(readFileSync(path.join(work, "package-lock.json"), "utf8"));
      expect(lock.packages["node_modules/@oabp/client"]).toMatchObject({
        version: manifest.client.version,
        integrity: manifest.client.integrity,
      });
      // Bundled: one package installed, nothing else.
      expect(Object.keys(lock.packages).filter((k) => k !== "")).toEqual(["node_modules/@oabp/client"]);

      const oabp = path.join(work, "node_modules/.bin/oabp");
      const help = await run(oabp, ["--help"], { cwd: work, env });
      expect(help.stdout).toContain("usage: oabp");

      const keygen = await run(oabp, ["keygen", "me.key", "--json"], { cwd: work, env });
      const me = (JSON.parse(keygen.stdout) as { address: string }).address.toLowerCase();
      const login = await run(oabp, ["login", "--key-file", "me.key", "--json"], { cwd: work, env });
      expect(JSON.parse(login.stdout)).toMatchObject({ agent_id: me, server: proc.base });

      await run(oabp, ["admin", "credit", me, "50"], { cwd: work, env: { ...env, OABP_ADMIN_TOKEN: E2E_ADMIN } });

      // npx fetches the same tarball into its own cache and runs `oabp mcp` with the login above.
      const transport = new StdioClientTransport({
        command: "npx",
        args: ["-y", `${proc.base}/client.tgz`, "mcp"],
        cwd: work,
        env,
        stderr: "pipe",
      });
      let log = "";
      transport.stderr!.on("data", (d) => (log += d));
      const client = new Client({ name: "oabp-install-test", version: "1.0.0" });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["list_missions", "create_mission"]));
        const created = await client.callTool({
          name: "create_mission",
          arguments: {
            title: "Installed from the server",
            description: "Posted through npx <server>/client.tgz mcp.",
            reward: { asset: "USDC", amount: "10" },
            verification: { type: "creator_judges" },
            deadline: new Date(Date.now() + 86_400_000).toISOString(),
          },
        });
        expect(created.isError, JSON.stringify(created)).toBeFalsy();
        // The bridge signed in with the login's key: the server saw this agent as the creator.
        expect(created.structuredContent).toMatchObject({ status: "open", creator: me });
      } finally {
        await client.close();
      }
      expect(log).toContain("session");
    },
  );
});
