import type { MiddlewareHandler } from "hono";
import { AGENT_PROTOCOL } from "./middleware";
import type { AppEnv } from "./types";

const ALLOW_HEADERS =
  "Authorization, Content-Type, Idempotency-Key, X-Api-Key, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, OABP-Read-After";
const EXPOSE_HEADERS =
  "X-Request-Id, Idempotent-Replayed, Retry-After, X-Error-Message, X-Agent-Protocol, Mcp-Session-Id, OABP-Read-After, OABP-Read-From";
const ALLOW_METHODS = "GET, HEAD, POST, PUT, DELETE, OPTIONS";

/**
 * Open CORS (docs/design.md: `*` on reads; bearer tokens need no credentialed mode). Headers are set
 * with c.header() before the handler runs: hono/cors writes to c.res.headers, which makes Hono
 * rebuild every response and costs ~30% of a simple GET (bench/README.md).
 */
export function openCors(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method")) {
      const preflight = new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": "*",
          "Access-Control-Allow-Methods": ALLOW_METHODS,
          "Access-Control-Allow-Headers": c.req.header("access-control-request-headers") ?? ALLOW_HEADERS,
          "Access-Control-Max-Age": "86400",
          "X-Request-Id": c.get("requestId"),
          "X-Agent-Protocol": AGENT_PROTOCOL,
        },
      });
      return Promise.resolve(preflight);
    }
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Access-Control-Expose-Headers", EXPOSE_HEADERS);
    // Handed on, not awaited: nothing to do after the handler, so no extra promise per request.
    return next();
  };
}
