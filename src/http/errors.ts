import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import { AppError, errorBody, type ErrorCode, ERROR_STATUS } from "../lib/errors";
import { pgCode } from "../lib/idempotency";
import { meshDialect, meshErrorBody } from "./mesh-dialect";
import type { AppEnv } from "./types";

export function validationError(error: ZodError): AppError {
  const issues = error.issues.slice(0, 20).map((i) => ({ path: i.path.join("."), message: i.message }));
  const first = issues[0];
  return new AppError("INVALID_PARAMETER", first ? `${first.path || "body"}: ${first.message}` : "invalid request", {
    issues,
  });
}

export function sendError(c: Context<AppEnv>, code: ErrorCode, message: string, details?: Record<string, unknown>) {
  const status = ERROR_STATUS[code];
  if (code === "ANONYMOUS_SUBMISSION_REJECTED") {
    // AIP-1 §1.4 fixes this body exactly; the explanation travels in a header instead.
    c.header("X-Error-Message", message);
    return c.json({ error: code }, 403);
  }
  if ((code === "RATE_LIMITED" || code === "SERVICE_UNAVAILABLE") && details?.retry_after_seconds)
    c.header("Retry-After", String(details.retry_after_seconds));
  if (meshDialect(c)) return c.json(meshErrorBody(c, { code, message, details }), status as 400);
  return c.json(errorBody(code, message, c.get("requestId") ?? "req_unknown", details), status as 400);
}

/**
 * The AppError a thrown value stands for: ours; hono's HTTPExceptions (malformed JSON, body limit);
 * Postgres errors the client caused or may retry. Undefined for anything else (a bug → 500).
 * Shared by the REST error handler and the MCP tool runner, so both surfaces answer alike.
 */
export function asAppError(err: unknown, received?: () => string | null): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 400)
      return new AppError("INVALID_PARAMETER", "malformed JSON in request body", { reason: "malformed_json" });
    if (err.status === 413) return new AppError("PAYLOAD_TOO_LARGE", "request body too large");
    // @hono/zod-openapi's media-type gate throws 415 for a non-JSON body the length check missed.
    if (err.status === 415)
      return new AppError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json", {
        received: received?.() ?? null,
      });
    if (err.status === 401) return new AppError("UNAUTHORIZED", err.message || "unauthorized");
  }
  // Postgres refuses NUL in text (22021) and jsonb (22P05): the client sent it, so it is a 400.
  const code = pgCode(err);
  if (code === "22021" || code === "22P05" || code === "22P02") {
    return new AppError("INVALID_PARAMETER", "a string contains a character that cannot be stored (such as U+0000)", {
      reason: "invalid_text",
    });
  }
  // Lock-order bugs should not exist, but if Postgres ever breaks a deadlock or a serialization
  // conflict, the transaction rolled back whole: the client may simply retry.
  if (code === "40P01" || code === "40001") {
    return new AppError(
      "SERVICE_UNAVAILABLE",
      "the request conflicted with a concurrent one and was rolled back; retry it",
      { reason: "retry" },
    );
  }
  return undefined;
}

type Answers = ReadonlyMap<ErrorCode, ReadonlySet<string>>;
const routeAnswers = new WeakMap<object, Answers>();
const requestAnswers = new WeakMap<Context, Answers>();

/** What a declared route answers (./openapi.ts declareReasons), for the check below. */
export const rememberAnswers = (route: object, answers: Answers) => routeAnswers.set(route, answers);

/** The middleware that marks a request with its route's declared answers, when the route has them. */
export function markAnswers(route: object): MiddlewareHandler[] {
  const answers = routeAnswers.get(route);
  if (!answers) return [];
  return [
    (c, next) => {
      requestAnswers.set(c, answers);
      return next();
    },
  ];
}

/**
 * The tests' check that a route answers only the reasons it declares (docs/api.md "Errors"): when
 * on, each refusal whose `details.reason` its route does not declare for its code is kept in
 * `found` as "METHOD /path CODE reason" (test/setup/reasons-declared.ts fails the test on it).
 */
export const reasonCheck = { on: false, found: [] as string[] };

function checkReason(c: Context, e: AppError) {
  const reason = e.details?.reason;
  const answers = requestAnswers.get(c);
  // The §1.4 body carries no details, so its reason never reaches the wire.
  if (!answers || e.code === "ANONYMOUS_SUBMISSION_REJECTED" || typeof reason !== "string") return;
  if (answers.get(e.code)?.has(reason)) return;
  reasonCheck.found.push(`${c.req.method} ${c.req.routePath} ${e.code} ${reason}`);
}

/** onError: AppError → its code; hono HTTPExceptions (malformed JSON, body limit) → ours; rest → 500. */
export function handleError(err: Error, c: Context<AppEnv>) {
  const known = asAppError(err, () => c.req.header("content-type") ?? null);
  if (known) {
    if (reasonCheck.on) checkReason(c, known);
    if (known.code === "SERVICE_UNAVAILABLE" && known.details?.reason === "retry") c.header("Retry-After", "1");
    return sendError(c, known.code, known.message, known.details);
  }
  c.get("deps")?.logger.error({ err, request_id: c.get("requestId") }, "unhandled error");
  return sendError(c, "INTERNAL_ERROR", "internal error");
}
