import type { RouteConfig, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../src/features/mcp";
import { inputSchemaOf, outputSchemaOf } from "../../src/features/mcp/mcp.schema";
import { agentBalanceRoute, getAgentRoute } from "../../src/features/agents/agents.routes";
import { amendMissionRoute } from "../../src/features/amendments/amendments.routes";
import { claimRoute } from "../../src/features/claims/claims.routes";
import { fileRoute, getRoute as getDisputeRoute } from "../../src/features/disputes/disputes.routes";
import {
  createMissionRoute,
  getMissionRoute,
  listMissionsRoute,
  voidMissionRoute,
} from "../../src/features/missions/missions.routes";
import { listSkillsRoute } from "../../src/features/mesh/mesh.routes";
import { answerQuestionRoute, askQuestionRoute, listQuestionsRoute } from "../../src/features/qa/qa.routes";
import { getReceiptRoute } from "../../src/features/receipts/receipts.routes";
import {
  getSubmissionRoute,
  listSubmissionsRoute,
  submitRoute,
} from "../../src/features/submissions/submissions.routes";
import { awardRoute, voteRoute } from "../../src/features/verification/verification.routes";
import { nonceRoute, siweRoute } from "../../src/features/auth/auth.routes";
import { requestWithdrawalRoute } from "../../src/features/withdrawals/withdrawals.routes";
import { depositRoute } from "../../src/features/payments/payments.routes";

// Each MCP tool's schemas are the JSON Schemas of the REST route's zod schemas (docs/mcp.md
// "Schemas and size"): every argument that is a REST request field (query, body, path id) has
// exactly the JSON Schema that field has on the route, and the outputSchema is the route's 200
// (or 201) schema. A hand-written argument that drifts from the route fails here.

type Json = Record<string, unknown>;
type Route = RouteConfig;
type Content = { content?: Record<string, { schema: unknown }> };
type Request = { params?: z.ZodType; query?: z.ZodType; body?: Content };
/** The REST route of each tool; `params` renames a path id to the tool's argument, `nest` puts the body under one argument. */
const REST: Record<string, { route: Route; params?: Record<string, string>; nest?: string }> = {
  auth_nonce: { route: nonceRoute },
  sign_in: { route: siweRoute },
  list_missions: { route: listMissionsRoute },
  get_mission: { route: getMissionRoute, params: { id: "mission_id" } },
  submit_solution: { route: submitRoute, params: { id: "mission_id" } },
  get_agent: { route: getAgentRoute, params: { id: "agent_id" } },
  get_receipt: { route: getReceiptRoute, params: { id: "mission_id", submission_id: "submission_id" } },
  create_mission: { route: createMissionRoute },
  vote: { route: voteRoute, params: { id: "mission_id" } },
  claim_mission: { route: claimRoute, params: { id: "mission_id" } },
  amend_mission: { route: amendMissionRoute, params: { id: "mission_id" }, nest: "amendment" },
  list_questions: { route: listQuestionsRoute, params: { id: "mission_id" } },
  ask_question: { route: askQuestionRoute, params: { id: "mission_id" } },
  list_skills: { route: listSkillsRoute },
  list_submissions: { route: listSubmissionsRoute, params: { id: "mission_id" } },
  get_submission: { route: getSubmissionRoute, params: { id: "mission_id", sid: "submission_id" } },
  award_mission: { route: awardRoute, params: { id: "mission_id" } },
  void_mission: { route: voidMissionRoute, params: { id: "mission_id" } },
  get_balance: { route: agentBalanceRoute },
  withdraw: { route: requestWithdrawalRoute },
  deposit: { route: depositRoute },
  answer_question: { route: answerQuestionRoute, params: { id: "mission_id", qid: "question_id" } },
  file_dispute: { route: fileRoute },
  get_dispute: { route: getDisputeRoute, params: { id: "dispute_id" } },
};

/**
 * Arguments that differ from the REST field on purpose: create_mission's reward is in whole units
 * (`amount`, or `amount_base_units`) and its verification defaults to creator_judges
 * (docs/decisions.md "Amounts as people write them").
 */
const DIFFERS: Record<string, string[]> = { create_mission: ["reward", "verification"] };
/** Tools whose answer adds fields to the REST body (the sign-in message; the session now signed in). */
const EXTENDS_OUTPUT = new Set(["auth_nonce", "sign_in"]);

const props = (s: Json) => (s.properties ?? {}) as Record<string, Json>;
const json = (part: unknown) =>
  (part as Content | undefined)?.content?.["application/json"]?.schema as z.ZodType | undefined;

/** The tool arguments the REST route's request implies: name → JSON Schema. */
function restArguments(r: (typeof REST)[string]): Record<string, Json> {
  const req = (r.route.request ?? {}) as Request;
  const out: Record<string, Json> = {};
  if (req.params)
    for (const [p, s] of Object.entries(props(inputSchemaOf(req.params))))
      if (r.params?.[p]) out[r.params[p]] = { ...s, description: undefined, example: undefined };
  if (req.query) Object.assign(out, props(inputSchemaOf(req.query)));
  const body = json(req.body);
  if (body && r.nest) out[r.nest] = inputSchemaOf(body);
  else if (body) Object.assign(out, props(inputSchemaOf(body)));
  return out;
}

const strip = (s: Json | undefined) => JSON.parse(JSON.stringify({ ...s, description: undefined, example: undefined }));

describe("MCP tool schemas are generated from the REST route's zod schemas", () => {
  it("maps every tool to its REST route", () => {
    expect(Object.keys(REST).sort()).toEqual(TOOLS.map((t) => t.name).sort());
  });

  it.each(TOOLS.map((t) => [t.name, t] as const))("%s: inputSchema is its zod source's JSON Schema", (_n, t) => {
    expect(t.inputSchema).toEqual(inputSchemaOf(t.args));
    const tool = props(t.inputSchema);
    const rest = restArguments(REST[t.name]!);
    // A field the tool leaves out is REST-only with a reason (test/architecture/rest-surface.test.ts).
    const differs = DIFFERS[t.name] ?? [];
    for (const [name, schema] of Object.entries(rest).filter(([n]) => n in tool && !differs.includes(n))) {
      const isPathId = Object.values(REST[t.name]!.params ?? {}).includes(name);
      // A path id is re-declared as a tool argument (the REST path has no body field for it): same type and bounds.
      if (isPathId) expect(strip(tool[name]), `${t.name}.${name}`).toEqual(strip(schema));
      else expect(tool[name], `${t.name}.${name}`).toEqual(schema);
    }
    const required = new Set((t.inputSchema.required ?? []) as string[]);
    for (const name of Object.keys(rest)) {
      const restRequired = [REST[t.name]!.nest, ...Object.values(REST[t.name]!.params ?? {})].includes(name);
      if (restRequired) expect(required.has(name), `${t.name}.${name} required`).toBe(true);
    }
  });

  it.each(TOOLS.map((t) => [t.name, t] as const))("%s: outputSchema is the REST success schema's", (_n, t) => {
    const { responses } = REST[t.name]!.route;
    const answer = json(responses[200]) ?? json(responses[201]);
    // A route answering per format (GET /skills: the page, or the Mesh dialect's array) declares a
    // union; the tool answers its first form, this server's own (docs/neighbours.md "Mesh dialect").
    const options = (answer as { options?: z.ZodType[] } | undefined)?.options;
    const ok = options ? options[0] : answer;
    expect(ok, `${t.name}: the route has a 200/201 JSON schema`).toBeDefined();
    const restOut = outputSchemaOf(ok!);
    if (EXTENDS_OUTPUT.has(t.name)) expect(t.outputSchema.properties).toMatchObject(restOut.properties as Json);
    else expect(t.outputSchema).toEqual(restOut);
  });
});
