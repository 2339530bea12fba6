import type { RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Ctx } from "../lib/context";
import { type Answer, checkIdempotencyKey, idempotent, type StoredResponse } from "../lib/idempotency";
import { clientIp } from "./client-ip";
import { ctxFromRequest } from "./context";
import { requireAgent } from "./identity";
import { sendStored } from "./respond";
import type { AppEnv, Identity } from "./types";

// One endpoint, declared once (docs/architecture.md "Add an endpoint"): its REST route, who may
// call, how the route's validated request becomes the verb's input, the verb, its Idempotency-Key
// scope and whether it drops the cached mission lists. The Hono handler (`handle`) and the MCP tool
// (mcp.tool.ts `opTool`) are derived from it; neither restates the call to the verb.

/** The route's validated request: path parameters, query and JSON body, as zod outputs. */
type Part<R, K extends string> = R extends { request: { [P in K]: infer S extends z.ZodType } }
  ? z.output<S>
  : undefined;
type BodyOf<R> = R extends {
  request: { body: { content: { "application/json": { schema: infer S extends z.ZodType } } } };
}
  ? z.output<S>
  : undefined;
export type RequestOf<R> = { param: Part<R, "params">; query: Part<R, "query">; json: BodyOf<R> };

/** Who called, as the input mapping may need it: the identity, and (REST only) the client's IP. */
export interface From {
  identity: Identity;
  ip: (() => string) | undefined;
}

/**
 * Who may call, checked before the input: a signed-in agent (`agent`: 401 for anonymous callers),
 * or one whose anonymous attempt is AIP-1 §1.4's 403 (`submitter`). The admin token gets 403.
 */
type Who = "agent" | "submitter";

export interface Operation<R extends RouteConfig = RouteConfig, I = unknown, T = unknown> {
  route: R;
  caller?: Who;
  /** The route's validated request → the verb's input (the one place the call is written). */
  input(req: RequestOf<R>, from: From): I;
  verb(ctx: Ctx, input: I): Promise<T>;
  /** A write under REST's Idempotency-Key (MCP's `idempotency_key`): its stored scope and answer. */
  once?(caller: string, input: I): { scope: string; answer(result: T): Answer };
  /** The answer without a key; default the route's success status with the result as the body. */
  answer?(result: T): Answer;
  /** The write changes what mission lists show: this instance drops its cached lists once it committed. */
  lists?: true;
}

/** Declares an operation (the types flow from the route to the input mapping and the verb). */
export const operation = <R extends RouteConfig, I, T>(op: Operation<R, I, T>): Operation<R, I, T> => op;

/** The route's success status: its first 2xx response (found once per route: it is asked on every call). */
function successStatus(route: RouteConfig): number {
  let status = successStatuses.get(route);
  if (status === undefined) {
    status =
      Object.keys(route.responses)
        .map(Number)
        .find((s) => s >= 200 && s < 300) ?? 200;
    successStatuses.set(route, status);
  }
  return status;
}
const successStatuses = new WeakMap<RouteConfig, number>();

export type Outcome<T> = { stored: StoredResponse } | { result: T; answer: Answer };

/**
 * Runs an operation for one call, REST's or MCP's: the caller check, the input, the verb (under the
 * key when the operation is idempotent), then the lists dropped once the verb's transaction committed.
 */
export async function perform<R extends RouteConfig, I, T>(
  op: Operation<R, I, T>,
  call: { ctx: Ctx; req: RequestOf<R>; from: From; key: string | undefined },
): Promise<Outcome<T>> {
  const { ctx, req, from, key } = call;
  const caller = op.caller
    ? requireAgent(from.identity, op.caller === "submitter" ? "ANONYMOUS_SUBMISSION_REJECTED" : "UNAUTHORIZED")
    : undefined;
  const input = op.input(req, from);
  let out: Outcome<T>;
  if (op.once && caller !== undefined) {
    out = {
      stored: await idempotent(ctx, { key, request: req.json, ...op.once(caller, input) }, (c) => op.verb(c, input)),
    };
  } else {
    const result = await op.verb(ctx, input);
    out = { result, answer: op.answer ? op.answer(result) : { status: successStatus(op.route), body: result } };
  }
  if (op.lists) ctx.deps.missionLists.invalidate();
  return out;
}

/**
 * How REST answers beyond the plain JSON body (each returns the handler's response, typed as the
 * route's by the http-cache helpers): a fast path, the result's presentation, an error's.
 */
export interface Present<T> {
  /** Answers without the verb when it can (a cached document); undefined runs the operation. */
  before?(c: Context<AppEnv>): Promise<object | undefined>;
  send?(c: Context<AppEnv>, result: T, answer: Answer): object;
  fail?(c: Context<AppEnv>, err: unknown): object | undefined;
}

/** The success statuses an operation answers with (an error is thrown, never answered). */
const SUCCESS = [200, 201, 202, 204] as const;

const derived = new WeakMap<object, Operation>();

/** The operation a Hono handler was derived from, if it was (test/architecture/operations.test.ts). */
export const operationOf = (handler: unknown) => (typeof handler === "function" ? derived.get(handler) : undefined);

/**
 * The Hono handler of an operation, for its route (or an alias of the same shape): the request's
 * parts, its Idempotency-Key, and the answer — the stored text, or `present`'s, or the JSON body.
 */
export function handle<R extends RouteConfig, I, T>(op: Operation<R, I, T>, present: Present<T> = {}): never {
  // The parts the route's validators set, typed by the route through the operation.
  const handler = async (c: Context<AppEnv, string, { out: { param: never; query: never; json: never } }>) => {
    const early = await present.before?.(c);
    if (early) return early;
    const req: RequestOf<R> = { param: c.req.valid("param"), query: c.req.valid("query"), json: c.req.valid("json") };
    const deps = c.get("deps");
    const from: From = { identity: c.get("identity"), ip: () => clientIp(c, deps.config.trustProxy) };
    const key = op.once ? checkIdempotencyKey(c.req.header("idempotency-key")) : undefined;
    let out: Outcome<T>;
    try {
      out = await perform(op, { ctx: ctxFromRequest(c), req, from, key });
    } catch (err) {
      const answered = present.fail?.(c, err);
      if (answered) return answered;
      throw err;
    }
    if ("stored" in out) return sendStored(c, out.stored);
    if (present.send) return present.send(c, out.result, out.answer);
    const { body } = out.answer;
    const status = SUCCESS.find((s) => s === out.answer.status) ?? 200;
    if (body === undefined) return c.newResponse(null, { status });
    return c.newResponse(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  };
  derived.set(handler, op);
  return handler as never;
}
