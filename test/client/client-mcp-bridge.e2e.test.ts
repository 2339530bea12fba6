import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "../../src/features/mcp";
import { runCli, startLocalServer, stopServer } from "../helpers/cli";
import { E2E_ADMIN, freshPostgresDatabase, ROOT, type ServerProcess } from "../helpers/process";

// `oabp mcp` (the compiled CLI, bin/oabp.mjs) is a stdio MCP server bridged to a real server's
// /mcp. The official SDK client connects over stdio (StdioClientTransport), lists and calls tools
// with the credentials of `oabp login` — the creator posts, reads the submissions, awards and sees
// the mission paid over stdio MCP alone (docs/mcp.md "A creator's loop") —, survives the HTTP
// session being ended under it (the bridge opens a new one), and closes — the bridge then ends its
// HTTP session with DELETE.

let proc: ServerProcess;
let dir: string;
let dropDb: (() => Promise<void>) | undefined;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oabp-mcp-bridge-"));
  const serverEnv: Record<string, string> = { OABP_DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" };
  if (process.env.DATABASE_URL) {
    const fresh = await freshPostgresDatabase("oabp_bridge");
    serverEnv.DATABASE_URL = fresh.url;
    dropDb = fresh.drop;
  }
  proc = await startLocalServer(serverEnv);
}, 180_000);
afterAll(async () => {
  await stopServer(proc);
  await dropDb?.();
});

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
        (await runCli(["admin", "credit", me, "200"], { env: { ...env, OABP_ADMIN_TOKEN: E2E_ADMIN } })).code,
      ).toBe(0);
      const token = JSON.parse(readFileSync(path.join(dir, "config", "config.json"), "utf8")).profiles.default.sessions[
        new URL(proc.base).origin
      ].token as string;

      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [path.join(ROOT, "bin/oabp.mjs"), "mcp"],
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
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());

      // A write through the bridge carries the CLI login's bearer token.
      const deadline = new Date(Date.now() + 86_400_000).toISOString();
      const created = await client.callTool({
        name: "create_mission",
        arguments: {
          title: "Bridged",
          description: "Posted over stdio MCP",
          reward: { asset: "USDC", amount: "10" },
          verification: { type: "creator_judges", params: {} },
          deadline,
        },
      });
      expect(created.isError, JSON.stringify(created.content)).toBe(false);
      const mission = created.structuredContent as { id: string; creator: string };
      expect(mission.creator).toBe(me);
      const got = await client.callTool({ name: "get_mission", arguments: { mission_id: mission.id } });
      expect((got.structuredContent as { id: string }).id).toBe(mission.id);

      // A solver submits (with the CLI); the creator reads the submissions and awards over stdio MCP.
      const solverKey = generatePrivateKey();
      const solver = privateKeyToAccount(solverKey).address.toLowerCase();
      writeFileSync(path.join(dir, "solver.key"), solverKey);
      const solverEnv = { ...env, OABP_PROFILE: "solver" };
      expect((await runCli(["login", "--key-file", path.join(dir, "solver.key")], { env: solverEnv })).code).toBe(0);
      const submitted = await runCli(["submit", mission.id, "-", "--json"], {
        env: solverEnv,
        input: "bridged answer",
      });
      expect(submitted.code, submitted.stderr).toBe(0);
      const tool = async (name: string, args: Record<string, unknown>) => {
        const r = await client.callTool({ name, arguments: args });
        expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBe(false);
        return r.structuredContent as Record<string, any>;
      };
      const subs = await tool("list_submissions", { mission_id: mission.id });
      expect(subs.submissions.map((x: { id: string; submitter: string }) => [x.id, x.submitter])).toEqual([
        [submitted.json.id, solver],
      ]);
      expect(
        await tool("award_mission", { mission_id: mission.id, winners: [{ submission_id: submitted.json.id }] }),
      ).toMatchObject({ status: "resolved" });
      expect(await tool("get_mission", { mission_id: mission.id })).toMatchObject({
        status: "resolved",
        payout_status: "confirmed",
      });
      const paid = await tool("get_balance", { agent_id: solver });
      // 10 USDC less the default 0.5 % fee (OABP_FEE_BPS=50).
      expect(paid.balances.find((b: { asset: string }) => b.asset === "USDC").available).toBe("9950000");
      const receipt = await tool("get_receipt", { mission_id: mission.id, submission_id: submitted.json.id });
      expect(receipt).toMatchObject({ agent_id: solver });

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
