import { z } from "@hono/zod-openapi";
import type { Deps } from "../../deps";
import { validationError } from "../../http/errors";
import type { Identity } from "../../http/types";
import { type AppError, errorBody } from "../../lib/errors";
import { checkIdempotencyKey, idempotent } from "../../lib/idempotency";
import { getAgent } from "../agents";
import {
  CreateMissionRequest,
  ListMissionsQuery,
  createMission,
  getMission,
  listMissionsJson,
  createMissionOnce,
} from "../missions";
import { getReceipt } from "../receipts";
import { CreateSubmissionRequest, createSubmission, createSubmissionOnce } from "../submissions";
import { castVote, VoteRequest, voteOnce } from "../verification";
import { claimMission } from "../claims";
import { AmendMissionRequest, amendMission, amendMissionOnce } from "../amendments";
import { askQuestion, listQuestions } from "../qa";
import { requireAgent } from "../../http/identity";
import { VERIFICATION_TYPES } from "../../db/vocabulary";
import type { Ctx } from "../../lib/context";

// The MCP tools (AIP-1 §7: list_missions, get_mission, submit_solution, plus the other verbs that
// exist today). MCP is a transport, not a second backend (style.md rule 12): each tool validates
// its arguments with the REST route's zod schema, calls the same service verb and returns the
// same JSON text the REST route answers.
//
// The JSON Schemas below are written by hand and kept short: tools/list is read by every client
// (and often pasted into a model's context), so its size is bounded by a test.

export interface ToolContext {
  deps: Deps;
  identity: Identity;
  requestId: string;
}

interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: Record<string, boolean>;
  /** Who may call: checked before the arguments, as REST checks identity before the body. */
  caller?: "submitter" | "agent";
  args: z.ZodTypeAny;
  /** Returns the REST route's JSON body, as text. */
  run(ctx: ToolContext, args: never, caller: string | undefined): Promise<string>;
}

const str = (description?: string) => (description ? { type: "string", description } : { type: "string" });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  ...(required.length ? { required } : {}),
});
const idKey = str("retry-safe: same key + arguments → the first answer");
const READ = { readOnlyHint: true };
const WRITE = { readOnlyHint: false, destructiveHint: false };

/** A tool call's verb context, built as REST builds a request's (http/context.ts). */
export function ctxFromMcp(ctx: ToolContext): Ctx {
  return { deps: ctx.deps, now: ctx.deps.clock.now(), caller: ctx.identity };
}

const MissionId = z.string().min(1).max(64);

/** Writes drop this instance's cached mission lists at once (REST does it in app.ts for /missions paths). */
function written(ctx: ToolContext, body: string): string {
  ctx.deps.missionLists.invalidate();
  return body;
}

const MISSION_OUT = obj({ id: str(), status: str(), reward: { type: "object" }, deadline: str() }, ["id", "status"]);

