import type { Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "@hono/zod-openapi";
import type { Deps } from "../../deps";
import { asAppError, validationError } from "../../http/errors";
import { limitBody } from "../../http/middleware";
import { ctxFromRequest } from "../../http/context";
import type { AppEnv, Identity } from "../../http/types";
import { AppError } from "../../lib/errors";
import { hasLoneSurrogate, parseJsonBounded } from "../../lib/json-text";
import { A2A_ERRORS, A2A_PATH, A2A_PROTOCOL_VERSION } from "../../lib/a2a-contract";
import { A2aError, intentOf, SendMessageParams } from "./a2a.messages";
import {
  createPushConfig,
  CreatePushParams,
  deletePushConfig,
  getPushConfig,
  listPushConfigs,
  ListPushParams,
  PushRefParams,
} from "./a2a.push";
import { cancelTask, getTask, listTasks, sendMessage, TASK_STATES } from "./a2a.tasks";

// The A2A JSON-RPC binding (A2A §9; docs/a2a.md): one request per POST, answered with a JSON-RPC
// response whose errors carry a google.rpc.ErrorInfo (A2A §9.5) naming the OABP code and reason.

type RpcId = string | number | null;

interface RpcError {
  code: number;
  message: string;
  reason: string;
  metadata?: Record<string, string>;
}

function errorResponse(c: Context<AppEnv>, id: RpcId, e: RpcError, status: ContentfulStatusCode = 200) {
  const metadata = { ...e.metadata, request_id: c.get("requestId") ?? "" };
  const data = [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: e.reason, domain: "oabp", metadata }];
  if (status === 401) c.header("WWW-Authenticate", 'Bearer realm="a2a"');
  if (e.metadata?.retry_after_seconds) c.header("Retry-After", e.metadata.retry_after_seconds);
  return c.json({ jsonrpc: "2.0", id, error: { code: e.code, message: e.message, data } }, status);
}

/** An OABP AppError as an A2A error: bad input is Invalid params, any other refusal -32000. */
function fromAppError(e: AppError): RpcError {
  const code =
    e.code === "INVALID_PARAMETER" || e.code === "UNPROCESSABLE" || e.code === "PAYLOAD_TOO_LARGE"
      ? A2A_ERRORS.INVALID_PARAMS
      : e.code === "INTERNAL_ERROR"
        ? A2A_ERRORS.INTERNAL
        : A2A_ERRORS.REFUSED;
  const reason = typeof e.details?.reason === "string" ? e.details.reason : e.code.toLowerCase();
  const retry = e.details?.retry_after_seconds;
  const metadata = { code: e.code, reason, ...(retry !== undefined && { retry_after_seconds: String(retry) }) };
  return { code, message: e.message, reason: e.code, metadata };
}

/**
 * The app's error handler for /a2a: what the shared middleware refuses before the handler runs
 * (an expired token, a rate limit, too many bytes in flight) answered as a JSON-RPC error with the
 * HTTP status REST would use, in the binding's shape rather than the REST body.
 */
export function a2aEdgeError(err: Error, c: Context<AppEnv>): Response {
  const known = asAppError(err);
  if (!known) return failure(c, null, err);
  const status = known.status === 500 ? 200 : known.status;
  return errorResponse(c, null, fromAppError(known), status as ContentfulStatusCode);
}

const Envelope = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string().max(255), z.number()]),
  method: z.string().max(64),
  params: z.record(z.string(), z.unknown()).optional(),
});
const TaskRef = z.object({ id: z.string().min(1).max(128), historyLength: z.number().int().optional() });
const ListParams = z.object({
  contextId: z.string().max(128).optional(),
  status: z.enum(TASK_STATES).optional(),
  pageSize: z.number().int().optional(),
  pageToken: z.literal("").optional(),
  includeArtifacts: z.boolean().optional(),
});

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw validationError(r.error);
  return r.data;
}

const unsupported = (what: string, code: number, reason: string) => () => {
  throw new A2aError(code, what, reason);
};
const NOT_SERVED: Record<string, () => never> = {
  SendStreamingMessage: unsupported(
    "streaming is not supported (capabilities.streaming: false)",
    A2A_ERRORS.UNSUPPORTED_OPERATION,
    "streaming",
  ),
  SubscribeToTask: unsupported(
    "streaming is not supported (capabilities.streaming: false)",
    A2A_ERRORS.UNSUPPORTED_OPERATION,
    "streaming",
  ),
  GetExtendedAgentCard: unsupported(
    "no extended agent card (capabilities.extendedAgentCard: false)",
    A2A_ERRORS.UNSUPPORTED_OPERATION,
    "extended_card",
  ),
};

