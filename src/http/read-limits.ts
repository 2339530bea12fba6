import type { MiddlewareHandler } from "hono";
import { createHash } from "node:crypto";
import type { RatePolicy } from "../env";
import { callerKey, clientNetwork } from "./client-ip";
import { sendError } from "./errors";
import type { AppEnv } from "./types";
import { isLongPoll, isReadRequest } from "./read-requests";

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
 * A refused read is answered after `ms` (READ_REFUSAL_DELAY_MS), so a client that re-issues
 * each 429 at once makes the server answer a few refusals a second, not hundreds
 * (docs/abuse-edge.md "Read limits"). At most `maxHeld` refusals per key wait; past that they are
 * answered at once, so the delay never holds more than that many sockets of one caller (and the
 * connection cap bounds one network's sockets anyway). A pause, not a reading of time.
 */
export type RefusalDelay = (key: string) => Promise<void>;

/** A read refused for the read limits (429) is answered after this many ms, so re-issuing refusals at once costs little. */
export const READ_REFUSAL_DELAY_MS = 1000;

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

const STREAM_PATHS = new Set(["/events", "/api/events"]);

export function readLimits(limits: ReadLimits): MiddlewareHandler<AppEnv> {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const maxCallers = limits.maxCallers ?? 100_000;
  const { quota, windowSeconds } = limits.policy;
  const perMs = quota / (windowSeconds * 1000);
  return async (c, next) => {
    if (!isReadRequest(c.req.method, c.req.path) || STREAM_PATHS.has(c.req.path)) return next();
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
 * Static files served from memory (the web UI's scripts and styles, health probes): no query, no
 * per-caller work worth bounding, and a page load behind a NAT fetches several at once. They are
 * exempt from the in-flight count so that the API reads' share stays small (docs/abuse-edge.md
 * "Read limits").
 */
const STATIC_READ = /^\/(assets\/|robots\.txt$|llms\.txt$|(api\/)?(health|ready)$)/;

export interface ReadsInFlight {
  /** Reads one caller may have admitted (running + waiting); past it, 429 `reads_in_flight`. */
  perCaller: number;
  /** Of those, how many run at once; the rest wait, in order, for one of the caller's own to end. */
  runningPerCaller: number;
  delay?: RefusalDelay;
}

/**
 * Reads in flight per credential, checked BEFORE identity (no database work for a refusal): the
 * bearer token or API key given (hashed), else the client network. A caller holds at most
 * `perCaller` reads admitted, of which `runningPerCaller` run at once; its others wait in its own
 * FIFO, so its burst takes at most that share of the event loop and the pool and queues behind
 * itself, never in front of another caller (docs/abuse-edge.md "Read limits"). Past `perCaller`
 * it is refused at the door, so its refusals cost next to nothing. An inbox long poll is not
 * counted here: it holds one of the agent's long-lived connection slots (isLongPoll), so it never
 * blocks the same agent's other reads while it waits.
 */
export function readsInFlight(limits: ReadsInFlight): MiddlewareHandler<AppEnv> {
  const callers = new Map<string, { admitted: number; running: number; waiting: (() => void)[] }>();
  const running = Math.min(limits.runningPerCaller, limits.perCaller);
  return async (c, next) => {
    const path = c.req.path;
    if (!isReadRequest(c.req.method, path) || STREAM_PATHS.has(path) || STATIC_READ.test(path)) return next();
    // A long poll holds a long-lived connection slot instead (features/events, events.inbox.ts).
    if (isLongPoll(c.req.method, path, c.req.query("wait"))) return next();
    const cred = c.req.header("authorization") ?? c.req.header("x-api-key");
    const key = cred ? `cred:${createHash("sha256").update(cred).digest("base64url")}` : `net:${clientNetwork(c)}`;
    let me = callers.get(key);
    if (me && me.admitted >= limits.perCaller) {
      await limits.delay?.(key);
      c.header("Retry-After", "1");
      return sendError(c, "RATE_LIMITED", `more than ${limits.perCaller} reads in flight for this caller`, {
        reason: "reads_in_flight",
        limit: limits.perCaller,
      });
    }
    if (!me) callers.set(key, (me = { admitted: 0, running: 0, waiting: [] }));
    const mine = me;
    mine.admitted++;
    try {
      // A turn is handed over by the caller's read that ends (below), never taken out of order.
      if (mine.running >= running) await new Promise<void>((r) => mine.waiting.push(r));
      else mine.running++;
      try {
        await next();
      } finally {
        const nextTurn = mine.waiting.shift();
        if (nextTurn) nextTurn();
        else mine.running--;
      }
    } finally {
      if (--mine.admitted === 0) callers.delete(key);
    }
  };
}
