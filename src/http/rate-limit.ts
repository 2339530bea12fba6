import type { Context, MiddlewareHandler } from "hono";
import type { RatePolicy } from "../env";
import { AppError } from "../lib/errors";
import { takeTokens } from "../lib/token-bucket";
import { clientNetwork } from "./client-ip";
import type { AppEnv } from "./types";
import { isReadRequest } from "./read-requests";

// Rate limits shared by every instance (docs/abuse-edge.md "Rate limits"): Postgres token buckets
// per client network (IPv4 address, IPv6 /64) and per agent. An anonymous write takes a token from
// its network's bucket; a signed-in one from the agent's, then from its network's bucket of
// signed-in writes; the session-creating routes (POST /auth/nonce, MCP initialize) take one from
// the stricter per-network session bucket instead.
// Answers carry the IETF draft headers (draft-ietf-httpapi-ratelimit-headers-10):
//   RateLimit-Policy: "write-agent";q=60;w=60, "write-net-agents";q=600;w=60
//   RateLimit: "write-agent";r=59;t=1, "write-net-agents";r=598;t=1
// (r: whole tokens left; t: seconds until the bucket is full again), and a refusal is 429
// RATE_LIMITED with Retry-After (seconds until one token is back). The admin token is exempt.

export type RateClass = "write" | "session";

interface Check {
  name: string;
  key: string;
  policy: RatePolicy;
}

function checksFor(c: Context<AppEnv>, cls: RateClass): Check[] {
  const deps = c.get("deps");
  const limits = deps.config.rateLimits;
  const who = c.get("identity");
  if (!limits || who?.kind === "admin") return [];
  const net = clientNetwork(c); // IPv4 address or IPv6 /64 (docs/abuse-edge.md "Client networks")
  if (cls === "session") return [{ name: "session-ip", key: `session:ip:${net}`, policy: limits.sessionIp }];
  // Signed in: the agent's own bucket first, then the network's bucket of signed-in writes — an
  // anonymous neighbour on a shared address spends only the anonymous bucket, never this one.
  if (who?.kind === "agent")
    return [
      { name: "write-agent", key: `write:agent:${who.address}`, policy: limits.writeAgent },
      { name: "write-net-agents", key: `write:net-agents:${net}`, policy: limits.writeNetAgents },
    ];
  return [{ name: "write-ip", key: `write:ip:${net}`, policy: limits.writeIp }];
}

/**
 * Takes the tokens of `cls` for this request, sets the RateLimit headers, and throws 429
 * RATE_LIMITED at the first empty bucket (later buckets are then not debited).
 */
export async function enforceRateLimit(c: Context<AppEnv>, cls: RateClass): Promise<void> {
  const checks = checksFor(c, cls);
  if (checks.length === 0) return;
  const deps = c.get("deps");
  const now = deps.clock.now();
  const seen = await takeTokens(deps.database.db, checks, now);
  c.header(
    "RateLimit-Policy",
    seen.map(({ check: k }) => `"${k.name}";q=${k.policy.quota};w=${k.policy.windowSeconds}`).join(", "),
  );
  c.header(
    "RateLimit",
    seen.map(({ check: k, verdict: v }) => `"${k.name}";r=${v.remaining};t=${v.resetSeconds}`).join(", "),
  );
  const refused = seen.find((s) => !s.verdict.ok);
  if (refused && !refused.verdict.ok) {
    const { check, verdict } = refused;
    throw new AppError(
      "RATE_LIMITED",
      `rate limit ${check.name} (${check.policy.quota} per ${check.policy.windowSeconds} s) exceeded; retry after ${verdict.retryAfterSeconds} s`,
      {
        reason: "rate_limited",
        policy: check.name,
        retry_after_seconds: verdict.retryAfterSeconds,
      },
    );
  }
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** POST /auth/nonce creates the state a SIWE session starts from: the session bucket, not the write one. */
const SESSION_PATHS = new Set(["/auth/nonce", "/api/auth/nonce"]);

/** Every REST write; `skip` names paths that enforce their own (the MCP endpoint). */
export function rateLimits(skip: (path: string) => boolean): MiddlewareHandler<AppEnv> {
  const limited = async (c: Context<AppEnv>, next: () => Promise<void>) => {
    await enforceRateLimit(c, SESSION_PATHS.has(c.req.path) ? "session" : "write");
    return next();
  };
  return (c, next) =>
    !WRITE_METHODS.has(c.req.method) || skip(c.req.path) || isReadRequest(c.req.method, c.req.path)
      ? next()
      : limited(c, next);
}
