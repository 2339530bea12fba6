import type { Context, MiddlewareHandler } from "hono";
import { processMetrics } from "../lib/metrics";
import { callerKey } from "./client-ip";
import { sendError } from "./errors";
import type { AppEnv } from "./types";

// Request bytes in flight, bounded per process and per caller (docs/abuse.md "In-flight request
// bytes"). A body counts at its declared Content-Length, or at the body limit when it is streamed
// without one (the body limit cuts it there), from the moment its request is admitted until its
// response is ready. Both checks run BEFORE any byte of the body is read (app.ts puts the JSON
// body reader after them): the process total first, on headers alone, so a refusal costs no
// query and no buffer however many agents send; then the caller's share once identity is known.
// Past the process total → 503 `inflight_bytes_total`; past the caller's share → 429
// `inflight_bytes_caller`; both with Retry-After. Process memory is what is bounded, so the
// counters are per process on purpose (nothing here needs to be shared by instances); the bytes
// admitted are the gauge `oabp_request_bytes_in_flight` (src/lib/metrics.ts).

/** Request body bytes in flight at once per caller (agent, else client network); 429 beyond. */
export const INFLIGHT_BYTES_PER_CALLER = 4 * 1024 * 1024;

export interface InflightLimits {
  perCaller: number;
  total: number;
  /** Bodies without Content-Length are reserved at this size (the configured body limit). */
  bodyLimit: number;
  trustProxy: boolean;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** The bytes a request's body may occupy, from its headers alone; 0 when it has none. */
function reservedSize(c: Context<AppEnv>, bodyLimit: number): number {
  if (!BODY_METHODS.has(c.req.method)) return 0;
  // HTTP/1.1 framing: a body comes with Content-Length or Transfer-Encoding; neither → no body.
  const length = c.req.header("content-length");
  const declared = Number(length);
  if (length !== undefined)
    return Number.isFinite(declared) && declared >= 0 ? Math.min(declared, bodyLimit) : bodyLimit;
  return c.req.header("transfer-encoding") !== undefined ? bodyLimit : 0;
}

/**
 * The two gates sharing one budget: `total` goes before identity (headers only), `perCaller`
 * after it; the body is read only after both.
 */
export function inflightBytes(limits: InflightLimits): {
  total: MiddlewareHandler<AppEnv>;
  perCaller: MiddlewareHandler<AppEnv>;
} {
  const byCaller = new Map<string, number>();
  let total = 0;
  const totalGate = async (c: Context<AppEnv>, next: () => Promise<void>, size: number) => {
    if (total + size > limits.total) {
      processMetrics.requestBytesRefused("total");
      c.header("Retry-After", "1");
      // The unread body is not drained: the connection closes after the answer.
      c.header("Connection", "close");
      return sendError(c, "SERVICE_UNAVAILABLE", "the server has too many request bytes in flight; retry shortly", {
        reason: "inflight_bytes_total",
        retry_after_seconds: 1,
      });
    }
    total += size;
    processMetrics.requestBytesAdmitted(size);
    try {
      await next();
    } finally {
      total -= size;
      processMetrics.requestBytesAdmitted(-size);
    }
  };
  const callerGate = async (c: Context<AppEnv>, next: () => Promise<void>, size: number) => {
    const key = callerKey(c);
    const mine = byCaller.get(key) ?? 0;
    if (mine + size > limits.perCaller) {
      processMetrics.requestBytesRefused("caller");
      c.header("Retry-After", "1");
      c.header("Connection", "close");
      return sendError(c, "RATE_LIMITED", `more than ${limits.perCaller} request bytes in flight for this caller`, {
        reason: "inflight_bytes_caller",
        limit_bytes: limits.perCaller,
        retry_after_seconds: 1,
      });
    }
    byCaller.set(key, mine + size);
    try {
      await next();
    } finally {
      const left = (byCaller.get(key) ?? size) - size;
      if (left <= 0) byCaller.delete(key);
      else byCaller.set(key, left);
    }
  };
  // A request without a body (every read) passes both without a promise of its own.
  const gated =
    (gate: typeof totalGate): MiddlewareHandler<AppEnv> =>
    (c, next) => {
      const size = reservedSize(c, limits.bodyLimit);
      return size === 0 ? next() : gate(c, next, size);
    };
  return { total: gated(totalGate), perCaller: gated(callerGate) };
}
