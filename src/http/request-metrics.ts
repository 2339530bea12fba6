import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { processMetrics } from "../lib/metrics";
import type { AppEnv } from "./types";

/**
 * Counts every request and its latency by route TEMPLATE (`/missions/:id`, never the raw path:
 * bounded label cardinality), method and status class, for GET /metrics. The
 * template is the one of the handler that answered (read after `next()`); a request no route
 * matched counts as "unmatched". Registered first, so the latency covers every middleware.
 */
export function requestMetrics(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const path = routePath(c);
      const route = !path || path === "*" || path === "/*" ? "unmatched" : path;
      processMetrics.observeRequest(route, c.req.method, c.res.status, (performance.now() - started) / 1000);
    }
  };
}
