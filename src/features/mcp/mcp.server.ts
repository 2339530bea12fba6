import type { Context } from "hono";
import type { AppEnv } from "../../http/types";
import {
  MCP_PROTOCOL_VERSION,
  MCP_SESSION_VERSIONS,
  MCP_STATELESS_VERSIONS,
  missingInitializeError,
  recipeUrl,
} from "../../lib/mcp-contract";
import { classify, type Incoming, resultBytes, resultText, RPC, type RpcId, toolResultBytes } from "./mcp.jsonrpc";
import { activateSession, actingIdentity, createSession, findSession, ownedBy } from "./mcp.sessions";
import { toolsListJSON } from "./mcp.tools";
import { errorText, isRpcError, runToolCall } from "./mcp.call";
import { createTask, isTaskMethod, TASK_TOOLS, TASKS_CAPABILITY, taskMethod, taskQuotaError } from "./mcp.tasks";
import { isStateless, serveStateless, SERVER_INFO, unsupportedVersion } from "./mcp.stateless";
import { enforceRateLimit } from "../../http/rate-limit";
import { sendBody } from "../../http/http-cache";
import { hasLoneSurrogate, jsonTooDeep, MAX_JSON_DEPTH } from "../../lib/json-text";
import { clientNetwork } from "../../http/client-ip";
import {
  acceptsJson,
  echoSession,
  isJsonContentType,
  plausibleSessionId,
  sendSessionExpired,
  sendTransportError,
} from "./mcp.transport";

// POST /mcp: one JSON-RPC message per request (MCP Streamable HTTP), answered with
// application/json (never an event stream): a message with the 2026-07-28 per-request `_meta` is
// served statelessly (mcp.stateless.ts); the rest follow the AIP-1 §7.3 session lifecycle, in the
// revision initialize negotiated (docs/mcp.md "Revisions").

const KNOWN_PROTOCOL_VERSIONS = new Set([...MCP_SESSION_VERSIONS, ...MCP_STATELESS_VERSIONS]);
/** 2025-11-25 and later sessions get its additions: Tasks. */
const TASKS_SINCE = "2025-11-25";

const INSTRUCTIONS =
  "Open Agent Bounty Protocol (AIP-1) missions. Find work with list_missions and get_mission; submit with submit_solution. " +
  "Post with create_mission; judge with list_submissions and award_mission (or void_mission); check payment with get_mission and get_balance. " +
  "Writes need a signed-in agent: call auth_nonce with your address, sign its message, then sign_in; this session then acts as you " +
  "(or send Authorization: Bearer <token> from POST /auth/siwe on the HTTP requests). " +
  "create_mission takes reward.amount in whole units (25 = 25 USDC); other amounts are base-unit integer strings.";

const JSON_TYPE = "application/json; charset=utf-8";
const sendJson = (c: Context<AppEnv>, body: string | Uint8Array) => {
  c.header("Content-Type", JSON_TYPE);
  return sendBody(c, body);
};

/** A well-formed JSON-RPC message. */
type Message = Exclude<Incoming, { kind: "invalid" }>;

const idOf = (m: Incoming): RpcId | null => (m.kind === "request" || m.kind === "invalid" ? m.id : null);
const str = (v: unknown) => (typeof v === "string" ? v.slice(0, 200) : null);

export async function handlePost(c: Context<AppEnv>): Promise<Response> {
  const m = await readMessage(c);
  if (m instanceof Response) return m;
  if (m.kind === "request" && m.method === "initialize") return initialize(c, m);
  // The stateless lane: per-request `_meta`, no session (2026-07-28 basic/versioning "Dual-era").
  if (isStateless(c, m)) return serveStateless(c, m);
  const version = c.req.header("mcp-protocol-version");
  if (version !== undefined && !KNOWN_PROTOCOL_VERSIONS.has(version)) {
    return sendTransportError(c, { status: 400, id: idOf(m), error: unsupportedVersion(version) });
  }
  return inSession(c, m);
}

