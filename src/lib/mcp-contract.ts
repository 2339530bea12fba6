import type { Config } from "../env";

// The MCP surface as it is declared to clients: the §7.1 manifest object, the §7.4 agent-card
// transport block and the error shapes the server really sends. Built from the same constants as
// the transport, so the declarations cannot drift from the behaviour (test/mcp/mcp-contract.int.test.ts
// also checks them against live requests).

export const MCP_PATH = "/mcp";
export const MCP_TRANSPORT = "streamable_http";
/** The newest session (initialize) revision: answered to an initialize asking for none this server speaks. */
export const MCP_PROTOCOL_VERSION = "2025-11-25";
/**
 * Session revisions, newest first (every one the official TypeScript SDK 1.32.2 speaks): an
 * initialize asking for one of them is answered with it (docs/mcp.md "Revisions").
 */
export const MCP_SESSION_VERSIONS = [MCP_PROTOCOL_VERSION, "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];
/** Stateless revisions (per-request `_meta`, no initialize), served on the same endpoint (docs/mcp.md "Stateless lane"). */
export const MCP_STATELESS_VERSIONS = ["2026-07-28"];
const MCP_TRANSPORT_SPEC = "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http";
export const SESSION_HEADER = "Mcp-Session-Id";
const PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";

/** The A2A card aliases of AIP-1 §9.3; the first is the one recipe pointers name. */
export const AGENT_CARD_PATHS = [
  "/.well-known/agent-card.json",
  "/.well-known/agent.json",
  "/agent-card.json",
] as const;
/** AIP-1 §7.3.1: initialize → notifications/initialized window (30 s RECOMMENDED); published. */
export const MCP_HANDSHAKE_TIMEOUT_SECONDS = 30;
/** AIP-1 §7.3.3: a terminated session id is not reissued before this (≥ 10 s); published. */
export const MCP_SESSION_COOLING_SECONDS = 10;
/** An active MCP session ends after this long without a request; published. */
export const MCP_SESSION_IDLE_SECONDS = 3600;
const HANDSHAKE_POINTER = "#/transport/protocols/0/handshake";

/**
 * AIP-1 §7.1.1. Only /mcp serves the transport; no legacy SSE or message-bus shim is routed, so
 * `compatibility_served` is empty and the paths legacy clients probe are answered with the §7.2
 * body instead (see mcp.index.ts).
 */
export const TRANSPORT_PATHS = {
  served: [MCP_PATH],
  compatibility_served: [] as string[],
  not_served: ["/sse", "/mcp/sse", "/messages", "/messages/", "/v1/messages"],
};

/** Sections of the published AIP-1 text that the transport errors point to. */
const AIP1 = "https://github.com/Aigen-Protocol/aigen-protocol/blob/main/specs/AIP-1.md";
export const AIP1_DOCS = {
  unsupportedPath: `${AIP1}#72-server-error-response-for-unsupported-transport-paths`,
  negotiation: `${AIP1}#721-structured-error-response-for-transport--content-negotiation-mismatch`,
  lifecycle: `${AIP1}#73-mcp-session-lifecycle-contract`,
  agentCard: `${AIP1}#74-a2a-agent-card-mcp-invocation-contract`,
};

export const mcpUrl = (config: Config) => `${config.publicUrl}${MCP_PATH}`;
export const recipeUrl = (config: Config, suffix = "") =>
  `${config.publicUrl}${AGENT_CARD_PATHS[0]}${HANDSHAKE_POINTER}${suffix}`;
/** The §7.1 lifecycle recipe inside the manifest (what §7.3.5 calls the handshake recipe of the discovery document). */
const manifestRecipeUrl = (config: Config) => `${config.publicUrl}/.well-known/oabp.json#/mcp/lifecycle`;

/** AIP-1 §7.1 + §7.1.1: the `mcp` object of /.well-known/oabp.json (paths relative, like every §9 endpoint). */
export function mcpManifestObject() {
  const window = MCP_HANDSHAKE_TIMEOUT_SECONDS;
  return {
    url: MCP_PATH,
    transport: MCP_TRANSPORT,
    session_required: true,
    supported_methods: ["GET", "POST", "DELETE"],
    not_implemented: ["sse", "stdio"],
    handshake_timeout_seconds: window,
    session_id_cooling_period_seconds: MCP_SESSION_COOLING_SECONDS,
    session_idle_timeout_seconds: MCP_SESSION_IDLE_SECONDS,
    protocol_version: MCP_PROTOCOL_VERSION,
    protocol_versions: [...MCP_STATELESS_VERSIONS, ...MCP_SESSION_VERSIONS],
    lifecycle: {
      initialize: `POST ${MCP_PATH} with a JSON-RPC initialize request; the response carries the ${SESSION_HEADER} header (repeated as result.sessionId)`,
      initialized_notification: `POST ${MCP_PATH} notifications/initialized with ${SESSION_HEADER} within ${window} seconds, before any tool call; a session that misses it is discarded`,
      tool_calls: `POST ${MCP_PATH} tools/list or tools/call with ${SESSION_HEADER} echoed on every request; every successful response echoes it back`,
      teardown: `DELETE ${MCP_PATH} with ${SESSION_HEADER}; returns 200 OK with an empty body, also for unknown or expired ids`,
      liveness_probe: `GET ${MCP_PATH} returns 200 OK {"ready":true} whenever the endpoint is alive, with or without a session`,
    },
    transport_paths: TRANSPORT_PATHS,
    agent_card: AGENT_CARD_PATHS[0],
  };
}

/** §7.4 errorShape.missingInitialize: the exact error object of a POST without initialize first. */
export function missingInitializeError(config: Config) {
  return {
    code: -32600,
    message: "Invalid Request: send JSON-RPC initialize before any other MCP method.",
    data: { recipeUrl: recipeUrl(config) },
  };
}

/** AIP-1 §7.3.5: unknown, expired or terminated session. */
export function sessionExpiredError(config: Config) {
  return {
    code: -32001,
    message: "session expired",
    data: {
      reason: "Unknown, expired or terminated Mcp-Session-Id: start a new session with initialize.",
      canonical_endpoint: mcpUrl(config),
      recipeUrl: recipeUrl(config),
      lifecycle: manifestRecipeUrl(config),
    },
  };
}

const RECIPE_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  [PROTOCOL_VERSION_HEADER]: MCP_PROTOCOL_VERSION,
};
const SESSION_PLACEHOLDER = "<value-from-initialize-response>";

