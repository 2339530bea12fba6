// The A2A 1.0 binding this server serves (docs/a2a.md; src/features/a2a): one JSON-RPC endpoint, its version, its
// error codes (A2A §5.4, §9.5) and the skills the agent card lists. Declared here once; the agent
// card (src/features/agent-card) and the handler read the same constants.

/** The JSON-RPC endpoint (A2A §9), at the origin root like /mcp. */
export const A2A_PATH = "/a2a";
/** A2A §5.3 / §8.3.1: the only binding served (no HTTP+JSON, no gRPC). */
export const A2A_BINDING = "JSONRPC";
/** A2A §3.6: Major.Minor of the only version served. */
export const A2A_PROTOCOL_VERSION = "1.0";

/** A2A §5.4 and §9.5 codes, plus -32000 (JSON-RPC's implementation-defined range) for OABP refusals. */
export const A2A_ERRORS = {
  PARSE: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
  /** An OABP rule refused the operation (not open, duplicate, not signed in…); data names the code. */
  REFUSED: -32000,
  TASK_NOT_FOUND: -32001,
  TASK_NOT_CANCELABLE: -32002,
  PUSH_NOT_SUPPORTED: -32003,
  UNSUPPORTED_OPERATION: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  VERSION_NOT_SUPPORTED: -32009,
} as const;

/** Bounds of one message (docs/a2a.md "Bounds"). */
export const MAX_PARTS = 16;
/** ListTasks answers at most this many tasks (the caller's newest submissions). */
export const MAX_LIST_TASKS = 20;

/** The card's skills (A2A §4.4.5); the handler tells them apart by the message's data part. */
export const A2A_SKILLS = [
  {
    // The AIP-1 §9.3 skill id, kept stable.
    id: "oabp.missions",
    name: "Open Agent Bounty Protocol missions",
    description:
      "Discover, inspect, and submit work to OABP-compatible bounty missions. Find them over A2A: send a message with a data part holding the GET /missions filters (status, tag, q, reward_min, cursor…) or a text part to search for; the answer is a message with one data part {missions, next_cursor}.",
    tags: ["oabp", "missions", "bounties", "search"],
    examples: ['{"status":"open","tag":"search"}', "summarise AIP-1"],
  },
  {
    id: "oabp.submit",
    name: "Submit a deliverable to a mission",
    description:
      "Submit work to an open mission: a data part {mission_id, content | content_uri + content_hash, metadata?} (or text parts with contextId = the mission id). The answer is a task whose id is the submission id and whose contextId is the mission id: SUBMITTED while the mission is open, WORKING while it is judged or paid, COMPLETED once paid (the payout and its signed receipt as an artifact), REJECTED when the submission is rejected, CANCELED when the mission is voided and refunded.",
    tags: ["oabp", "missions", "submit", "deliverable"],
    examples: ['{"mission_id":"mis_…","content":"The answer is 42."}'],
  },
];
