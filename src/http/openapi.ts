import { OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { Reason } from "../lib/error-reasons";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "../lib/errors";
import { markAnswers, rememberAnswers, validationError } from "./errors";
import { strictRequest } from "./strict";
import type { AppEnv } from "./types";

const ErrorSchema = z
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

/** A code a route answers, alone or with the `details.reason`s it answers it with (docs/api.md "Errors"). */
export type ErrorEntry = ErrorCode | { [C in ErrorCode]: readonly [C, ...Reason<C>[]] }[ErrorCode];

/**
 * What every route may answer besides its own entries: the identity middleware refuses a malformed
 * or expired bearer before any route runs (public reads included); the body gates, the strict
 * request check (./strict.ts) and the database's refusals of what the client sent (./errors.ts
 * asAppError) stand before or under every handler; the rate limits (./rate-limit.ts) count every
 * path; a transaction Postgres rolled back on a deadlock or a serialization conflict is retried.
 */
const EVERY_ROUTE: readonly ErrorEntry[] = [
  ["INVALID_PARAMETER", "invalid_text", "malformed_json", "too_deep", "unknown_parameter"],
  "UNAUTHORIZED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  ["RATE_LIMITED", "rate_limited"],
  "INTERNAL_ERROR",
  ["SERVICE_UNAVAILABLE", "retry"],
];

/** What every write answers besides: a request signed in by the session cookie needs its CSRF token. */
export const EVERY_WRITE: readonly ErrorEntry[] = [["FORBIDDEN", "csrf_token_missing_or_wrong"]];

const EVERY_ROUTE_REASONS = reasonsOf(EVERY_ROUTE);

/** Each code an entry list names, with the reasons declared for it (empty: answered without a listed reason). */
function reasonsOf(entries: readonly ErrorEntry[]): Map<ErrorCode, Set<string>> {
  const out = new Map<ErrorCode, Set<string>>();
  for (const e of entries) {
    const [code, ...reasons] = typeof e === "string" ? [e] : e;
    const set = out.get(code) ?? new Set<string>();
    for (const r of reasons) set.add(r);
    out.set(code, set);
  }
  return out;
}

/** Remembers what a declared route answers (./route.ts), for the check of thrown reasons (./errors.ts). */
export function declareReasons(route: object, entries: readonly ErrorEntry[]) {
  rememberAnswers(route, reasonsOf([...EVERY_ROUTE, ...entries]));
}

/** The error body of one code with the `details.reason`s this route answers it with. */
function codeSchema(code: ErrorCode, reasons: ReadonlySet<string>) {
  const [first = "", ...more] = [...reasons].sort();
  const schema = ErrorSchema.extend({
    error: z.literal(code),
    details: z
      .object({ reason: z.enum([first, ...more]).optional() })
      .catchall(z.unknown())
      .optional(),
  });
  // The bodies every route shares are one component each, not a copy per route.
  const shared = EVERY_ROUTE_REASONS.get(code);
  return shared && [...reasons].sort().join() === [...shared].sort().join()
    ? schema.openapi(`${code.toLowerCase().replace(/(^|_)(\w)/g, (_, __, ch: string) => ch.toUpperCase())}Error`)
    : schema;
}

/**
 * The error responses a route can produce, declared so /openapi.json documents failures: per status,
 * the Error body, and for each code the route answers there with reasons, a body whose
 * `details.reason` is the enum of those reasons. The codes of EVERY_ROUTE are on every route.
 */
export function errors(...entries: ErrorEntry[]) {
  const byCode = reasonsOf([...EVERY_ROUTE, ...entries]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of byCode.keys()) {
    const s = ERROR_STATUS[code];
    byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
  }
  const out: Record<number, { description: string; content: { "application/json": { schema: z.ZodType } } }> = {};
  for (const [s, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    let content: { "application/json": { schema: z.ZodType } } | undefined;
    out[s] = {
      description: STATUS_TEXT[s] ?? "Error",
      // Built when the document is, not at start: only /openapi.json reads it (docs/operations.md "Start time").
      get content() {
        return (content ??= { "application/json": { schema: statusSchema(codes, byCode) } });
      },
    };
  }
  return out;
}

/** One status's error body: the union of its codes' bodies. */
function statusSchema(codes: ErrorCode[], byCode: Map<ErrorCode, Set<string>>): z.ZodType {
  const withReasons = codes.sort().filter((c) => byCode.get(c)?.size);
  const variants: z.ZodType[] = withReasons.map((c) => codeSchema(c, byCode.get(c) ?? new Set()));
  if (withReasons.length < codes.length) variants.push(ErrorSchema);
  const [one = ErrorSchema, two, ...more] = variants;
  return two ? z.union([one, two, ...more]) : one;
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
      { ...route, middleware: [...markAnswers(route), ...own, strictRequest(route)] },
      ...rest,
    );
  }) as typeof r.openapi;
  return r;
}