/** The one JSON-RPC message of the body, or the transport error that refuses it. */
async function readMessage(c: Context<AppEnv>): Promise<Message | Response> {
  const deps = c.get("deps");
  const raw = await c.req.text();
  if (raw.length > 0 && !isJsonContentType(c.req.header("content-type"))) {
    return sendTransportError(c, {
      status: 415,
      id: null,
      error: {
        code: RPC.INVALID_REQUEST,
        message: "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json",
      },
    });
  }
  if (!acceptsJson(c.req.header("accept"))) {
    return sendTransportError(c, {
      status: 406,
      id: null,
      error: {
        code: RPC.INVALID_REQUEST,
        message: "Not Acceptable: responses are application/json; send Accept: application/json, text/event-stream",
      },
    });
  }
  // §7.4: a POST without an initialize body gets errorShape.missingInitialize.
  if (raw.trim() === "")
    return sendTransportError(c, { status: 400, id: null, error: missingInitializeError(deps.config) });
  return parseMessage(c, raw);
}

function parseMessage(c: Context<AppEnv>, raw: string): Message | Response {
  const config = c.get("deps").config;
  // Depth is bounded on the text before parsing, as on REST (src/lib/json-text.ts).
  if (jsonTooDeep(raw)) {
    return sendTransportError(c, {
      status: 400,
      id: null,
      error: {
        code: RPC.INVALID_REQUEST,
        message: `Invalid Request: the message nests deeper than ${MAX_JSON_DEPTH} levels`,
        data: { recipeUrl: recipeUrl(config) },
      },
    });
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return sendTransportError(c, {
      status: 400,
      id: null,
      error: {
        code: RPC.PARSE_ERROR,
        message: "Parse error: the body is not valid JSON",
        data: { recipeUrl: recipeUrl(config) },
      },
    });
  }
  // A lone surrogate in any string is refused here as on REST (src/lib/json-text.ts).
  if (hasLoneSurrogate(body)) {
    return sendTransportError(c, {
      status: 400,
      id: null,
      error: {
        code: RPC.INVALID_PARAMS,
        message: "Invalid params: a string contains a lone UTF-16 surrogate",
        data: { recipeUrl: recipeUrl(config) },
      },
    });
  }
  const m = classify(body);
  if (m.kind === "invalid")
    return sendTransportError(c, {
      status: 400,
      id: m.id,
      error: {
        code: RPC.INVALID_REQUEST,
        message: `Invalid Request: ${m.reason}`,
        data: { recipeUrl: recipeUrl(config) },
      },
    });
  return m;
}

/** A message other than initialize: it needs a live session of this caller (§7.3). */
async function inSession(c: Context<AppEnv>, m: Message): Promise<Response> {
  const deps = c.get("deps");
  const sessionId = c.req.header("mcp-session-id");
  if (sessionId === undefined) {
    // Ping is allowed at any time (MCP lifecycle); everything else needs the handshake first.
    if (m.kind === "request" && m.method === "ping") return sendJson(c, resultText(m.id, "{}"));
    return sendTransportError(c, { status: 400, id: idOf(m), error: missingInitializeError(deps.config) });
  }
  const session = plausibleSessionId(sessionId) ? await findSession(deps, sessionId) : undefined;
  // A session signed in with the sign_in tool acts as its agent when the request has no
  // credentials of its own (docs/mcp.md "Sign-in over MCP").
  if (session) c.set("identity", await actingIdentity(deps, { session, identity: c.get("identity") }));
  if (!session || !ownedBy(session, c.get("identity"))) return sendSessionExpired(c, idOf(m));

  if (m.kind === "response") return accepted(c, sessionId); // a client's answer to a server request
  if (m.method === "notifications/initialized") {
    // §7.3.1: pending → active inside the window only; a late notification finds it expired.
    if (!(await activateSession(deps, sessionId))) return sendSessionExpired(c, idOf(m));
    if (m.kind === "notification") return accepted(c, sessionId);
    echoSession(c, sessionId);
    return sendJson(c, resultText(m.id, "{}")); // sent as a request by some clients: answer it
  }
  if (m.kind === "notification") return accepted(c, sessionId); // cancelled, progress…: nothing to do
  if (session.state === "pending" && m.method !== "ping") {
    // §7.3.1: no tool call (nor anything else) before the handshake completes.
    return sendTransportError(c, {
      status: 400,
      id: m.id,
      error: {
        code: RPC.INVALID_REQUEST,
        message:
          "Invalid Request: the handshake is not complete; POST notifications/initialized with this Mcp-Session-Id first.",
        data: { recipeUrl: recipeUrl(deps.config, "/postInitializeNotification") },
      },
    });
  }
  echoSession(c, sessionId);
  const tasks = session.protocolVersion >= TASKS_SINCE;
  return sendJson(c, await dispatch(c, { id: m.id, method: m.method, params: m.params, tasks }));
}

