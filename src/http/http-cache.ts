import { createHash } from "node:crypto";
import { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { AppEnv } from "./types";

// HTTP caching by who may see it (RFC 9111; docs/decisions.md "Caching by who may see it"): a CDN
// or reverse proxy in front may keep an anonymous answer a few seconds and serve it stale while it
// revalidates, so crawlers are absorbed before they reach an instance. What depends on the caller
// (a creator sees its own pending_escrow, hidden missions and pending deliverables) is never stored
// by a shared cache: a request carrying any credential — Authorization, an api_key (query or
// X-Api-Key) or the session cookie — gets a `private` answer, whatever the handler said, and every
// GET answer says `Vary: Authorization, Cookie`, so a shared cache never hands an anonymous answer
// to a signed-in caller either.

/** Anonymous public reads: fresh 5 s, then served stale up to 30 s while revalidated. */
export const PUBLIC_READ_CACHE = "public, max-age=5, stale-while-revalidate=30";
export const PRIVATE_READ_CACHE = "private, no-cache";
/** The request headers a caller-dependent answer varies on (an api_key in the query is in the URL). */
export const CALLER_VARY = "Authorization, Cookie, X-Api-Key";

const PUBLIC_READS = /^(\/api)?\/(missions|leaderboard|agents)(\/|$)/;

/** Whether the request carries a credential of any kind (src/http/middleware.ts `identity`). */
function carriesCredential(c: Context<AppEnv>, sessionCookie: (c: Context<AppEnv>) => boolean): boolean {
  return (
    c.req.header("authorization") !== undefined ||
    c.req.header("x-api-key") !== undefined ||
    c.req.query("api_key") !== undefined ||
    sessionCookie(c)
  );
}

/** `public` → `private` in a Cache-Control value, other directives kept (max-age, immutable). */
function privatised(cacheControl: string): string {
  const kept = cacheControl
    .split(",")
    .map((d) => d.trim())
    .filter((d) => d !== "" && !/^(public|s-maxage=\d+|proxy-revalidate)$/i.test(d));
  return kept.some((d) => /^(private|no-store)$/i.test(d)) ? kept.join(", ") : ["private", ...kept].join(", ");
}

/**
 * Sets Cache-Control and Vary on every GET/HEAD BEFORE the handler runs (headers prepared on the
 * context keep @hono/node-server's fast response path; see bench/README.md, "Where the server's
 * time goes"): the public JSON reads are public for anonymous callers, everything else starts
 * `private, no-cache`; a handler may set its own (badges, feeds, documents). After the handler,
 * and only for a request with a credential (the anonymous fast path pays nothing), a `public`
 * the handler chose is turned `private`, since the answer may be that caller's view.
 */
export function callerCaching(sessionCookie: (c: Context<AppEnv>) => boolean): MiddlewareHandler<AppEnv> {
  const privatise = async (c: Context<AppEnv>, next: () => Promise<void>) => {
    await next();
    const cc = c.res.headers.get("cache-control");
    if (cc === null) c.res.headers.set("Cache-Control", PRIVATE_READ_CACHE);
    else if (/\b(public|s-maxage)\b/i.test(cc) || !/\b(private|no-store)\b/i.test(cc))
      c.res.headers.set("Cache-Control", privatised(cc));
  };
  return (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const credentialed = carriesCredential(c, sessionCookie);
    c.header("Cache-Control", !credentialed && PUBLIC_READS.test(c.req.path) ? PUBLIC_READ_CACHE : PRIVATE_READ_CACHE);
    c.header("Vary", VARY);
    return credentialed ? privatise(c, next) : next();
  };
}
const VARY = `${CALLER_VARY}, Accept-Encoding`;

/** RFC 9110 §13.1.2 If-None-Match (weak comparison, as for GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => {
    const v = t.trim();
    return v === "*" || v.replace(/^W\//, "") === bare;
  });
}

/**
 * A stored JSON text with its validator: 304 when the client holds it, else 200 with the body —
 * compressed here when the request accepts br or gzip and the compressed bytes are cached, so the
 * compression middleware need not rebuild the response (bench/README.md "What made anonymous reads
 * dearer"); on a miss it compresses and caches them as for any answer.
 */
export function sendJsonDoc(c: Context<AppEnv>, doc: { etag: string; body: string | Uint8Array }) {
  if (etagMatches(c.req.header("if-none-match"), doc.etag)) {
    c.header("ETag", doc.etag);
    return c.body(null, 304);
  }
  c.header("Content-Type", "application/json; charset=utf-8");
  const encoder = c.get("encoder");
  const encoded = encoder?.cache.cached(doc.body, encoder.coding);
  if (!encoder || !encoded) {
    c.header("ETag", doc.etag);
    return sendBody(c, doc.body);
  }
  c.set("encoder", undefined);
  // As compression() does: the compressed bytes are another representation (RFC 9110 §8.8.1).
  c.header("ETag", doc.etag.startsWith("W/") ? doc.etag : `W/${doc.etag}`);
  c.header("Content-Encoding", encoder.coding);
  return sendBody(c, encoded);
}

/** 200 with a body kept as text or as bytes already encoded (cached documents). */
export function sendBody(c: Context<AppEnv>, body: string | Uint8Array) {
  return typeof body === "string" ? c.body(body, 200) : c.body(body as Uint8Array<ArrayBuffer>, 200);
}

/** A weak validator of a JSON text: the first 162 bits of its SHA-256 (weak: a proxy may re-encode it). */
export function jsonEtag(body: string): string {
  return `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/**
 * A single public resource: the JSON text with an ETag computed from it, 304 when
 * If-None-Match holds it. Validators are ETags only — no Last-Modified: the records' own
 * timestamps (updated_at) do not move with every change (counters, payout state), and a date
 * with one-second resolution would let a cache answer If-Modified-Since with a stale 304.
 */
function sendJsonText(c: Context<AppEnv>, body: string) {
  return sendJsonDoc(c, { etag: jsonEtag(body), body });
}

/**
 * A route's answer whose JSON body was serialised ahead — to hash its ETag, to join cached
 * documents, to replay a stored answer — typed as `c.json(value, 200)` would be, so the route's
 * response schema still checks `T`. The one place such a body is vouched for (docs/architecture.md
 * "The verb and its context").
 */
type PreSerialized<T> = TypedResponse<JSONParsed<T>, 200, "json">;
export const preSerialized = <T>(res: Response): PreSerialized<T> => res as unknown as PreSerialized<T>;

/** `value` as JSON with its ETag and the 304 of sendJsonText, typed as the route's JSON answer. */
export function sendJsonValue<T>(c: Context<AppEnv>, value: T): PreSerialized<T> {
  return preSerialized<T>(sendJsonText(c, JSON.stringify(value)));
}

/** OpenAPI pieces of a conditional GET: the If-None-Match request header and the 304 answer. */
const ConditionalHeaders = z.object({
  "if-none-match": z
    .string()
    .max(1000)
    .optional()
    .openapi({ description: "An ETag from an earlier answer: 304 Not Modified while it still holds" }),
});
const notModified = { 304: { description: "Not modified: If-None-Match matched the current ETag" } } as const;
/** Both, spread into a route's spec (src/http/route.ts): a GET answered by sendJsonValue. */
export const conditionalGet = { request: { headers: ConditionalHeaders }, responses: notModified };
