import {
  canonicalizeAgentCard,
  ListTasksRequest,
  taskStateToJSON,
  verifyAgentCardSignature,
  type AgentCard,
  type Task,
} from "@a2a-js/sdk";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { canonicalJson } from "../../src/lib/canonical-json";
import { a2aCardFields } from "../../src/features/agent-card/agent-card";
import { PUBLIC_URL } from "../helpers/app";
import { serveTestApp, type ServedTestApp } from "../helpers/served";
import { a2aClient, a2aFetch, a2aMessage, resolveA2aCard } from "../helpers/a2a-client";
import { openMission, signIn } from "../helpers/agents";
import { sweepDueMissions } from "../../src/jobs/sweeper";

// The official A2A client (@a2a-js/sdk 1.3.0) against this server over real HTTP
// (docs/a2a.md): it resolves the agent card, verifies its JWS with the key the card's `jku` names,
// picks the JSON-RPC interface from `supportedInterfaces`, submits a deliverable to a
// first_valid_match mission as a message, and follows the task to COMPLETED with the payout as an
// artifact; a wrong deliverable ends REJECTED. The card names the configured public origin
// (http://oabp.test); the client's fetch maps that origin to the listening port.
let t: ServedTestApp;
beforeAll(async () => {
  t = await serveTestApp();
});
afterAll(() => t?.close());

const verifier = verifyAgentCardSignature(async (kid, jku) => {
  expect(jku).toBe(`${PUBLIC_URL}/.well-known/jwks.json`);
  const set = (await (await a2aFetch(t)(jku!)).json()) as { keys: { kid: string }[] };
  const key = set.keys.find((k) => k.kid === kid);
  if (!key) throw new Error(`no key ${kid}`);
  return key as never;
});

const stateOf = (task: Task) => taskStateToJSON(task.status!.state);

describe("@a2a-js/sdk 1.3.0 client against the server", () => {
  it("resolves the card and verifies its signature; a tampered card does not verify", async () => {
    const card = await resolveA2aCard(t);
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ url: `${PUBLIC_URL}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }),
    ]);
    expect(card.signatures).toHaveLength(1);
    // The SDK verifies the card as served (JSON). Its resolver hands back the card already parsed
    // into its proto objects, and its canonicaliser parses again, which loses the security
    // schemes; so the served JSON is what is checked (docs/a2a.md "Signature").
    const served = (await (await a2aFetch(t)(`${t.base}/.well-known/agent-card.json`)).json()) as AgentCard;
    await verifier(served);
    const header = JSON.parse(Buffer.from(served.signatures[0]!.protected, "base64url").toString());
    expect(header).toEqual({
      alg: "EdDSA",
      typ: "JOSE",
      kid: t.deps.receiptKeys.active.keyId,
      jku: `${PUBLIC_URL}/.well-known/jwks.json`,
    });
    // The SDK's canonical text (A2A §8.4.1) is the server's JCS of the card's A2A fields.
    expect(canonicalizeAgentCard(served)).toBe(canonicalJson(a2aCardFields(t.deps.config)));
    // The SDK logs each failed entry with console.debug; the failures are the point here.
    const debug = vi.spyOn(console, "debug").mockImplementation(() => undefined);
    await expect(verifier({ ...served, description: "Another agent" })).rejects.toThrow();
    const otherSkills = { ...served, skills: served.skills.slice(1) };
    await expect(verifier(otherSkills)).rejects.toThrow();
    expect(debug).toHaveBeenCalledTimes(2);
    debug.mockRestore();
  });

  it("submits a deliverable as a message and follows the task to COMPLETED with the payout; a wrong one is REJECTED", async () => {
    const { mission } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: "the answer is 42" } },
    });
    const solver = await signIn(t);
    const loser = await signIn(t);

    // A wrong deliverable: rejected by the mission's own rule → REJECTED.
    const asLoser = await a2aClient(t, loser.token);
    const wrong = (await asLoser.sendMessage(a2aMessage({ mission_id: mission.id, content: "maybe 41?" }))) as Task;
    expect(wrong.id).toMatch(/^sub_/);
    expect(wrong.contextId).toBe(mission.id);
    expect(stateOf(wrong)).toBe("TASK_STATE_REJECTED");
    expect(stateOf(await asLoser.getTask({ tenant: "", id: wrong.id, historyLength: undefined }))).toBe(
      "TASK_STATE_REJECTED",
    );

    // Finding the mission, then the right deliverable → accepted, paid on the ledger → COMPLETED.
    const asSolver = await a2aClient(t, solver.token);
    const found = (await asSolver.sendMessage(a2aMessage({ status: "open" }))) as {
      parts: { content?: { value: any } }[];
    };
    expect(found.parts[0]!.content!.value.missions.map((m: { id: string }) => m.id)).toContain(mission.id);
    const sent = (await asSolver.sendMessage(
      a2aMessage({ mission_id: mission.id, content: "The answer is 42." }),
    )) as Task;
    expect(sent.contextId).toBe(mission.id);
    const done = await asSolver.getTask({ tenant: "", id: sent.id, historyLength: undefined });
    expect(stateOf(done)).toBe("TASK_STATE_COMPLETED");
    const payout = done.artifacts[0]!;
    expect(payout.name).toBe("payout");
    const data = payout.parts.find((p) => p.content?.$case === "data")!.content!.value as Record<string, any>;
    expect(data).toMatchObject({ asset: "USDC", receipt: { submission_id: sent.id, agent_id: solver.address } });
    expect(BigInt(data.amount)).toBeGreaterThan(0n);
    const balance = (await t.call("GET", `/agents/${solver.address}/balance`)).body;
    expect(JSON.stringify(balance)).toContain(data.amount);
  });

  it("a creator_judges mission: SUBMITTED while open, WORKING while judged, COMPLETED once awarded and paid", async () => {
    const { creator, mission } = await openMission(t, { verification: { type: "creator_judges", params: {} } });
    const solver = await signIn(t);
    let client = await a2aClient(t, solver.token);
    const sent = (await client.sendMessage(a2aMessage({ mission_id: mission.id, content: "my report" }))) as Task;
    expect(stateOf(sent)).toBe("TASK_STATE_SUBMITTED");
    const get = () => client.getTask({ tenant: "", id: sent.id, historyLength: undefined });
    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps);
    // A week later the solver's token has expired: it signs in again.
    client = await a2aClient(t, (await signIn(t, solver.account)).token);
    const judging = await get();
    expect(stateOf(judging)).toBe("TASK_STATE_WORKING");
    expect(judging.artifacts).toEqual([]);
    const award = await t.call("POST", `/missions/${mission.id}/award`, {
      token: (await signIn(t, creator.account)).token,
      body: { winners: [{ submission_id: sent.id }] },
    });
    expect(award.status, award.text).toBe(200);
    const done = await get();
    expect(stateOf(done)).toBe("TASK_STATE_COMPLETED");
    expect(done.artifacts.map((a) => a.name)).toEqual(["payout"]);
    // The SDK lists the caller's tasks, the completed one among them.
    const listed = await client.listTasks(ListTasksRequest.fromJSON({ contextId: mission.id }));
    expect(listed.tasks.map((x) => x.id)).toEqual([sent.id]);
  });
});
