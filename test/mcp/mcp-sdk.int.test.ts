import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpSessions } from "../../src/db/schema/index";
import { makeTestApp, type TestApp } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";
import { missionInVoting, mcpMission } from "../helpers/mcp";

// The official MCP SDK client (@modelcontextprotocol/sdk) against this server over real HTTP:
// connect (initialize + notifications/initialized + its GET stream probe), list the tools, call
// every tool — validating each structuredContent against the tool's outputSchema, as the SDK does —
// and close the session with DELETE. The creator finishes its mission over MCP alone: post, answer
// a question, read the submissions, award with shares, see the mission paid and the balances move
// (docs/mcp.md "A creator's loop"); the stdio leg is test/client/client-mcp-bridge.e2e.test.ts.
let t: TestApp;
let server: ServerType;
let base: string;
beforeAll(async () => {
  t = await makeTestApp();
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.close();
});

async function connect(token?: string) {
  const transport = new StreamableHTTPClientTransport(
    new URL(`${base}/mcp`),
    token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : undefined,
  );
  const client = new Client({ name: "oabp-interop-test", version: "1.0.0" });
  const errors: unknown[] = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return { client, transport, errors };
}

type Connected = Awaited<ReturnType<typeof connect>>;
const sessionRow = async (id: string) =>
  (await t.deps.database.db.select().from(mcpSessions).where(eq(mcpSessions.id, id)))[0];

async function close(c: Connected) {
  const id = c.transport.sessionId!;
  await c.transport.terminateSession(); // DELETE /mcp
  expect(c.transport.sessionId).toBeUndefined();
  await c.client.close();
  expect(await sessionRow(id)).toMatchObject({ state: "terminated" });
  expect(c.errors).toEqual([]);
}

const text = (r: Record<string, unknown>) => (r.content as { type: string; text: string }[])[0]!.text;

