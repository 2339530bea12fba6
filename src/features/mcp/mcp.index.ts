import type { Context, Hono } from "hono";
import type { Deps } from "../../deps";
import { limitBody } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { TRANSPORT_PATHS, MCP_PATH } from "../../lib/mcp-contract";
import { RPC } from "./mcp.jsonrpc";
import { handlePost } from "./mcp.server";
import { actingIdentity, findSession, ownedBy, terminateSession } from "./mcp.sessions";
import {
  echoSession,
  notServedBody,
  plausibleSessionId,
  sendTransportError,
  wantsOnlyEventStream,
} from "./mcp.transport";

/** Paths whose every answer this feature writes itself (app.ts skips the generic JSON-body gate for them). */
export const MCP_OWN_PATHS: ReadonlySet<string> = new Set([MCP_PATH, ...TRANSPORT_PATHS.not_served]);

/**
 * The MCP endpoint (AIP-1 §7.1–§7.4) as plain Hono routes at the origin root (not under /api:
 * `transport_paths.served` is exactly ["/mcp"]). Documented in /openapi.json by mcp.routes.ts.
 */
export function registerMcp(app: Hono<AppEnv>, deps: Deps): void {
  app.post(MCP_PATH, limitMessage(deps.config.bodyLimitBytes), handlePost);
  app.get(MCP_PATH, handleGet); // HEAD too (Hono answers HEAD with the GET route, without the body)
  app.delete(MCP_PATH, handleDelete);
  app.on(["PUT", "PATCH"], MCP_PATH, (c) => {
    c.header("Allow", "GET, HEAD, POST, DELETE, OPTIONS");
    return sendTransportError(c, {
      status: 405,
      id: null,
      error: {
        code: RPC.INVALID_REQUEST,
        message: `${c.req.method} is not part of the Streamable HTTP transport: POST JSON-RPC messages, GET to probe, DELETE to end a session`,
      },
    });
  });
  // §7.1.1/§7.2: legacy paths clients probe get a machine-readable pointer to /mcp, whatever the method.
  for (const path of TRANSPORT_PATHS.not_served) {
    app.all(path, (c) => c.json(notServedBody(c.get("deps").config, { method: c.req.method, path }), 404));
  }
}

/** 413 in the transport's own JSON-RPC shape, past the configured size (src/http/middleware.ts limitBody). */
const limitMessage = (maxSize: number) =>
  limitBody(maxSize, (c) =>
    sendTransportError(c, {
      status: 413,
      id: null,
      error: {
        code: RPC.INVALID_REQUEST,
        message: `Payload Too Large: a message may be at most ${maxSize} bytes`,
      },
    }),
  );

/** The caller's live session named by Mcp-Session-Id, if any. */
async function liveSession(c: Context<AppEnv>) {
  const id = c.req.header("mcp-session-id");
  if (id === undefined || !plausibleSessionId(id)) return undefined;
  const s = await findSession(c.get("deps"), id);
  return s && ownedBy(s, await actingIdentity(c.get("deps"), { session: s, identity: c.get("identity") }))
    ? s
    : undefined;
}

/**
 * §7.3.4 liveness probe: always 200, with or without a session. A client that asks for the
 * optional server-to-client event stream (Accept: text/event-stream only) gets an empty stream
 * that closes at once with a long `retry`: this server never sends unsolicited messages, and
 * MCP's alternative — 405 — is exactly what §7.3.4 forbids on this path.
 */
async function handleGet(c: Context<AppEnv>) {
  const s = await liveSession(c);
  if (s) echoSession(c, s.id);
  c.header("Cache-Control", "no-store");
  if (wantsOnlyEventStream(c.req.header("accept"))) {
    c.header("Content-Type", "text/event-stream");
    return c.body(": this server sends no server-initiated messages; the stream ends here\nretry: 300000\n\n");
  }
  return c.json({ ready: true });
}

/** §7.3.2: 200 with an empty body, whatever the id (unknown, expired, already ended, absent). */
async function handleDelete(c: Context<AppEnv>) {
  const s = await liveSession(c);
  if (s) {
    await terminateSession(c.get("deps"), s.id);
    echoSession(c, s.id);
  }
  return c.body(null, 200);
}
