import type { RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { z } from "zod";
import { isExtensionKey, unknownFieldError, unknownFields, type UnknownField } from "../lib/unknown-fields";
import type { AppEnv } from "./types";

// Strict requests on every documented route (docs/decisions.md "Strict requests"): the router adds
// this check to each route it registers, so no schema needs `.strict()` and none can forget it. It
// runs after the route's own middleware (identity first, as everywhere) and before its validators.

/**
 * Query parameters every route tolerates: the registry api_key (AIP-1 §1.4, read by the identity
 * middleware) and the `profile` a registry's gateway appends beside it on routed requests, `x-` extensions, and what links pick up on the way (campaign tags, click ids, a
 * cache-buster) — a URL pasted from a newsletter must still work.
 */
const TRACKERS = new Set([
  "api_key",
  "profile",
  "_",
  "fbclid",
  "gclid",
  "dclid",
  "gbraid",
  "wbraid",
  "msclkid",
  "mc_cid",
  "mc_eid",
]);
const isToleratedQueryKey = (key: string) => TRACKERS.has(key) || key.startsWith("utm_") || isExtensionKey(key);

type Req = NonNullable<RouteConfig["request"]>;

function bodySchema(request: Req | undefined): z.ZodType | undefined {
  const content = request?.body?.content as Record<string, { schema?: unknown }> | undefined;
  const schema = content?.["application/json"]?.schema;
  return schema && typeof schema === "object" && "_zod" in schema ? (schema as z.ZodType) : undefined;
}

function queryKeys(request: Req | undefined): string[] {
  const q = request?.query as { _zod?: { def?: { shape?: object } } } | undefined;
  return Object.keys(q?._zod?.def?.shape ?? {});
}

/** The middleware refusing unknown body fields and query parameters of one route. */
export function strictRequest(route: Pick<RouteConfig, "request">): MiddlewareHandler<AppEnv> {
  const body = bodySchema(route.request);
  const known = queryKeys(route.request);
  const knownQuery = new Set(known);
  return async (c, next) => {
    const query: UnknownField[] = [];
    for (const key of Object.keys(c.req.queries()))
      if (!knownQuery.has(key) && !isToleratedQueryKey(key)) query.push({ path: key, key, known });
    if (query.length > 0) throw unknownFieldError(query, "query");
    if (body && (c.req.header("content-type") ?? "").toLowerCase().includes("json")) {
      // Malformed JSON is left to the route's validator (it answers malformed_json).
      const value: unknown = await c.req.json().catch(() => undefined);
      const found = unknownFields(body, value);
      if (found.length > 0) throw unknownFieldError(found, "body");
    }
    return next();
  };
}
