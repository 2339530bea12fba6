import { describe, expect, it } from "vitest";
import { missionBody, openMission, signIn } from "../helpers/agents";
import { callTool, mcpAgent, missionInVoting, openSession, request, rpc, mcpMission } from "../helpers/mcp";
import { useTestApp } from "../helpers/suite-app";

// The MCP tools are the REST verbs over another transport: same validation, same service calls,
// same JSON (structuredContent, and the same bytes as text), same identity rules.
const t = useTestApp();

describe("tools/list", () => {
  it("lists the tools with input and output JSON Schemas, and stays small", async () => {
    const id = await openSession(t);
    const r = await rpc(t, request("tools/list"), { session: id });
    const tools = r.body.result.tools as { name: string; description: string; inputSchema: any; outputSchema: any }[];
    expect(tools.map((x) => x.name)).toEqual([
      "auth_nonce",
      "sign_in",
      "list_missions",
      "get_mission",
      "submit_solution",
      "get_agent",
      "get_receipt",
      "create_mission",
      "vote",
      "claim_mission",
      "amend_mission",
      "list_questions",
      "ask_question",
      "list_skills",
      "list_submissions",
      "get_submission",
      "award_mission",
      "void_mission",
      "get_balance",
      "withdraw",
      "answer_question",
      "file_dispute",
      "get_dispute",
      "deposit",
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema.type).toBe("object");
      expect(tool.description.length).toBeLessThanOrEqual(160);
    }
    // The reference server's 22 tools weigh 41 KB (≈ 1.9 KB each); ours carry schemas generated
    // from the REST zod schemas and every annotation stated, ≈ 1.25 KB each (docs/mcp.md "Schemas
    // and size"), so a client pasting tools/list into a model's context pays ≈ 300 tokens a tool.
    // The per-tool average is the budget: a new tool may add its own share, no more.
    const bytes = Buffer.byteLength(JSON.stringify(r.body.result));
    expect(bytes / tools.length).toBeLessThan(1_400);
  });
});

