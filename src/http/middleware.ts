import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Deps } from "../deps";
import { AppError } from "../lib/errors";
import { newId } from "../lib/ids";
import { jsonTextHasLoneSurrogate, jsonTooDeep, MAX_JSON_DEPTH } from "../lib/json-text";
import { sendError } from "./errors";
import { csrfOk, readSessionCookie } from "./session-cookie";
import type { AppEnv, Identity } from "./types";

/** OADP signal sent on every response (docs/protocols/OADP-discovery.txt, "HTTP Header"). */
export const AGENT_PROTOCOL = "oadp/1.0";

/**
 * Request id and the OADP signal (`X-Agent-Protocol: oadp/1.0`) on every response, errors and 404s
 * included; one structured log line per request (path only: a query may carry an api_key).
 * Headers go through c.header() before next(): writing c.res.headers afterwards costs ~30 %.
 */
export function requestContext(deps: Deps): MiddlewareHandler<AppEnv> {
  const { logger } = deps;
  const logged = async (c: Context<AppEnv>, next: () => Promise<void>, requestId: string) => {
    const started = performance.now();
    await next();
    logger.info(
      {
        request_id: requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      "request",
    );
  };
  return (c, next) => {
    const requestId = newId("req");
    c.set("requestId", requestId);
    c.set("deps", deps);
    c.header("X-Request-Id", requestId);
    c.header("X-Agent-Protocol", AGENT_PROTOCOL);
    // Without the request log (LOG_LEVEL above info) nothing is left to do after the handler.
    return logger.isLevelEnabled("info") ? logged(c, next, requestId) : next();
  };
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** A body whose size is known only by reading it: chunked (Transfer-Encoding), not Content-Length. */
const chunked = (c: Context<AppEnv>) =>
  c.req.header("transfer-encoding") !== undefined || c.req.header("content-length") === undefined;

/**
 * The body size limit, decided from Content-Length when there is one (Node's parser then reads
 * exactly that many bytes). hono's bodyLimit reads `c.req.raw.body` first, which turns
 * @hono/node-server's lightweight request into a full WHATWG Request with a stream (a fifth of an
 * authenticated POST's CPU in the profile, bench/README.md "The body read"); it is kept for chunked
 * bodies only, whose size is known only by reading them.
 */
export function limitBody(maxSize: number, tooLarge: (c: Context<AppEnv>) => Response | Promise<Response>) {
  const streaming = bodyLimit({ maxSize, onError: (c) => tooLarge(c as Context<AppEnv>) });
  const limited: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (chunked(c)) return streaming(c, next);
    return Number(c.req.header("content-length")) > maxSize ? tooLarge(c) : next();
  };
  return limited;
}

/** 415 for a body that is not JSON, 413 past the configured size (docs/design.md wire conventions). */
export function jsonOnly(limitBytes: number): MiddlewareHandler<AppEnv> {
  const limit = limitBody(limitBytes, (c) =>
    sendError(c, "PAYLOAD_TOO_LARGE", `request body exceeds ${limitBytes} bytes`, { limit_bytes: limitBytes }),
  );
  const gate: MiddlewareHandler<AppEnv> = async (c, next) => {
    const length = c.req.header("content-length");
    const hasBody = length !== undefined ? length !== "0" : c.req.header("transfer-encoding") !== undefined;
    if (hasBody) {
      const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (type !== "application/json" && !type.endsWith("+json")) {
        return sendError(c, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json", {
          received: type || null,
        });
      }
    }
    // Within the size limit, a JSON body holding a lone surrogate is a 400 (src/lib/json-text.ts);
    // the text is cached, so the route's own c.req.json() does not read the body again.
    return limit(c, async () => {
      const text = await c.req.text();
      // Depth is bounded on the text, before anything parses it (src/lib/json-text.ts).
      if (jsonTooDeep(text)) {
        throw new AppError("INVALID_PARAMETER", `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`, {
          reason: "too_deep",
          limit_depth: MAX_JSON_DEPTH,
          fix: `flatten the body to at most ${MAX_JSON_DEPTH} nested objects/arrays`,
        });
      }
      if (jsonTextHasLoneSurrogate(text)) {
        throw new AppError(
          "INVALID_PARAMETER",
          "a string contains a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape)",
          { reason: "invalid_text" },
        );
      }
      // A chunked body's stream is consumed: a route's own limit reads the raw request again.
      if (chunked(c)) {
        const raw = c.req.raw;
        c.req.raw = new Request(raw.url, {
          method: raw.method,
          headers: raw.headers,
          body: text === "" ? null : text,
          signal: raw.signal,
        });
      }
      await next();
    });
  };
  return (c, next) => (BODY_METHODS.has(c.req.method) ? gate(c, next) : next());
}

