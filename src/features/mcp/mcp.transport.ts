import type { Context } from "hono";
import type { Config } from "../../env";
import type { AppEnv } from "../../http/types";
import { AIP1_DOCS, MCP_TRANSPORT, SESSION_HEADER, sessionExpiredError, mcpUrl } from "../../lib/mcp-contract";
import { errorObject, type RpcError, type RpcId } from "./mcp.jsonrpc";

// HTTP-level answers of the MCP endpoint: content negotiation and the structured error bodies of
// AIP-1 §7.2 (paths not served), §7.2.1 (negotiation mismatch on /mcp) and §7.3.5 (-32001).

/**
 * AIP-1 §7.2.1: every 4xx from /mcp is a JSON-RPC error with the three sibling fields a client
 * in a retry loop needs to correct itself without re-reading the manifest.
 */
function transportErrorBody(config: Config, id: RpcId | null, error: RpcError, documentation = AIP1_DOCS.negotiation) {
  return {
    ...errorObject(id, error),
    canonical_endpoint: mcpUrl(config),
    supported_transports: [MCP_TRANSPORT],
    documentation,
  };
}

export function sendTransportError(
  c: Context<AppEnv>,
  { status, id, error }: { status: 400 | 403 | 404 | 405 | 406 | 413 | 415; id: RpcId | null; error: RpcError },
) {
  return c.json(transportErrorBody(c.get("deps").config, id, error), status);
}

/** §7.3.5: unknown, expired or terminated session → -32001 (HTTP 404, which MCP clients read as "start a new session"). */
export function sendSessionExpired(c: Context<AppEnv>, id: RpcId | null) {
  const config = c.get("deps").config;
  return c.json(transportErrorBody(config, id, sessionExpiredError(config), AIP1_DOCS.lifecycle), 404);
}

/** AIP-1 §7.2: the body for a path listed in transport_paths.not_served. */
export function notServedBody(config: Config, { method, path }: { method: string; path: string }) {
  return {
    error: "TransportNotSupported",
    message: `${method} ${path} is not served: this server implements MCP over Streamable HTTP at ${mcpUrl(config)} only (no SSE or message-bus endpoints). POST initialize there; the recipe is in /.well-known/agent-card.json (transport) and /.well-known/oabp.json (mcp).`,
    canonical_mcp_endpoint: mcpUrl(config),
    transport: MCP_TRANSPORT,
    documentation: AIP1_DOCS.unsupportedPath,
  };
}

/** Media types of an Accept header, lower-cased, without parameters (q=0 entries dropped). */
function accepted(header: string): string[] {
  return header
    .split(",")
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part && !/;\s*q=0(\.0*)?\s*(;|$)/.test(part))
    .map((part) => part.split(";")[0]!.trim());
}

/**
 * Responses from /mcp are JSON (no POST is answered with an event stream). A client that states
 * an Accept which admits no JSON is refused with 406; a missing Accept is taken as anything —
 * crawlers often omit it, and MCP's "MUST list both" is a client obligation we need not police.
 */
export function acceptsJson(header: string | undefined): boolean {
  if (header === undefined || header.trim() === "") return true;
  return accepted(header).some(
    (t) => t === "application/json" || t === "application/*" || t === "*/*" || t.endsWith("+json"),
  );
}

/** A GET that asks for an event stream and not JSON: the SDK's standalone-stream probe. */
export function wantsOnlyEventStream(header: string | undefined): boolean {
  if (!header) return false;
  const types = accepted(header);
  return types.includes("text/event-stream") && !acceptsJson(header);
}

export function isJsonContentType(header: string | undefined): boolean {
  const type = (header ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** A plausible session id: visible ASCII (MCP 2025-06-18), bounded. Anything else is "unknown". */
export const plausibleSessionId = (id: string) => /^[\x21-\x7e]{1,200}$/.test(id);

export const echoSession = (c: Context<AppEnv>, id: string) => c.header(SESSION_HEADER, id);
