import { z } from "@hono/zod-openapi";
import { validationError } from "../../http/errors";
import { type AppError, errorBody } from "../../lib/errors";
import { Agent, getAgentOp } from "../agents";
import { getMissionOp, ListMissionsQuery, listMissionsOp, Mission, MissionList, missionDocById } from "../missions";
import { getReceiptOp, MissionReceipt } from "../receipts";
import { CreateSubmissionRequest, Submission, submitOp } from "../submissions";
import { Vote, VoteRequest, voteOp } from "../verification";
import { Claim, claimOp } from "../claims";
import { AmendMissionRequest, Amendment, amendMissionOp } from "../amendments";
import { listSkillsOp, SkillList, SkillQuery } from "../mesh";
import { AskQuestionRequest, askQuestionOp, ListQuestionsQuery, listQuestionsOp, Question, QuestionList } from "../qa";
import { requireAgent } from "../../http/identity";
import { unknownFieldError, unknownFields } from "../../lib/unknown-fields";
import { CREATOR_TOOLS } from "./mcp.tools.creator";
import { PAYMENT_TOOLS } from "./mcp.tools.payments";
import { createMissionTool } from "./mcp.create-mission";
import { SIGN_IN_TOOLS } from "./mcp.sign-in";
import { TASK_TOOLS } from "./mcp.tasks";
import { IdempotencyKey, MissionId, opTool, READ, SubmissionRef, type Tool, type ToolContext, WRITE } from "./mcp.tool";

// The MCP tools (AIP-1 §7: list_missions, get_mission, submit_solution, and the whole solver and
// creator loop over the REST verbs). Each tool is derived from its REST route's operation
// (src/http/operation.ts, mcp.tool.ts opTool): it names itself, its arguments and its annotations;
// the call to the verb is the operation's. Its schemas are generated from the REST zod schemas
// (mcp.schema.ts); tools/list's size is bounded by a test (docs/mcp.md "Size").

export { type ToolContext };

/** A path's mission id as the tools name it. */
const ON_MISSION = { params: { id: "mission_id" } };

const SOLVER_TOOLS: Tool[] = [
  opTool(listMissionsOp, {
    name: "list_missions",
    description:
      "Public missions, newest first, with the filters of GET /missions (status, tag, q, mission_type, creator, reward, deadline). Follow next_cursor for more.",
    args: ListMissionsQuery,
    out: MissionList,
    annotations: READ,
    // REST's bytes and ETag, as GET /missions sends them (mcp.tool.ts RestDoc).
    text: (doc) => doc,
  }),
  opTool(getMissionOp, {
    name: "get_mission",
    description: "One mission: reward, deadline, verification rule, status, phase, payout_status, resolution.",
    args: z.object({ mission_id: MissionId }),
    out: Mission,
    annotations: READ,
    ...ON_MISSION,
    // The cached document when this instance has it, as REST's GET /missions/{id} answers first.
    cached: (c, { id }) => missionDocById(c, id),
  }),
  opTool(submitOp, {
    name: "submit_solution",
    description:
      "Submit work to an open mission: inline content, or content_uri + content_hash (sha256:<hex>). Needs a signed-in agent.",
    args: CreateSubmissionRequest.extend({ mission_id: MissionId, idempotency_key: IdempotencyKey }),
    out: Submission,
    annotations: WRITE,
    ...ON_MISSION,
  }),
  opTool(getAgentOp, {
    name: "get_agent",
    description: "An agent's profile: rating (decay applied), balances, mission counts, creator record.",
    args: z.object({ agent_id: z.string().min(1).max(64).describe("0x address") }),
    out: Agent,
    annotations: READ,
    params: { id: "agent_id" },
  }),
  opTool(getReceiptOp, {
    name: "get_receipt",
    description: "The signed AIP-1 §6.1 receipt of a paid submission of a resolved mission (verify it offline).",
    args: SubmissionRef,
    out: MissionReceipt,
    annotations: READ,
    params: { id: "mission_id", submission_id: "submission_id" },
  }),
  createMissionTool,
  opTool(voteOp, {
    name: "vote",
    description:
      "Stake vote_token on a submission: a peer_vote mission between deadline and voting_deadline, or an appeal of a disputed award. Signed-in agents.",
    args: VoteRequest.extend({ mission_id: MissionId, idempotency_key: IdempotencyKey }),
    out: Vote,
    annotations: WRITE,
    ...ON_MISSION,
  }),
  opTool(claimOp, {
    name: "claim_mission",
    description:
      "Claim an open mission: a visible, expiring intent to work (call again to renew), maybe exclusive for a while. Never changes who is paid. Signed-in agents.",
    args: z.object({ mission_id: MissionId }),
    out: Claim,
    annotations: WRITE,
    ...ON_MISSION,
  }),
  opTool(amendMissionOp, {
    name: "amend_mission",
    description: "Amend a mission: extend_deadline, edit (creator; edit before any submission), top_up (anyone).",
    args: z.object({ mission_id: MissionId, amendment: AmendMissionRequest, idempotency_key: IdempotencyKey }),
    out: Amendment,
    annotations: WRITE,
    ...ON_MISSION,
    nest: "amendment",
  }),
  opTool(listQuestionsOp, {
    name: "list_questions",
    description: "A mission's public Q&A: questions, the creator's answers, pinned clarifications.",
    args: ListQuestionsQuery.pick({ cursor: true }).extend({ mission_id: MissionId }),
    out: QuestionList,
    annotations: READ,
    ...ON_MISSION,
  }),
  opTool(askQuestionOp, {
    name: "ask_question",
    description: "Ask an open mission's creator a public question. Signed-in agents.",
    args: AskQuestionRequest.extend({ mission_id: MissionId }),
    out: Question,
    annotations: WRITE,
    ...ON_MISSION,
  }),
  opTool(listSkillsOp, {
    name: "list_skills",
    description:
      "Agent Mesh skill discovery: skills oldest first, with the filters of GET /skills (tag, name, agent). Follow next_cursor for more.",
    args: SkillQuery.omit({ format: true }),
    out: SkillList,
    annotations: READ,
  }),
];