export const TOOLS: Tool[] = [
  {
    name: "list_missions",
    description: "List public missions, newest first (same filters as GET /missions). Follow next_cursor for more.",
    inputSchema: obj({
      mission_type: str("AIP-2 types, comma-separated (OR), e.g. code_review,freeform"),
      status: str("open, escrowed, resolved, voided; comma-separated"),
      verification_type: { enum: [...VERIFICATION_TYPES] },
      tag: str(),
      q: str("full-text search"),
      asset: str(),
      creator: str("creator address"),
      reward_min: str("base units"),
      reward_max: str("base units"),
      deadline_after: str("ISO 8601"),
      deadline_before: str("ISO 8601"),
      creator_min_paid_ratio: { type: "number", minimum: 0, maximum: 1, description: "creator track record" },
      creator_max_never_judged: { type: "integer", minimum: 0, description: "creator track record" },
      limit: { type: "integer", minimum: 1, maximum: 100 },
      cursor: str(),
    }),
    outputSchema: obj(
      { missions: { type: "array", items: { type: "object" } }, next_cursor: { type: ["string", "null"] } },
      ["missions", "next_cursor"],
    ),
    annotations: READ,
    args: ListMissionsQuery,
    run: (ctx, a: z.infer<typeof ListMissionsQuery>) => listMissionsJson(ctxFromMcp(ctx), a),
  },
  {
    name: "get_mission",
    description: "One mission: reward, deadline, verification rule, status, phase, resolution.",
    inputSchema: obj({ mission_id: str() }, ["mission_id"]),
    outputSchema: MISSION_OUT,
    annotations: READ,
    args: z.object({ mission_id: MissionId }),
    run: async (ctx, a: { mission_id: string }) =>
      JSON.stringify(await getMission(ctxFromMcp(ctx), { id: a.mission_id })),
  },
  {
    name: "submit_solution",
    description:
      "Submit work to an open mission: inline content, or content_uri + content_hash (sha256). Needs a signed-in agent (Authorization: Bearer).",
    inputSchema: obj(
      {
        mission_id: str(),
        content: str("the deliverable inline (≤ 64 KiB)"),
        content_uri: str("https, ipfs, ar or data URI"),
        content_hash: str("sha256:<hex>"),
        salt: str("commit-reveal missions: the commitment's salt"),
        metadata: { type: "object" },
        idempotency_key: idKey,
      },
      ["mission_id"],
    ),
    outputSchema: obj(
      {
        submission_id: str(),
        status: { enum: ["pending", "accepted", "rejected"] },
        reason: str(),
        next_action: str(),
      },
      ["submission_id", "status", "reason", "next_action"],
    ),
    annotations: WRITE,
    caller: "submitter",
    args: CreateSubmissionRequest.extend({ mission_id: MissionId, idempotency_key: z.string().optional() }),
    run: async (
      ctx,
      a: z.infer<typeof CreateSubmissionRequest> & { mission_id: string; idempotency_key?: string | undefined },
      caller,
    ) => {
      const { mission_id, idempotency_key, ...body } = a;
      const r = await idempotent(
        ctxFromMcp(ctx),
        { key: checkIdempotencyKey(idempotency_key), request: body, ...createSubmissionOnce(caller!, mission_id) },
        (c) => createSubmission(c, { missionId: mission_id, submission: body }),
      );
      return written(ctx, r.body);
    },
  },
  {
    name: "get_agent",
    description: "An agent's profile: rating (decay applied), balances, mission counts.",
    inputSchema: obj({ agent_id: str("0x address") }, ["agent_id"]),
    outputSchema: obj({ agent_id: str(), rating: { type: "integer" }, aigen_balance: { type: "integer" } }, [
      "agent_id",
      "rating",
      "aigen_balance",
    ]),
    annotations: READ,
    args: z.object({ agent_id: z.string().min(1).max(64) }),
    run: async (ctx, a: { agent_id: string }) =>
      JSON.stringify(await getAgent(ctxFromMcp(ctx), { agentId: a.agent_id })),
  },
  {
    name: "get_receipt",
    description: "The signed AIP-1 §6.1 receipt of a paid submission of a resolved mission.",
    inputSchema: obj({ mission_id: str(), submission_id: str() }, ["mission_id", "submission_id"]),
    outputSchema: obj({ type: str(), digest: str(), signature: { type: "object" } }, ["type", "digest", "signature"]),
    annotations: READ,
    args: z.object({ mission_id: MissionId, submission_id: z.string().min(1).max(64) }),
    run: async (ctx, a: { mission_id: string; submission_id: string }) =>
      JSON.stringify(await getReceipt(ctxFromMcp(ctx), { missionId: a.mission_id, submissionId: a.submission_id })),
  },
  {
    name: "create_mission",
    description: "Post a mission; reward + spam fee are escrowed from your ledger balance. Needs a signed-in agent.",
    inputSchema: obj(
      {
        title: str(),
        description: str(),
        reward: obj({ asset: str("e.g. USDC"), amount: str("base units"), chain: { enum: ["ledger", "base"] } }, [
          "asset",
          "amount",
        ]),
        verification: obj({ type: { enum: [...VERIFICATION_TYPES] }, params: { type: "object" } }, ["type"]),
        deadline: str("ISO 8601, in the future"),
        tags: { type: "array", items: { type: "string" } },
        mission_type: str("AIP-2 type (GET /missions/types); default freeform"),
        type_params: { type: "object" },
        min_submitter_elo: { type: "integer", minimum: 0 },
        eligibility: obj({
          min_rating: { type: "integer", minimum: 0 },
          min_completed: { type: "integer", minimum: 0 },
          allow: { type: "array", items: { type: "string" }, description: "invite-only addresses" },
          block: { type: "array", items: { type: "string" } },
          audience: { enum: ["anyone", "agents"] },
        }),
        idempotency_key: idKey,
      },
      ["title", "description", "reward", "verification", "deadline"],
    ),
    outputSchema: MISSION_OUT,
    annotations: WRITE,
    caller: "agent",
    args: CreateMissionRequest.extend({ idempotency_key: z.string().optional() }),
    run: async (ctx, a: z.infer<typeof CreateMissionRequest> & { idempotency_key?: string | undefined }, caller) => {
      const { idempotency_key, ...body } = a;
      const r = await idempotent(
        ctxFromMcp(ctx),
        { key: checkIdempotencyKey(idempotency_key), request: body, ...createMissionOnce(caller!) },
        (c) => createMission(c, body),
      );
      return written(ctx, r.body);
    },
  },
  {
    name: "vote",
    description:
      "Stake vote_token on a submission: peer_vote missions between deadline and voting_deadline, or a disputed creator award. Needs a signed-in agent.",
    inputSchema: obj(
      { mission_id: str(), submission_id: str(), amount: str("stake, base units"), idempotency_key: idKey },
      ["mission_id", "submission_id", "amount"],
    ),
    outputSchema: obj({ id: str(), submission_id: str(), amount: str() }, ["id", "submission_id", "amount"]),
    annotations: WRITE,
    caller: "submitter",
    args: VoteRequest.extend({ mission_id: MissionId, idempotency_key: z.string().optional() }),
    run: async (
      ctx,
      a: { mission_id: string; submission_id: string; amount: string; idempotency_key?: string | undefined },
      caller,
    ) => {
      const vote = { submission_id: a.submission_id, amount: a.amount };
      const r = await idempotent(
        ctxFromMcp(ctx),
        { key: checkIdempotencyKey(a.idempotency_key), request: vote, ...voteOnce(caller!, a.mission_id) },
        (c) => castVote(c, { missionId: a.mission_id, vote }),
      );
      return written(ctx, r.body);
    },
  },
  {
    name: "claim_mission",
    description:
      "Claim an open mission: a visible, expiring intent to work (call again to renew), maybe exclusive for a while. Never changes who is paid. Signed-in agents.",
    inputSchema: obj({ mission_id: str() }, ["mission_id"]),
    outputSchema: obj(
      { id: str(), mission_id: str(), status: str(), expires_at: str(), exclusive: { type: "boolean" } },
      ["id", "mission_id", "status", "expires_at"],
    ),
    annotations: WRITE,
    // Anonymous claims answer the §1.4 body, as on REST (POST /missions/{id}/claims).
    caller: "submitter",
    args: z.object({ mission_id: MissionId }),
    run: async (ctx, a: { mission_id: string }) =>
      written(ctx, JSON.stringify((await claimMission(ctxFromMcp(ctx), { missionId: a.mission_id })).claim)),
  },
  {
    name: "amend_mission",
    description: "Amend a mission: extend_deadline, edit (creator; edit before any submission), top_up (anyone).",
    inputSchema: obj(
      {
        mission_id: str(),
        amendment: obj(
          {
            kind: { enum: ["extend_deadline", "top_up", "edit"] },
            deadline: str(),
            amount: str(),
            title: str(),
            description: str(),
            tags: { type: "array" },
          },
          ["kind"],
        ),
        idempotency_key: idKey,
      },
      ["mission_id", "amendment"],
    ),
    outputSchema: obj({ id: str(), kind: str(), status: str() }, ["id", "status"]),
    annotations: WRITE,
    caller: "agent",
    args: z.object({ mission_id: MissionId, amendment: AmendMissionRequest, idempotency_key: z.string().optional() }),
    run: async (
      ctx,
      a: { mission_id: string; amendment: z.infer<typeof AmendMissionRequest>; idempotency_key?: string | undefined },
      caller,
    ) => {
      const r = await idempotent(
        ctxFromMcp(ctx),
        {
          key: checkIdempotencyKey(a.idempotency_key),
          request: a.amendment,
          ...amendMissionOnce(caller!, a.mission_id),
        },
        (c) => amendMission(c, { missionId: a.mission_id, input: a.amendment }),
      );
      return written(ctx, r.body);
    },
  },
  {
    name: "list_questions",
    description: "A mission's public Q&A: questions, the creator's answers, pinned clarifications.",
    inputSchema: obj({ mission_id: str(), cursor: str() }, ["mission_id"]),
    outputSchema: obj({ questions: { type: "array" } }, ["questions"]),
    annotations: READ,
    args: z.object({ mission_id: MissionId, cursor: z.string().max(200).optional() }),
    run: async (ctx, a: { mission_id: string; cursor?: string | undefined }) =>
      JSON.stringify(await listQuestions(ctxFromMcp(ctx), { missionId: a.mission_id, limit: 50, cursor: a.cursor })),
  },
  {
    name: "ask_question",
    description: "Ask an open mission's creator a public question. Signed-in agents.",
    inputSchema: obj({ mission_id: str(), body: str() }, ["mission_id", "body"]),
    outputSchema: obj({ id: str() }, ["id"]),
    annotations: WRITE,
    caller: "agent",
    args: z.object({ mission_id: MissionId, body: z.string().trim().min(1).max(10_000) }),
    run: async (ctx, a: { mission_id: string; body: string }) =>
      written(ctx, JSON.stringify(await askQuestion(ctxFromMcp(ctx), { missionId: a.mission_id, body: a.body }))),
  },
];

