import type { MiddlewareHandler } from "hono";
import { callerKey } from "./client-ip";
import { sendError } from "./errors";
import type { AppEnv } from "./types";

// Request bytes in flight, bounded per caller and per process (issue 13 finding 6: 1,400
// concurrent 1 MiB submissions from one agent took RSS to 5 GB). A body is counted from the moment
// its request passes identity until its response is ready: at its declared Content-Length, or at
// the body limit when it is streamed without one (the body limit cuts it there). Past the caller's share → 429; past the
// process total → 503; both with Retry-After. Process memory is what is bounded, so the counter
// is per process on purpose (unlike rate limits, nothing here needs to be shared by instances).

export interface InflightLimits {
  perCaller: number;
  total: number;
  /** Bodies without Content-Length are reserved at this size (the configured body limit). */
  bodyLimit: number;
  trustProxy: boolean;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

export function inflightBytes(limits: InflightLimits): MiddlewareHandler<AppEnv> {
  const byCaller = new Map<string, number>();
  let total = 0;
  return async (c, next) => {
    if (!BODY_METHODS.has(c.req.method)) return next();
    // HTTP/1.1 framing: a body comes with Content-Length or Transfer-Encoding; neither → no body.
    const length = c.req.header("content-length");
    const declared = Number(length);
    const size =
      length !== undefined
        ? Number.isFinite(declared) && declared >= 0
          ? Math.min(declared, limits.bodyLimit)
          : limits.bodyLimit
        : c.req.header("transfer-encoding") !== undefined
          ? limits.bodyLimit
          : 0;
    if (size === 0) return next();
    const key = callerKey(c);
    const mine = byCaller.get(key) ?? 0;
    if (mine + size > limits.perCaller) {
      c.header("Retry-After", "1");
      return sendError(c, "RATE_LIMITED", `more than ${limits.perCaller} request bytes in flight for this caller`, {
        reason: "inflight_bytes_caller",
        limit_bytes: limits.perCaller,
        retry_after_seconds: 1,
      });
    }
    if (total + size > limits.total) {
      c.header("Retry-After", "1");
      return sendError(c, "SERVICE_UNAVAILABLE", "the server has too many request bytes in flight; retry shortly", {
        reason: "inflight_bytes_total",
        retry_after_seconds: 1,
      });
    }
    byCaller.set(key, mine + size);
    total += size;
    try {
      await next();
    } finally {
      total -= size;
      const left = (byCaller.get(key) ?? size) - size;
      if (left <= 0) byCaller.delete(key);
      else byCaller.set(key, left);
    }
  };
}
