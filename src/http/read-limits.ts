import type { MiddlewareHandler } from "hono";
import { createHash } from "node:crypto";
import type { RatePolicy } from "../env";
import { callerKey, clientNetwork } from "./client-ip";
import { sendError } from "./errors";
import type { AppEnv } from "./types";

// Reads that cost what they return (docs/abuse-edge.md "Read limits"): every GET/HEAD except the
// long-lived event streams (they hold a connection slot instead, features/events) spends a token
// of its caller — the signed-in agent, else the client network (IPv4 address, IPv6 /64) — and
// holds one of its credential's in-flight reads until its response is ready (readsInFlight,
// before identity). Past either, 429 with Retry-After. The defaults are generous (a browser or a polite agent never meets them): they
// stop one caller from keeping dozens of reads in flight to crowd out everyone else. Kept in
// this process's memory on purpose: a read must not pay a database write, and what is bounded
// is this process's work (the limit is per instance).

export interface ReadLimits {
  policy: RatePolicy;
  /** Milliseconds now (the injected clock's). */
  now: () => number;
  /** Buckets kept at most; the least recently used are forgotten first (a full bucket is no loss). */
  maxCallers?: number;
  /** Refusals are answered after this delay (refusalDelay). */
  delay?: RefusalDelay;
}

/**
 * A refused read is answered after `ms` (OABP_READ_REFUSAL_DELAY_MS), so a client that re-issues
 * each 429 at once makes the server answer a few refusals a second, not hundreds
 * (docs/abuse-edge.md "Read limits"). At most `maxHeld` refusals per key wait; past that they are
 * answered at once, so the delay never holds more than that many sockets of one caller (and the
 * connection cap bounds one network's sockets anyway). A pause, not a reading of time.
 */
export type RefusalDelay = (key: string) => Promise<void>;

export function refusalDelay(ms: number, maxHeld = 64): RefusalDelay {
  const held = new Map<string, number>();
  return async (key) => {
    const mine = held.get(key) ?? 0;
    if (ms <= 0 || mine >= maxHeld) return;
    held.set(key, mine + 1);
    try {
      await new Promise((r) => setTimeout(r, ms));
    } finally {
      const left = (held.get(key) ?? 1) - 1;
      if (left <= 0) held.delete(key);
      else held.set(key, left);
    }
  };
}

const READ_METHODS = new Set(["GET", "HEAD"]);
const STREAM_PATHS = new Set(["/events", "/api/events"]);

export function readLimits(limits: ReadLimits): MiddlewareHandler<AppEnv> {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const maxCallers = limits.maxCallers ?? 100_000;
  const { quota, windowSeconds } = limits.policy;
  const perMs = quota / (windowSeconds * 1000);
  return async (c, next) => {
    if (!READ_METHODS.has(c.req.method) || STREAM_PATHS.has(c.req.path)) return next();
    if (c.get("identity")?.kind === "admin") return next();
    const key = callerKey(c);
    const now = limits.now();
    const b = buckets.get(key) ?? { tokens: quota, at: now };
    b.tokens = Math.min(quota, b.tokens + Math.max(0, now - b.at) * perMs);
    b.at = Math.max(b.at, now);
    buckets.delete(key); // re-inserted last: the map's order is least recently used first
    buckets.set(key, b);
    if (buckets.size > maxCallers) buckets.delete(buckets.keys().next().value!);
    if (b.tokens < 1) {
      const retry = Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000));
      await limits.delay?.(key);
      c.header("Retry-After", String(retry));
      return sendError(c, "RATE_LIMITED", `read limit (${quota} per ${windowSeconds} s) exceeded`, {
        reason: "rate_limited",
        policy: "read",
        retry_after_seconds: retry,
      });
    }
    b.tokens -= 1;
    return next();
  };
}

/**
 * Reads in flight per credential, checked BEFORE identity (no database work for a refusal): the
 * bearer token or API key given (hashed), else the client network. One caller keeping dozens of
 * reads in flight is refused at the door, so its refusals cost next to nothing.
 */
export function readsInFlight(perCaller: number, delay?: RefusalDelay): MiddlewareHandler<AppEnv> {
  const inflight = new Map<string, number>();
  return async (c, next) => {
    if (!READ_METHODS.has(c.req.method) || STREAM_PATHS.has(c.req.path)) return next();
    const cred = c.req.header("authorization") ?? c.req.header("x-api-key");
    const key = cred ? `cred:${createHash("sha256").update(cred).digest("base64url")}` : `net:${clientNetwork(c)}`;
    const mine = inflight.get(key) ?? 0;
    if (mine >= perCaller) {
      await delay?.(key);
      c.header("Retry-After", "1");
      return sendError(c, "RATE_LIMITED", `more than ${perCaller} reads in flight for this caller`, {
        reason: "reads_in_flight",
        limit: perCaller,
      });
    }
    inflight.set(key, mine + 1);
    try {
      await next();
    } finally {
      const left = (inflight.get(key) ?? 1) - 1;
      if (left <= 0) inflight.delete(key);
      else inflight.set(key, left);
    }
  };
}