describe("@modelcontextprotocol/sdk client over HTTP", () => {
  it("connects, lists the tools, calls each tool, and closes with DELETE", async () => {
    // A peer_vote mission already in its voting phase (the clock jumps past its deadline first:
    // MCP sessions follow the injected clock, so they are opened after the jump).
    const { pv, pvSub } = await missionInVoting(t);

    const creator = await signIn(t);
    const solver = await signIn(t);
    const voter = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    await credit(t, voter.address, 1_000n);

    const asCreator = await connect(creator.token);
    const sessionId = asCreator.transport.sessionId!;
    expect(sessionId).toBeTruthy();
    expect(await sessionRow(sessionId)).toMatchObject({
      state: "active",
      clientName: "oabp-interop-test",
      agentId: creator.address,
    });
    expect(asCreator.client.getServerVersion()).toMatchObject({ name: "oabp-server" });
    expect(asCreator.client.getServerCapabilities()).toMatchObject({ tools: {} });

    const { tools } = await asCreator.client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual([
      "amend_mission",
      "answer_question",
      "ask_question",
      "auth_nonce",
      "award_mission",
      "claim_mission",
      "create_mission",
      "deposit",
      "file_dispute",
      "get_agent",
      "get_balance",
      "get_dispute",
      "get_mission",
      "get_receipt",
      "get_submission",
      "list_missions",
      "list_questions",
      "list_skills",
      "list_submissions",
      "sign_in",
      "submit_solution",
      "void_mission",
      "vote",
      "withdraw",
    ]);
    const called = new Set<string>();
    const call = async (c: Connected, name: string, args: Record<string, unknown>) => {
      const r = await c.client.callTool({ name, arguments: args });
      expect(r.isError, `${name}: ${text(r)}`).toBe(false);
      expect(JSON.parse(text(r))).toEqual(r.structuredContent);
      called.add(name);
      return r.structuredContent as Record<string, any>;
    };

    const mission = await call(
      asCreator,
      "create_mission",
      mcpMission(
        missionBody(t, {
          title: "Interop mission",
          tags: ["interop"],
          verification: { type: "creator_judges", params: { max_winners: 2 } },
        }),
      ),
    );
    expect(mission).toMatchObject({ title: "Interop mission", creator: creator.address, status: "open" });
    const listed = await call(asCreator, "list_missions", { tag: "interop" });
    expect(listed.missions.map((m: { id: string }) => m.id)).toEqual([mission.id]);
    expect((await call(asCreator, "get_mission", { mission_id: mission.id })).id).toBe(mission.id);
    const later = new Date(new Date(mission.deadline).getTime() + 86_400_000).toISOString();
    const amended = await call(asCreator, "amend_mission", {
      mission_id: mission.id,
      amendment: { kind: "extend_deadline", deadline: later },
    });
    expect(amended).toMatchObject({ kind: "extend_deadline", status: "applied" });

    const asSolver = await connect(solver.token);
    const claim = await call(asSolver, "claim_mission", { mission_id: mission.id });
    const question = await call(asSolver, "ask_question", { mission_id: mission.id, body: "Which format?" });
    expect((await call(asCreator, "list_questions", { mission_id: mission.id })).questions[0].id).toBe(question.id);
    expect(claim).toMatchObject({ mission_id: mission.id, agent_id: solver.address, status: "active" });
    const answered = await call(asCreator, "answer_question", {
      mission_id: mission.id,
      question_id: question.id,
      answer: "Markdown.",
      pinned: true,
    });
    expect(answered).toMatchObject({ id: question.id, answer: { body: "Markdown." } });
    const sub = await call(asSolver, "submit_solution", { mission_id: mission.id, content: "the interop answer" });
    expect(sub).toMatchObject({ status: "pending", submitter: solver.address });
    const other = await signIn(t);
    const sub2 = (
      await t.call("POST", `/missions/${mission.id}/submissions`, { token: other.token, body: { content: "another" } })
    ).body;

    // The creator reads its submissions and awards them with shares: all over MCP.
    const subs = await call(asCreator, "list_submissions", { mission_id: mission.id });
    expect(subs.submissions.map((x: { id: string }) => x.id)).toEqual([sub.id, sub2.id]);
    expect((await call(asCreator, "get_submission", { mission_id: mission.id, submission_id: sub.id })).status).toBe(
      "pending",
    );
    const before = await call(asCreator, "get_balance", {});
    expect(before.agent_id).toBe(creator.address);
    const awarded = await call(asCreator, "award_mission", {
      mission_id: mission.id,
      winners: [
        { submission_id: sub.id, share_bps: 7_000 },
        { submission_id: sub2.id, share_bps: 3_000 },
      ],
    });
    expect(awarded).toMatchObject({ id: mission.id, status: "resolved" });
    const paid = await call(asCreator, "get_mission", { mission_id: mission.id });
    expect(paid).toMatchObject({ status: "resolved", payout_status: "confirmed" });
    expect((await call(asSolver, "get_submission", { mission_id: mission.id, submission_id: sub.id })).status).toBe(
      "accepted",
    );
    // Paid: the solvers' balances hold their shares of the net reward (70 % and 30 %).
    const net = (BigInt(mission.reward.amount) * (10_000n - BigInt(t.deps.config.feeBps))) / 10_000n;
    const solverBalance = await call(asCreator, "get_balance", { agent_id: solver.address });
    expect(BigInt(solverBalance.balances.find((b: { asset: string }) => b.asset === "USDC").available)).toBe(
      (net * 7_000n) / 10_000n,
    );

    // A second mission voided by its creator; a dispute filed and read back.
    const spare = await call(asCreator, "create_mission", mcpMission(missionBody(t, { title: "Spare mission" })));
    expect(await call(asCreator, "void_mission", { mission_id: spare.id })).toMatchObject({ status: "voided" });
    const dispute = await call(asSolver, "file_dispute", {
      dispute_type: "bad_spec",
      mission_id: pv.mission.id,
      evidence: { description: "The rule does not say what wins." },
    });
    expect(dispute).toMatchObject({ mission_id: pv.mission.id, dispute_type: "bad_spec" });
    expect(await call(asSolver, "get_dispute", { dispute_id: dispute.dispute_id })).toEqual(dispute);
    const receipt = await call(asSolver, "get_receipt", { mission_id: mission.id, submission_id: sub.id });
    expect(receipt).toMatchObject({ type: "oabp.mission_receipt", agent_id: solver.address });
    expect((await call(asSolver, "get_agent", { agent_id: solver.address })).missions_completed).toBe(1);

    // withdraw needs the base rail (test/withdrawals/withdrawals.e2e.test.ts pays one over MCP): here its refusal.
    const withdrawn = await asSolver.client.callTool({ name: "withdraw", arguments: { amount: "1" } });
    expect(withdrawn.isError).toBe(true);
    expect(text(withdrawn)).toContain("base_rail_off");
    called.add("withdraw");
    // deposit settles an x402 payment through the relayer (test/payments/x402-deposit.e2e.test.ts): none here.
    const deposited = await asSolver.client.callTool({ name: "deposit", arguments: { amount: "10" } });
    expect(deposited.isError).toBe(true);
    expect(text(deposited)).toContain("x402_not_enabled");
    called.add("deposit");

    const asVoter = await connect(voter.token);
    const vote = await call(asVoter, "vote", { mission_id: pv.mission.id, submission_id: pvSub.id, amount: "100" });
    expect(vote).toMatchObject({ voter: voter.address, amount: "100" });

    // Agent Mesh discovery (docs/protocols/agent-mesh-skill-protocol.txt "Discovery") over MCP.
    const skill = await t.call("POST", "/skills", {
      token: solver.token,
      body: {
        name: "interop_skill",
        description: "Answers interop questions",
        endpoint: "https://skills.example.com/interop",
        tags: ["interop"],
      },
    });
    expect(skill.status).toBe(200);
    const skills = await call(asSolver, "list_skills", { tag: "interop" });
    expect(skills.skills.map((x: { id: string }) => x.id)).toEqual([skill.body.id]);

    // Sign-in over MCP on a session of its own (the full first-call journey: mcp-first-call.int.test.ts).
    const fresh = await connect();
    const account = privateKeyToAccount(generatePrivateKey());
    const nonce = await call(fresh, "auth_nonce", { address: account.address });
    const signed = await call(fresh, "sign_in", {
      message: nonce.message,
      signature: await account.signMessage({ message: nonce.message }),
    });
    expect(signed.agent_id).toBe(account.address.toLowerCase());
    await close(fresh);

    expect([...called].sort()).toEqual(tools.map((x) => x.name).sort());

    // Anonymous: reads work, submit_solution is the §1.4 refusal as a tool error.
    const anonymous = await connect();
    const refused = await anonymous.client.callTool({
      name: "submit_solution",
      arguments: { mission_id: mission.id, content: "x" },
    });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(text(refused))).toEqual({ error: "ANONYMOUS_SUBMISSION_REJECTED" });
    const anonClaim = await anonymous.client.callTool({ name: "claim_mission", arguments: { mission_id: mission.id } });
    expect(anonClaim.isError).toBe(true);
    expect(JSON.parse(text(anonClaim))).toEqual({ error: "ANONYMOUS_SUBMISSION_REJECTED" });

    for (const c of [asCreator, asSolver, asVoter, anonymous]) await close(c);
  });
});