const byName = new Map(TOOLS.map((t) => [t.name, t]));
export const hasTool = (name: string) => byName.has(name);
/** A tool that changes state: it takes a write token, as the REST write does (docs/abuse-edge.md). */
export const isWriteTool = (name: string) => byName.get(name)?.annotations.readOnlyHint === false;

/** The tools/list result, serialised once. */
export const TOOLS_LIST_JSON = JSON.stringify({
  tools: TOOLS.map(({ name, description, inputSchema, outputSchema, annotations }) => ({
    name,
    description,
    inputSchema,
    outputSchema,
    annotations,
  })),
});

/** A tool's answer: the REST JSON text, or the REST error body when `isError`. */
export interface ToolOutcome {
  isError: boolean;
  json: string;
  /** Human explanation of an error whose body carries none (the fixed §1.4 body). */
  note?: string;
}

/**
 * Runs one tool. Business failures are tool results with `isError: true` whose text is the very
 * error body REST would send (so `ANONYMOUS_SUBMISSION_REJECTED` is the exact §1.4 body); only an
 * unknown tool name is a JSON-RPC error (the caller checks `hasTool` first).
 */
export async function callTool(
  ctx: ToolContext,
  name: string,
  rawArgs: unknown,
  asError: (err: unknown) => AppError,
): Promise<ToolOutcome> {
  const tool = byName.get(name)!;
  try {
    const caller =
      tool.caller === "submitter"
        ? requireAgent(ctx.identity, "ANONYMOUS_SUBMISSION_REJECTED")
        : tool.caller === "agent"
          ? requireAgent(ctx.identity, "UNAUTHORIZED")
          : undefined;
    const parsed = tool.args.safeParse(rawArgs ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    return { isError: false, json: await tool.run(ctx, parsed.data as never, caller) };
  } catch (err) {
    const e = asError(err);
    if (e.code === "ANONYMOUS_SUBMISSION_REJECTED")
      return { isError: true, json: JSON.stringify({ error: e.code }), note: e.message };
    return { isError: true, json: JSON.stringify(errorBody(e.code, e.message, ctx.requestId, e.details)) };
  }
}
