import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/types";
import { MCP_PROTOCOL_VERSION, MCP_PATH } from "../../lib/mcp-contract";
import { TOOLS } from "./mcp.tools";

// /openapi.json entries for the MCP endpoint. The handlers are plain Hono routes (mcp.index.ts):
// they must answer malformed input with their own JSON-RPC bodies (AIP-1 §7.2.1), which a
// validating OpenAPI route would pre-empt — so the contract is registered here, by hand.

const RpcId = z.union([z.string(), z.number()]).nullable();

const JsonRpcMessage = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).optional().openapi({ description: "Absent for notifications" }),
    method: z.string().openapi({
      example: "tools/call",
      description:
        "Sessions: initialize, notifications/initialized, ping, tools/list, tools/call, tasks/get, tasks/result, tasks/list, tasks/cancel; stateless (2026-07-28, params._meta): server/discover, tools/list, tools/call",
    }),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ example: { name: "list_missions", arguments: { limit: 10 } } }),
  })
  .openapi("McpJsonRpcMessage", {
    description: `One JSON-RPC 2.0 message per POST (MCP ${MCP_PROTOCOL_VERSION} sessions and the stateless 2026-07-28; no batches)`,
  });

const JsonRpcResponse = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: RpcId,
    result: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        "initialize: protocolVersion, capabilities, serverInfo, instructions, sessionId; tools/call: content, structuredContent, isError",
    }),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .openapi("McpJsonRpcResponse");

const TransportError = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: RpcId,
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
    canonical_endpoint: z.string().openapi({ description: "Absolute URL of the MCP endpoint (AIP-1 §7.2.1)" }),
    supported_transports: z.array(z.string()).openapi({ example: ["streamable_http"] }),
    documentation: z.string().openapi({ description: "AIP-1 section explaining the error" }),
  })
  .openapi("McpTransportError", {
    description:
      "AIP-1 §7.2.1 body of every 4xx from /mcp. -32600 + data.recipeUrl: initialize first (§7.4) or send notifications/initialized first; -32700: not JSON; -32001 (HTTP 404): unknown, expired or terminated session (§7.3.5)",
  });

const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const SessionHeaders = z.object({
  "mcp-session-id": z
    .string()
    .optional()
    .openapi({ description: "From the initialize response; required on every request after it" }),
  "mcp-protocol-version": z.string().optional().openapi({ example: MCP_PROTOCOL_VERSION }),
  "mcp-method": z
    .string()
    .optional()
    .openapi({ description: "Stateless 2026-07-28 requests: the body's method (required there)" }),
  "mcp-name": z
    .string()
    .optional()
    .openapi({ description: "Stateless 2026-07-28 tools/call: the body's params.name (required there)" }),
});
const sessionEcho = {
  "Mcp-Session-Id": {
    description: "The session id (set by initialize, echoed on every successful follow-up)",
    schema: { type: "string" as const },
  },
};

export function registerMcpDocs(api: OpenAPIHono<AppEnv>): void {
  const tags = ["mcp"];
  api.openAPIRegistry.registerPath({
    method: "post",
    path: MCP_PATH,
    tags,
    summary: "MCP Streamable HTTP endpoint: JSON-RPC messages (AIP-1 §7.1–§7.4); root only, not under /api",
    description:
      `initialize → 200 with Mcp-Session-Id (also result.sessionId); notifications/initialized within the handshake window → 202; then tools/list and tools/call (${TOOLS.map((t) => t.name).join(", ")}). ` +
      "Credentials as on REST (Authorization: Bearer or a registry api_key), sent with each request. Answers are application/json.",
    request: {
      headers: SessionHeaders,
      body: { required: true, content: { "application/json": { schema: JsonRpcMessage } } },
    },
    responses: {
      200: {
        ...json(JsonRpcResponse, "JSON-RPC response (tool failures are results with isError: true)"),
        headers: sessionEcho,
      },
      202: { description: "Notification or response accepted (no body)", headers: sessionEcho },
      400: json(
        TransportError,
        "Not JSON, not JSON-RPC, no initialize first, handshake incomplete, unsupported MCP-Protocol-Version (-32022), stateless headers that do not match the body (-32020)",
      ),
      404: json(
        TransportError,
        "-32001 session expired: unknown, expired or terminated Mcp-Session-Id; initialize again. Stateless lane: -32601 method not found",
      ),
      406: json(TransportError, "Accept admits no application/json"),
      413: json(TransportError, "Body over the size limit"),
      415: json(TransportError, "Content-Type is not application/json"),
    },
  });
  api.openAPIRegistry.registerPath({
    method: "get",
    path: MCP_PATH,
    tags,
    summary: 'MCP liveness probe (AIP-1 §7.3.4): always 200 {"ready":true}, with or without a session',
    description:
      "With Accept: text/event-stream only (the optional server-to-client stream), an empty event stream that ends at once with retry: 300000 — this server sends no unsolicited messages. HEAD answers too.",
    request: { headers: SessionHeaders },
    responses: {
      200: {
        description: "Alive",
        headers: sessionEcho,
        content: {
          "application/json": { schema: z.object({ ready: z.literal(true) }).openapi("McpReady") },
          "text/event-stream": { schema: z.string() },
        },
      },
    },
  });
  api.openAPIRegistry.registerPath({
    method: "delete",
    path: MCP_PATH,
    tags,
    summary: "End an MCP session (AIP-1 §7.3.2): 200 with an empty body, also for unknown or expired ids",
    request: { headers: SessionHeaders },
    responses: { 200: { description: "Session ended (or there was none); empty body" } },
  });
}