function accepted(c: Context<AppEnv>, sessionId: string) {
  echoSession(c, sessionId);
  return c.body(null, 202);
}

async function initialize(c: Context<AppEnv>, m: Extract<Incoming, { kind: "request" }>) {
  const deps = c.get("deps");
  const who = c.get("identity");
  const clientInfo = (m.params?.clientInfo ?? {}) as Record<string, unknown>;
  // initialize creates state for anyone: the per-IP session bucket, then the pending cap.
  await enforceRateLimit(c, "session");
  // The client's revision when this server speaks it, else the newest (2025-11-25 basic/lifecycle).
  const asked = m.params?.protocolVersion;
  const version = typeof asked === "string" && MCP_SESSION_VERSIONS.includes(asked) ? asked : MCP_PROTOCOL_VERSION;
  // A session header on initialize is ignored: initialize always starts a new session.
  const { id } = await createSession(deps, {
    clientIp: clientNetwork(c), // the pending cap keys on the client network (IPv6 /64)
    protocolVersion: version,
    agentId: who.kind === "agent" ? who.address : null,
    clientName: str(clientInfo.name),
    clientVersion: str(clientInfo.version),
  });
  echoSession(c, id);
  const result = {
    protocolVersion: version,
    capabilities: {
      tools: { listChanged: false },
      ...(version >= TASKS_SINCE ? { tasks: TASKS_CAPABILITY } : {}),
    },
    serverInfo: SERVER_INFO(deps.config),
    instructions: INSTRUCTIONS,
    // The id again, for clients (and proxies) that lose response headers.
    sessionId: id,
  };
  return sendJson(c, resultText(m.id, JSON.stringify(result)));
}

interface Call {
  id: RpcId;
  method: string;
  params: Record<string, unknown> | undefined;
  /** The session negotiated 2025-11-25 or later: Tasks are served. */
  tasks: boolean;
}

async function dispatch(c: Context<AppEnv>, m: Call): Promise<string | Uint8Array> {
  const { id, method, params } = m;
  if (method === "ping") return resultText(id, "{}");
  if (method === "tools/list") return resultText(id, toolsListJSON());
  if (method === "tools/call") return toolsCall(c, m);
  if (m.tasks && isTaskMethod(method)) {
    const who = c.get("identity");
    if (who.kind !== "agent") return errorText(id, signInForTasks);
    const out = await taskMethod(c.get("deps"), { agentId: who.address, id, method, params });
    return typeof out === "string" ? out : errorText(id, out);
  }
  return errorText(id, { code: RPC.METHOD_NOT_FOUND, message: `Method not found: ${method}` });
}

const signInForTasks = {
  code: RPC.INVALID_PARAMS,
  message: "Tasks belong to a signed-in agent: sign in (sign_in tool or Authorization: Bearer) first",
  data: { reason: "sign_in_required" },
};

/** tools/call, or its task-augmented form (2025-11-25 basic/utilities/tasks "Creating Tasks"). */
async function toolsCall(c: Context<AppEnv>, m: Call): Promise<string | Uint8Array> {
  const task = m.tasks ? m.params?.task : undefined;
  const name = m.params?.name;
  if (task !== undefined) {
    // Tools without taskSupport answer -32601 to a task-augmented call (tasks §Tool-Level Negotiation).
    if (typeof name !== "string" || !TASK_TOOLS.has(name)) {
      return errorText(m.id, { code: RPC.METHOD_NOT_FOUND, message: `Tool ${String(name)} does not run as a task` });
    }
    const who = c.get("identity");
    if (who.kind !== "agent") return errorText(m.id, signInForTasks);
    const full = await taskQuotaError(c.get("deps"), who.address);
    if (full) return errorText(m.id, full);
    const call = await runToolCall(c, m.params);
    if (isRpcError(call)) return errorText(m.id, call);
    return resultText(m.id, await createTask(c.get("deps"), { agentId: who.address, call, task }));
  }
  const call = await runToolCall(c, m.params);
  if (isRpcError(call)) return errorText(m.id, call);
  return resultBytes(m.id, toolResultBytes(call.outcome));
}