/** AIP-1 §7.4: the transport block of the A2A agent card, with literal JSON-RPC bodies to copy. */
export function a2aTransportBlock(config: Config) {
  const withSession = { ...RECIPE_HEADERS, [SESSION_HEADER]: SESSION_PLACEHOLDER };
  return {
    primary: "mcp-streamable-http",
    protocols: [
      {
        id: "mcp-streamable-http",
        url: mcpUrl(config),
        spec: MCP_TRANSPORT_SPEC,
        handshake: {
          method: "POST",
          headers: RECIPE_HEADERS,
          body: {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: MCP_PROTOCOL_VERSION,
              capabilities: {},
              clientInfo: { name: "discovery-crawler", version: "0.1.0" },
            },
          },
          responseSessionHeader: {
            name: SESSION_HEADER,
            lifetime: `Set on the initialize response (also result.sessionId); echo it verbatim on every later request. Send notifications/initialized within ${MCP_HANDSHAKE_TIMEOUT_SECONDS} s; an active session ends after ${MCP_SESSION_IDLE_SECONDS} s without requests or on DELETE.`,
          },
          postInitializeNotification: {
            method: "POST",
            headers: withSession,
            body: { jsonrpc: "2.0", method: "notifications/initialized" },
          },
          exampleNextCall: {
            method: "POST",
            headers: withSession,
            body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
          },
          teardown: { method: "DELETE", headers: { [SESSION_HEADER]: SESSION_PLACEHOLDER } },
        },
        errorShape: {
          format: "json-rpc-2.0",
          missingInitialize: { jsonrpc: "2.0", id: null, error: missingInitializeError(config) },
          sessionExpired: { jsonrpc: "2.0", id: null, error: sessionExpiredError(config) },
        },
      },
      {
        id: "oabp-rest-readonly",
        endpoints: [
          { path: "/api/missions", method: "GET" },
          { path: "/api/missions/{id}", method: "GET" },
          { path: "/openapi.json", method: "GET" },
        ],
      },
    ],
    discoveryNote:
      "This transport block is the authoritative invocation contract; neighbouring text files are advisory.",
  };
}
