import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpSessions } from "../../src/db/schema/index";
import { serveTestApp, type ServedTestApp } from "../helpers/served";
import { credit, missionBody, signIn } from "../helpers/agents";
import { INITIALIZE, mcpMission, rpc } from "../helpers/mcp";

// The official MCP SDK client (1.32.2) against a listening server negotiates MCP 2025-11-25 (the
// SDK's newest) and runs a mission to paid over it: create, claim, submit, award, paid
// (docs/mcp.md "Revisions"). Older revisions the SDK speaks are answered as asked.

let t: ServedTestApp;
beforeAll(async () => {
  t = await serveTestApp();
});
afterAll(() => t?.close());

async function connect(token: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "oabp-2025-11-25", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}
type Connected = Awaited<ReturnType<typeof connect>>;

async function call(c: Connected, name: string, args: Record<string, unknown>) {
  const r = await c.client.callTool({ name, arguments: args });
  const text = (r.content as { text: string }[])[0]!.text;
  expect(r.isError, `${name}: ${text}`).toBe(false);
  return r.structuredContent as Record<string, any>;
}

describe("MCP 2025-11-25 with the official SDK client", () => {
  it("negotiates 2025-11-25 and runs a mission to paid", async () => {
    expect(LATEST_PROTOCOL_VERSION).toBe("2025-11-25");
    const creator = await signIn(t);
    const solver = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    const asCreator = await connect(creator.token);
    const asSolver = await connect(solver.token);
    expect(asCreator.transport.protocolVersion).toBe("2025-11-25");
    const row = (
      await t.deps.database.db.select().from(mcpSessions).where(eq(mcpSessions.id, asCreator.transport.sessionId!))
    )[0];
    expect(row).toMatchObject({ protocolVersion: "2025-11-25", state: "active" });
    // 2025-11-25 additions: Tasks capability, server icons, tool annotations and execution.
    expect(asCreator.client.getServerCapabilities()).toMatchObject({
      tools: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    expect(asCreator.client.getServerVersion()?.icons?.[0]).toMatchObject({ mimeType: "image/svg+xml" });
    const { tools } = await asCreator.client.listTools();
    const byName = new Map(tools.map((x) => [x.name, x]));
    expect(byName.get("get_mission")?.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.get("void_mission")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get("submit_solution")?.execution).toEqual({ taskSupport: "optional" });
    expect(byName.get("submit_solution")?.outputSchema).toBeDefined();

    const mission = await call(
      asCreator,
      "create_mission",
      mcpMission(
        missionBody(t, { title: "Paid over 2025-11-25", verification: { type: "creator_judges", params: {} } }),
      ),
    );
    expect(mission).toMatchObject({ status: "open", creator: creator.address });
    expect(await call(asSolver, "claim_mission", { mission_id: mission.id })).toMatchObject({ status: "active" });
    const sub = await call(asSolver, "submit_solution", { mission_id: mission.id, content: "the answer" });
    expect(sub).toMatchObject({ status: "pending", submitter: solver.address });
    const awarded = await call(asCreator, "award_mission", {
      mission_id: mission.id,
      winners: [{ submission_id: sub.id }],
    });
    expect(awarded).toMatchObject({ id: mission.id, status: "resolved" });
    const paid = await call(asSolver, "get_mission", { mission_id: mission.id });
    expect(paid).toMatchObject({ status: "resolved", payout_status: "confirmed" });
    const mine = await call(asSolver, "get_submission", { mission_id: mission.id, submission_id: sub.id });
    expect(mine.status).toBe("accepted");
    const balance = await call(asSolver, "get_balance", {});
    expect(BigInt(balance.aigen_balance)).toBeGreaterThan(0n);
    for (const c of [asCreator, asSolver]) {
      await c.transport.terminateSession();
      await c.client.close();
    }
  });

  it("answers an older revision as asked, and an unknown one with the newest", async () => {
    for (const [asked, answered] of [
      ["2025-06-18", "2025-06-18"],
      ["2024-11-05", "2024-11-05"],
      ["2099-01-01", "2025-11-25"],
    ]) {
      const init = INITIALIZE();
      const r = await rpc(t, { ...init, params: { ...init.params, protocolVersion: asked } });
      expect(r.status, r.text).toBe(200);
      expect(r.body.result.protocolVersion).toBe(answered);
      // Tasks are a 2025-11-25 capability: not declared to older sessions.
      expect(r.body.result.capabilities.tasks === undefined).toBe(answered !== "2025-11-25");
    }
  });
});
