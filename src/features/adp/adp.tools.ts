import { VERIFICATION_TYPES } from "../missions/missions.schemas";

// The server card's `tools` (ADP §3.4) are its MCP tools (AIP-1 §7), projected the way ADP
// Appendix A.2 maps them: name, description, inputSchema → input_schema; plus output_schema,
// `streaming: false` (JSON answers only) and `idempotent` for the read-only tools.
//
// MCP_TOOLS mirrors the MCP surface's tool list (src/features/mcp/mcp.tools.ts on the mcp branch:
// same names, descriptions and schemas). When both are merged, `serverTools()` should project that
// module's TOOLS instead of this copy. `claim_mission` joins when claims exist (issue 8, claims).

export interface McpToolShape {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
}

export interface AdpTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  output_schema?: Record<string, unknown>;
  streaming: boolean;
  idempotent: boolean;
}

const str = (description?: string) => (description ? { type: "string", description } : { type: "string" });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, ...(required.length ? { required } : {}) });
const idKey = str("retry-safe: same key + arguments → the first answer");
const READ = { readOnlyHint: true };
const WRITE = { readOnlyHint: false };
const MISSION_OUT = obj({ id: str(), status: str(), reward: { type: "object" }, deadline: str() }, ["id", "status"]);

export const MCP_TOOLS: McpToolShape[] = [
  {
    name: "list_missions",
    description: "List public missions, newest first (same filters as GET /missions). Follow next_cursor for more.",
    inputSchema: obj({
      status: str("open, escrowed, resolved, voided; comma-separated"),
      verification_type: { enum: [...VERIFICATION_TYPES] },
      tag: str(),
      q: str("full-text search"),
      limit: { type: "integer", minimum: 1, maximum: 100 },
      cursor: str(),
    }),
    outputSchema: obj({ missions: { type: "array", items: { type: "object" } }, next_cursor: { type: ["string", "null"] } }, ["missions", "next_cursor"]),
    annotations: READ,
  },
  {
    name: "get_mission",
    description: "One mission: reward, deadline, verification rule, status, phase, resolution.",
    inputSchema: obj({ mission_id: str() }, ["mission_id"]),
    outputSchema: MISSION_OUT,
    annotations: READ,
  },
  {
    name: "submit_solution",
    description: "Submit work to an open mission: inline content, or content_uri + content_hash (sha256). Needs a signed-in agent (Authorization: Bearer).",
    inputSchema: obj({
      mission_id: str(),
      content: str("the deliverable inline (≤ 64 KiB)"),
      content_uri: str("https, ipfs, ar or data URI"),
      content_hash: str("sha256:<hex>"),
      salt: str("commit-reveal missions: the commitment's salt"),
      idempotency_key: idKey,
    }, ["mission_id"]),
    outputSchema: obj({ submission_id: str(), status: { enum: ["pending", "accepted", "rejected"] }, reason: str(), next_action: str() }, ["submission_id", "status", "reason", "next_action"]),
    annotations: WRITE,
  },
  {
    name: "get_agent",
    description: "An agent's profile: rating (decay applied), balances, mission counts.",
    inputSchema: obj({ agent_id: str("0x address") }, ["agent_id"]),
    outputSchema: obj({ agent_id: str(), rating: { type: "integer" }, aigen_balance: str() }, ["agent_id", "rating", "aigen_balance"]),
    annotations: READ,
  },
  {
    name: "get_receipt",
    description: "The signed AIP-1 §6.1 receipt of a paid submission of a resolved mission.",
    inputSchema: obj({ mission_id: str(), submission_id: str() }, ["mission_id", "submission_id"]),
    outputSchema: obj({ type: str(), digest: str(), signature: { type: "object" } }, ["type", "digest", "signature"]),
    annotations: READ,
  },
  {
    name: "create_mission",
    description: "Post a mission; reward + spam fee are escrowed from your ledger balance. Needs a signed-in agent.",
    inputSchema: obj({
      title: str(),
      description: str(),
      reward: obj({ asset: str("e.g. USDC"), amount: str("base units"), chain: { enum: ["ledger", "base"] } }, ["asset", "amount"]),
      verification: obj({ type: { enum: [...VERIFICATION_TYPES] }, params: { type: "object" } }, ["type"]),
      deadline: str("ISO 8601, in the future"),
      tags: { type: "array", items: { type: "string" } },
      idempotency_key: idKey,
    }, ["title", "description", "reward", "verification", "deadline"]),
    outputSchema: MISSION_OUT,
    annotations: WRITE,
  },
  {
    name: "vote",
    description: "Stake vote_token on a submission: peer_vote missions between deadline and voting_deadline, or a disputed creator award. Needs a signed-in agent.",
    inputSchema: obj({ mission_id: str(), submission_id: str(), amount: str("stake, base units"), idempotency_key: idKey }, ["mission_id", "submission_id", "amount"]),
    outputSchema: obj({ id: str(), submission_id: str(), amount: str() }, ["id", "submission_id", "amount"]),
    annotations: WRITE,
  },
];

/** ADP Appendix A.2 in reverse: an MCP tool as an ADP tool descriptor. */
export function toAdpTool(t: McpToolShape): AdpTool {
  return {
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema,
    ...(t.outputSchema ? { output_schema: t.outputSchema } : {}),
    streaming: false,
    // Only reads are idempotent whatever the input; a write is retry-safe only with its key.
    idempotent: t.annotations?.readOnlyHint === true,
  };
}

export const serverTools = (): AdpTool[] => MCP_TOOLS.map(toAdpTool);