/** Resolves who is calling: bearer session, admin token, or a registry-bound api_key (AIP-1 §1.4). */
/**
 * Where an identity comes from: the auth feature resolves credentials, the heartbeats feature
 * records presence. app.ts passes them in, so the http layer imports no feature.
 */
export interface IdentitySources {
  resolveIdentity(deps: Deps, creds: { bearer?: string | undefined; apiKey?: string | undefined }): Promise<Identity>;
  markSeen(ctx: { deps: Deps; now: Date }, address: string): Promise<void>;
}

export function identity({ resolveIdentity, markSeen }: IdentitySources): MiddlewareHandler<AppEnv> {
  // No credential at all: anonymous, decided without a promise of its own.
  return (c, next) => {
    const auth = c.req.header("authorization");
    const apiKey = c.req.query("api_key") ?? c.req.header("x-api-key");
    const cookie = auth || apiKey ? undefined : readSessionCookie(c, c.get("deps").config.publicUrl);
    if (!auth && !apiKey && !cookie) {
      c.set("identity", ANONYMOUS);
      return next();
    }
    return resolveCaller(c, next, { auth, apiKey, cookie });
  };
  async function resolveCaller(
    c: Context<AppEnv>,
    next: () => Promise<void>,
    { auth, apiKey, cookie }: { auth?: string | undefined; apiKey?: string | undefined; cookie?: string | undefined },
  ): Promise<void> {
    const deps = c.get("deps");
    if (cookie) {
      // Browser session. An expired or revoked cookie reads as anonymous
      // (pages still render, signing in again works); a live one must echo the CSRF token on writes.
      const who = await resolveIdentity(deps, { bearer: cookie }).catch((err: unknown) => {
        if (err instanceof AppError && err.code === "UNAUTHORIZED")
          return { kind: "anonymous", reason: "none" } as const;
        throw err;
      });
      if (who.kind !== "agent") {
        c.set("identity", { kind: "anonymous", reason: "none" });
        return next();
      }
      if (!SAFE_METHODS.has(c.req.method) && !csrfOk(c, cookie)) {
        throw new AppError("FORBIDDEN", "a request authenticated by the session cookie must send X-CSRF-Token", {
          reason: "csrf_token_missing_or_wrong",
        });
      }
      c.set("identity", who);
      await touchSeen(c, who.address, markSeen);
      return next();
    }
    let bearer: string | undefined;
    if (auth) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
      if (!m) throw new AppError("UNAUTHORIZED", "Authorization must be 'Bearer <token>'");
      bearer = m[1];
    }
    const who = await resolveIdentity(deps, { bearer, apiKey });
    c.set("identity", who);
    // ClawFinder/Agent Mesh: every authenticated request marks the agent seen (throttled to one
    // conditional write per minute; best effort: a failed touch never fails the request).
    if (who.kind === "agent") await touchSeen(c, who.address, markSeen);
    return next();
  }
}

const ANONYMOUS: Identity = Object.freeze({ kind: "anonymous", reason: "none" });

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

async function touchSeen(c: Context<AppEnv>, address: string, markSeen: IdentitySources["markSeen"]): Promise<void> {
  const deps = c.get("deps");
  await markSeen({ deps, now: deps.clock.now() }, address).catch((err: unknown) =>
    deps.logger.warn({ err, request_id: c.get("requestId") }, "last_seen_at touch failed"),
  );
}
