import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_MAIN, runCli, startLocalServer, stopServer } from "../helpers/cli";
import { E2E_ADMIN, ROOT, type ServerProcess } from "../helpers/process";

// Must-show 2: `oabp mcp` is a stdio MCP server bridged to a real server's /mcp. The official SDK
// client connects over stdio (StdioClientTransport), lists and calls tools with the credentials of
// `oabp login`, survives the HTTP session being ended under it (the bridge opens a new one), and
// closes — the bridge then ends its HTTP session with DELETE.

let proc: ServerProcess;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oabp-mcp-bridge-"));
  proc = await startLocalServer({ OABP_DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" });
}, 180_000);
afterAll(() => stopServer(proc));

const post = async (body: unknown, headers: Record<string, string>) =>
  fetch(`${proc.base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });

describe("oabp mcp (stdio ↔ Streamable HTTP)", () => {
  it(
    "SDK stdio client: connect, list, call (signed in), survive a lost session, close",
    { timeout: 180_000 },
    async () => {
      const env = { OABP_URL: proc.base, OABP_CONFIG_DIR: path.join(dir, "config") };
      const key = generatePrivateKey();
      const me = privateKeyToAccount(key).address.toLowerCase();
      writeFileSync(path.join(dir, "me.key"), key);
      expect((await runCli(["login", "--key-file", path.join(dir, "me.key")], { env })).code).toBe(0);
      expect(
        (await runCli(["admin", "credit", me, "200000000"], { env: { ...env, OABP_ADMIN_TOKEN: E2E_ADMIN } })).code,
      ).toBe(0);
      const token = JSON.parse(readFileSync(path.join(dir, "config", "config.json"), "utf8")).profiles.default.sessions[
        new URL(proc.base).origin
      ].token as string;

      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", CLI_MAIN, "mcp"],
        cwd: ROOT,
        env,
        stderr: "pipe",
      });
      let log = "";
      transport.stderr!.on("data", (d) => (log += d));
      const client = new Client({ name: "oabp-bridge-test", version: "1.0.0" });
      const errors: unknown[] = [];
      client.onerror = (e) => errors.push(e);
      await client.connect(transport);
      expect(client.getServerVersion()).toMatchObject({ name: "oabp-server" });

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "amend_mission",
        "ask_question",
        "claim_mission",
        "create_mission",
        "get_agent",
        "get_mission",
        "get_receipt",
        "list_missions",
        "list_questions",
        "submit_solution",
        "vote",
      ]);

      // A write through the bridge carries the CLI login's bearer token.
      const deadline = new Date(Date.now() + 86_400_000).toISOString();
      const created = await client.callTool({
        name: "create_mission",
        arguments: {
          title: "Bridged",
          description: "Posted over stdio MCP",
          reward: { asset: "USDC", amount: "10000000" },
          verification: { type: "creator_judges", params: {} },
          deadline,
        },
      });
      expect(created.isError, JSON.stringify(created.content)).toBe(false);
      const mission = created.structuredContent as { id: string; creator: string };
      expect(mission.creator).toBe(me);
      const got = await client.callTool({ name: "get_mission", arguments: { mission_id: mission.id } });
      expect((got.structuredContent as { id: string }).id).toBe(mission.id);

      // The HTTP session ends under the bridge (as after an idle timeout or a restart): the next call
      // gets 404 -32001 upstream, and the bridge opens a new session and replays the call.
      const first = /session (mcp_\S+) opened/.exec(log)?.[1];
      expect(first).toBeTruthy();
      expect(
        (
          await fetch(`${proc.base}/mcp`, {
            method: "DELETE",
            headers: { "mcp-session-id": first!, authorization: `Bearer ${token}` },
          })
        ).status,
      ).toBe(200);
      const listed = await client.callTool({ name: "list_missions", arguments: {} });
      expect(listed.isError).toBe(false);
      expect((listed.structuredContent as { missions: { id: string }[] }).missions.map((m) => m.id)).toContain(
        mission.id,
      );
      const second = /session (mcp_\S+) opened \(renewal\)/.exec(log)?.[1];
      expect(second).toBeTruthy();
      expect(second).not.toBe(first);

      await client.close();
      expect(errors).toEqual([]);
      // Closing stdin made the bridge end its session: the id is now unknown to the server.
      expect(log).toContain(`session ${second} ended (200)`);
      const after = await post(
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { "mcp-session-id": second!, authorization: `Bearer ${token}`, "mcp-protocol-version": "2025-06-18" },
      );
      expect(after.status).toBe(404);
    },
  );
});