describe("tools/call", () => {
  it("list_missions and get_mission return exactly the REST JSON", async () => {
    const { mission } = await openMission(t, { tags: ["mcp"] });
    const id = await openSession(t);
    const list = await callTool(t, id, "list_missions", { tag: "mcp", limit: 5 });
    const rest = await t.call("GET", "/missions?tag=mcp&limit=5");
    expect(list.isError).toBe(false);
    expect(list.content[0]!.text).toBe(rest.text);
    expect(list.structuredContent).toEqual(rest.body);
    expect(list.structuredContent.missions.map((m: { id: string }) => m.id)).toEqual([mission.id]);
    const one = await callTool(t, id, "get_mission", { mission_id: mission.id });
    const restOne = await t.call("GET", `/missions/${mission.id}`);
    expect(one.content[0]!.text).toBe(restOne.text);
    expect(one.structuredContent).toEqual(restOne.body);
  });

  // Agent Mesh "Discovery" (docs/protocols/agent-mesh-skill-protocol.txt): agents discover skills with
  // GET /skills; list_skills is that route over MCP, same filters, same bytes, no identity needed.
  it("list_skills returns exactly the REST JSON of GET /skills, with its filters and its errors", async () => {
    const provider = await signIn(t);
    const body = (name: string, tags: string[]) => ({
      name,
      description: `the ${name} skill`,
      endpoint: "https://skills.example.com/" + name,
      tags,
    });
    for (const [name, tags] of [
      ["mcp_lookup", ["mcpskill"]],
      ["mcp_other", ["elsewhere"]],
    ] as const)
      expect((await t.call("POST", "/skills", { token: provider.token, body: body(name, [...tags]) })).status).toBe(
        200,
      );
    const id = await openSession(t);
    for (const [args, query] of [
      [{ tag: "mcpskill" }, "tag=mcpskill"],
      [{ agent: provider.address, limit: 1 }, `agent=${provider.address}&limit=1`],
      [{ name: "mcp_other" }, "name=mcp_other"],
    ] as const) {
      const r = await callTool(t, id, "list_skills", args);
      const rest = await t.call("GET", `/skills?${query}`);
      expect(r.isError).toBe(false);
      expect(r.content[0]!.text).toBe(rest.text);
      expect(r.structuredContent).toEqual(rest.body);
    }
    const names = (await callTool(t, id, "list_skills", { agent: provider.address })).structuredContent.skills.map(
      (s: { name: string }) => s.name,
    );
    expect(names).toEqual(["mcp_lookup", "mcp_other"]);
    const bad = await callTool(t, id, "list_skills", { cursor: "not-a-cursor" });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(bad.content[0]!.text)).toMatchObject({ error: "INVALID_PARAMETER" });
  });

  it("anonymous submit_solution is a tool error carrying ANONYMOUS_SUBMISSION_REJECTED (checked before the arguments)", async () => {
    const { mission } = await openMission(t);
    const id = await openSession(t);
    for (const args of [{ mission_id: mission.id, content: "answer" }, { mission_id: mission.id }, {}]) {
      const r = await callTool(t, id, "submit_solution", args);
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      expect(JSON.parse(r.content[0]!.text)).toEqual({ error: "ANONYMOUS_SUBMISSION_REJECTED" });
      expect(r.content[1]!.text).toMatch(/identity/);
    }
    // the same for vote, and create_mission is UNAUTHORIZED, as on REST
    expect(
      JSON.parse(
        (await callTool(t, id, "vote", { mission_id: mission.id, submission_id: "sub_x", amount: "1" })).content[0]!
          .text,
      ),
    ).toEqual({ error: "ANONYMOUS_SUBMISSION_REJECTED" });
    expect(
      JSON.parse((await callTool(t, id, "create_mission", mcpMission(missionBody(t)))).content[0]!.text).error,
    ).toBe("UNAUTHORIZED");
  });

  it("create_mission and submit_solution act as the bearer of the HTTP request, like REST", async () => {
    const creator = await mcpAgent(t, 1_000_000_000n);
    const before = await t.call("GET", "/missions?limit=1"); // fills this instance's list cache
    const created = await creator.callTool("create_mission", {
      ...mcpMission(missionBody(t, { title: "Made over MCP" })),
      idempotency_key: "mcp-create-1",
    });
    expect(created.isError).toBe(false);
    expect(created.structuredContent).toMatchObject({
      title: "Made over MCP",
      creator: creator.address,
      status: "open",
    });
    // the write dropped the cached list at once (read-your-writes)
    const after = await t.call("GET", "/missions?limit=1");
    expect(after.body.missions[0].id).toBe(created.structuredContent.id);
    expect(after.text).not.toBe(before.text);
    // same Idempotency-Key and arguments → the same answer, byte for byte
    const again = await creator.callTool("create_mission", {
      ...mcpMission(missionBody(t, { title: "Made over MCP" })),
      idempotency_key: "mcp-create-1",
    });
    expect(again.content[0]!.text).toBe(created.content[0]!.text);

    const solver = await signIn(t);
    const ss = await openSession(t, solver.token);
    const sub = await callTool(
      t,
      ss,
      "submit_solution",
      { mission_id: created.structuredContent.id, content: "my answer" },
      solver.token,
    );
    expect(sub.isError).toBe(false);
    expect(sub.structuredContent).toMatchObject({
      submitter: solver.address,
      status: "pending",
      reason: "awaiting_judgement",
    });
    const rest = await t.call(
      "GET",
      `/missions/${created.structuredContent.id}/submissions/${sub.structuredContent.id}`,
      { token: solver.token },
    );
    expect(sub.structuredContent).toEqual(rest.body);
  });

  it("business errors are tool errors with the REST error body; bad arguments are INVALID_PARAMETER", async () => {
    const id = await openSession(t);
    const missing = await callTool(t, id, "get_mission", { mission_id: "mis_01JZ0000000000000000000000" });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(missing.content[0]!.text)).toMatchObject({
      error: "NOT_FOUND",
      message: expect.any(String),
      request_id: expect.stringMatching(/^req_/),
    });
    const bad = await callTool(t, id, "list_missions", { limit: 1000 });
    expect(JSON.parse(bad.content[0]!.text)).toMatchObject({
      error: "INVALID_PARAMETER",
      details: { issues: [{ path: "limit" }] },
    });
    const badAgent = await callTool(t, id, "get_agent", { agent_id: "not-an-address" });
    expect(JSON.parse(badAgent.content[0]!.text).error).toBe("INVALID_PARAMETER");
    const noArgs = await callTool(t, id, "get_receipt", {});
    expect(JSON.parse(noArgs.content[0]!.text).error).toBe("INVALID_PARAMETER");
  });

  it("an unknown tool is a JSON-RPC error (-32602)", async () => {
    const id = await openSession(t);
    for (const name of ["release_everything", 42]) {
      const r = await rpc(t, request("tools/call", { name, arguments: {} }), { session: id });
      expect(r.status).toBe(200);
      expect(r.body.error).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool") });
    }
  });

  it("get_agent, get_receipt and vote return the REST JSON", async () => {
    // a resolved creator_judges mission → a receipt
    const { creator, mission } = await openMission(t);
    const solver = await signIn(t);
    const sub = (
      await t.call("POST", `/missions/${mission.id}/submissions`, {
        token: solver.token,
        body: { content: "winning answer" },
      })
    ).body;
    expect(
      (
        await t.call("POST", `/missions/${mission.id}/award`, {
          token: creator.token,
          body: { winners: [{ submission_id: sub.id }] },
        })
      ).status,
    ).toBe(200);
    const id = await openSession(t);
    const receipt = await callTool(t, id, "get_receipt", { mission_id: mission.id, submission_id: sub.id });
    expect(receipt.structuredContent).toEqual((await t.call("GET", `/missions/${mission.id}/receipts/${sub.id}`)).body);
    const agent = await callTool(t, id, "get_agent", { agent_id: solver.address.toUpperCase().replace("0X", "0x") });
    expect(agent.structuredContent).toEqual((await t.call("GET", `/agents/${solver.address}`)).body);

    // a peer_vote mission in its voting phase → a vote
    const { pv, pvSub } = await missionInVoting(t);
    const voter = await mcpAgent(t, 500n);
    const vote = await voter.callTool("vote", { mission_id: pv.mission.id, submission_id: pvSub.id, amount: "300" });
    expect(vote.isError, vote.content[0]!.text).toBe(false);
    expect(vote.structuredContent).toMatchObject({
      mission_id: pv.mission.id,
      submission_id: pvSub.id,
      voter: voter.address,
      amount: "300",
    });
    expect((await t.call("GET", `/missions/${pv.mission.id}/votes`)).body.votes).toEqual([vote.structuredContent]);
  });
});
