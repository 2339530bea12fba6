import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { SPAN_ERROR, type Tracing } from "../lib/tracing";
import type { AppEnv } from "./types";

/**
 * One span per request: named `<METHOD> <route template>`, with the status code and
 * the request id; a child of the caller's W3C `traceparent`. Installed only when tracing is on.
 */
export function traceRequests(tracing: Tracing): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    const span = tracing.startRequestSpan(method, c.req.raw.headers, {
      "http.request.method": method,
      "url.path": c.req.path,
      "oabp.request_id": c.get("requestId"),
    });
    try {
      await next();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SPAN_ERROR });
      span.end();
      throw err;
    }
    const route = routePath(c, -1);
    span.updateName(`${method} ${route}`);
    span.setAttribute("http.route", route);
    span.setAttribute("http.response.status_code", c.res.status);
    if (c.res.status >= 500) span.setStatus({ code: SPAN_ERROR });
    span.end();
  };
}