/** One method call of a signed-in caller (the context's agent: `handle` refuses anyone else). */
async function dispatch(c: Context<AppEnv>, method: string, params: unknown): Promise<unknown> {
  const ctx = ctxFromRequest(c);
  switch (method) {
    case "SendMessage":
      return sendMessage(ctx, intentOf(parse(SendMessageParams, params)));
    case "GetTask":
      return getTask(ctx, parse(TaskRef, params).id);
    case "CancelTask":
      return cancelTask(ctx, parse(TaskRef, params).id);
    case "ListTasks":
      return listTasks(ctx, parse(ListParams, params));
    case "CreateTaskPushNotificationConfig":
      return createPushConfig(ctx, parse(CreatePushParams, params));
    case "GetTaskPushNotificationConfig":
      return getPushConfig(ctx, parse(PushRefParams, params));
    case "ListTaskPushNotificationConfigs":
      return listPushConfigs(ctx, parse(ListPushParams, params));
    case "DeleteTaskPushNotificationConfig":
      return deletePushConfig(ctx, parse(PushRefParams, params));
  }
  const refuse = NOT_SERVED[method];
  if (refuse) refuse();
  throw new A2aError(A2A_ERRORS.METHOD_NOT_FOUND, `method ${method} not found`, "method_not_found");
}

/** A2A §3.6.2: only 1.0 (Major.Minor); an absent version means 0.3, which is not served. */
function versionOk(c: Context<AppEnv>): boolean {
  const v = c.req.header("a2a-version") ?? c.req.query("A2A-Version") ?? "";
  return /^1\.0(\.\d+)?$/.test(v.trim());
}

type Request = z.infer<typeof Envelope>;

/** The one JSON-RPC request of the body, or the error response that refuses it. */
async function readRequest(c: Context<AppEnv>): Promise<Request | Response> {
  let msg: unknown;
  try {
    msg = parseJsonBounded(await c.req.text());
  } catch {
    return errorResponse(c, null, {
      code: A2A_ERRORS.PARSE,
      message: "Invalid JSON payload",
      reason: "malformed_json",
    });
  }
  const env = Envelope.safeParse(msg);
  if (env.success && !hasLoneSurrogate(msg)) return env.data;
  const id = typeof msg === "object" && msg !== null && "id" in msg ? msg.id : undefined;
  return errorResponse(c, typeof id === "string" || typeof id === "number" ? id : null, {
    code: A2A_ERRORS.INVALID_REQUEST,
    message: "Request payload validation error: one JSON-RPC 2.0 request object",
    reason: "invalid_request",
  });
}

/** securitySchemes.bearer: an agent's token; anyone else gets 401 with the scheme to use. */
function unauthorized(c: Context<AppEnv>, id: RpcId, identity: Exclude<Identity, { kind: "agent" }>) {
  const admin = identity.kind === "admin";
  const metadata = { code: admin ? "FORBIDDEN" : "UNAUTHORIZED", reason: admin ? "admin_token" : identity.reason };
  const message =
    "Authorization: Bearer <agent token> required (securitySchemes.bearer; POST /auth/nonce, POST /auth/siwe)";
  return errorResponse(c, id, { code: A2A_ERRORS.REFUSED, message, reason: "UNAUTHORIZED", metadata }, 401);
}

/** A thrown error as the JSON-RPC error of request `id`. */
function failure(c: Context<AppEnv>, id: RpcId, err: unknown) {
  if (err instanceof A2aError)
    return errorResponse(c, id, { code: err.code, message: err.message, reason: err.reason });
  const known = asAppError(err);
  if (known) return errorResponse(c, id, fromAppError(known));
  c.get("deps").logger.error({ err, request_id: c.get("requestId") }, "a2a: unhandled error");
  return errorResponse(c, id, { code: A2A_ERRORS.INTERNAL, message: "Internal error", reason: "internal" });
}

async function handle(c: Context<AppEnv>): Promise<Response> {
  const req = await readRequest(c);
  if (req instanceof Response) return req;
  const { id, method, params } = req;
  if (!versionOk(c))
    return errorResponse(c, id, {
      code: A2A_ERRORS.VERSION_NOT_SUPPORTED,
      message: `A2A-Version ${JSON.stringify(c.req.header("a2a-version") ?? "")} is not supported: this interface serves ${A2A_PROTOCOL_VERSION}`,
      reason: "version_not_supported",
    });
  const identity = c.get("identity");
  if (identity.kind !== "agent") return unauthorized(c, id, identity);
  try {
    return c.json({ jsonrpc: "2.0", id, result: await dispatch(c, method, params) });
  } catch (err) {
    return failure(c, id, err);
  }
}

/** The A2A endpoint: plain Hono routes at the origin root, answering their own JSON-RPC bodies. */
export function registerA2a(app: Hono<AppEnv>, deps: Deps): void {
  const limit = limitBody(deps.config.bodyLimitBytes, (c) =>
    errorResponse(c, null, {
      code: A2A_ERRORS.INVALID_REQUEST,
      message: `Payload Too Large: at most ${deps.config.bodyLimitBytes} bytes`,
      reason: "payload_too_large",
    }),
  );
  app.post(A2A_PATH, limit, handle);
  app.on(["GET", "PUT", "PATCH", "DELETE"], A2A_PATH, (c) => {
    c.header("Allow", "POST, OPTIONS");
    return errorResponse(
      c,
      null,
      {
        code: A2A_ERRORS.INVALID_REQUEST,
        message:
          "POST one JSON-RPC 2.0 request (A2A JSON-RPC binding); the agent card is at /.well-known/agent-card.json",
        reason: "method_not_allowed",
      },
      405,
    );
  });
}
