import { OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "../lib/errors";
import { validationError } from "./errors";
import { strictRequest } from "./strict";
import type { AppEnv } from "./types";

export const ErrorSchema = z
  .object({
    error: z.string().openapi({ description: "Stable error code", example: "INVALID_PARAMETER", enum: ERROR_CODES }),
    message: z.string(),
    request_id: z.string().openapi({ example: "req_01JZ0000000000000000000000" }),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("Error");

const STATUS_TEXT: Record<number, string> = {
  400: "Invalid parameter or malformed JSON",
  401: "Missing or invalid credentials",
  403: "Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit)",
  404: "Not found",
  409: "Conflict with the current state",
  413: "Body too large",
  415: "Content-Type must be application/json",
  422: "Semantically invalid request",
  429: "Rate limited",
  500: "Internal error",
  503: "Service unavailable",
};

/**
 * The error responses a route can produce, declared so /openapi.json documents failures. 401 is on
 * every route: the identity middleware refuses a malformed or expired bearer before any route runs,
 * public reads included.
 */
export function errors(...codes: ErrorCode[]) {
  const statuses = new Set<number>([400, 401, 413, 415, 500, ...codes.map((c) => ERROR_STATUS[c])]);
  const out: Record<number, { description: string; content: { "application/json": { schema: typeof ErrorSchema } } }> =
    {};
  for (const s of [...statuses].sort()) {
    out[s] = { description: STATUS_TEXT[s] ?? "Error", content: { "application/json": { schema: ErrorSchema } } };
  }
  return out;
}

export const jsonBody = <T extends z.ZodTypeAny>(schema: T, description = "JSON body") => ({
  body: { required: true, description, content: { "application/json": { schema } } },
});

/** A JSON body the client may leave out (the verb's defaults stand for all of it). */
export const optionalJsonBody = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  body: { required: false, description, content: { "application/json": { schema } } },
});

export const jsonResponse = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/**
 * A router whose validation failures answer our error body (400 INVALID_PARAMETER), and whose
 * every route refuses unknown body fields and query parameters (./strict.ts) after its own middleware.
 */
export function router() {
  const r = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });
  const register = r.openapi;
  r.openapi = ((route: RouteConfig, ...rest: unknown[]) => {
    const own = route.middleware === undefined ? [] : [route.middleware].flat();
    return (register as (...a: unknown[]) => unknown)(
      { ...route, middleware: [...own, strictRequest(route)] },
      ...rest,
    );
  }) as typeof r.openapi;
  return r;
}