export const TOOLS: Tool[] = [...SIGN_IN_TOOLS, ...SOLVER_TOOLS, ...CREATOR_TOOLS, ...PAYMENT_TOOLS];

const byName = new Map(TOOLS.map((t) => [t.name, t]));
export const hasTool = (name: string) => byName.has(name);
/** A tool that changes state: it takes a write token, as the REST write does (docs/abuse-edge.md). */
export const isWriteTool = (name: string) => byName.get(name)?.annotations.readOnlyHint === false;

let toolsListed: object[] | undefined;
/** The tools/list result, built at the first call (the schemas' generation is start time otherwise). */
export const toolsList = () =>
  (toolsListed ??= TOOLS.map(({ name, description, inputSchema, outputSchema, annotations }) => ({
    name,
    description,
    inputSchema,
    outputSchema,
    annotations,
    // 2025-11-25 Tasks: the long waits may run as a task (docs/mcp.md "Tasks").
    ...(TASK_TOOLS.has(name) ? { execution: { taskSupport: "optional" } } : {}),
  })));
let toolsListJson: string | undefined;
/** The tools/list result, serialised once. */
export const toolsListJSON = () => (toolsListJson ??= JSON.stringify({ tools: toolsList() }));

/** A tool's answer: the REST JSON text, or the REST error body when `isError`. */
export interface ToolOutcome {
  isError: boolean;
  json: string;
  /** Human explanation of an error whose body carries none (the fixed §1.4 body). */
  note?: string;
  /** An error result that carries its body as structuredContent too (x402's payment requirement). */
  structured?: boolean;
  /** The result's `_meta` (x402's settlement response). */
  meta?: Record<string, unknown>;
  /**
   * When the tool returned REST's bytes: the tool's name and REST's ETag, which name the encoded
   * result (an ETag alone names bytes per URL only: a one-mission list page and that mission share one).
   */
  key?: string | undefined;
}

const textOf = (b: string | Uint8Array) =>
  typeof b === "string" ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8");

/**
 * REST's bytes as an outcome whose text is decoded only when read: under its key the encoded
 * result is usually kept already (mcp.jsonrpc.ts toolResultBytes), and decoding a 100 KB list per
 * call cost about as much as the rest of the call (bench/README.md "Anonymous reads pay for what
 * they use").
 */
function restOutcome(body: string | Uint8Array, key: string | undefined): ToolOutcome {
  let text: string | undefined;
  return {
    isError: false,
    key,
    get json() {
      return (text ??= textOf(body));
    },
  };
}

/**
 * Runs one tool. Business failures are tool results with `isError: true` whose text is the very
 * error body REST would send (so `ANONYMOUS_SUBMISSION_REJECTED` is the exact §1.4 body); only an
 * unknown tool name is a JSON-RPC error (the caller checks `hasTool` first).
 */
export async function callTool(
  ctx: ToolContext,
  { name, args: rawArgs, asError }: { name: string; args: unknown; asError: (err: unknown) => AppError },
): Promise<ToolOutcome> {
  const tool = byName.get(name)!;
  try {
    const caller =
      tool.caller === "submitter"
        ? requireAgent(ctx.identity, "ANONYMOUS_SUBMISSION_REJECTED")
        : tool.caller === "agent"
          ? requireAgent(ctx.identity, "UNAUTHORIZED")
          : undefined;
    // Strict arguments as on REST (docs/decisions.md "Strict requests"): a misspelt field is named.
    const unknown = unknownFields(tool.args, rawArgs);
    if (unknown.length > 0) throw unknownFieldError(unknown, "arguments");
    const parsed = tool.args.safeParse(rawArgs ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const out = await tool.run(ctx, parsed.data as never, caller);
    if (typeof out === "string") return { isError: false, json: out };
    if ("body" in out) return restOutcome(out.body, out.etag && `${tool.name} ${out.etag}`);
    return { isError: out.isError, json: out.json, structured: out.isError, ...(out.meta && { meta: out.meta }) };
  } catch (err) {
    const e = asError(err);
    if (e.code === "ANONYMOUS_SUBMISSION_REJECTED")
      return { isError: true, json: JSON.stringify({ error: e.code }), note: e.message };
    // Over MCP the fix for a missing sign-in is a tool call (docs/mcp.md "Sign-in over MCP").
    const details =
      e.code === "UNAUTHORIZED" && ctx.identity.kind === "anonymous"
        ? { ...e.details, fix: "sign in on this session: auth_nonce with your address, sign its message, then sign_in" }
        : e.details;
    return { isError: true, json: JSON.stringify(errorBody(e.code, e.message, ctx.requestId, details)) };
  }
}
