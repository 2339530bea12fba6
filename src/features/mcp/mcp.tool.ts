import { type RouteConfig, z } from "@hono/zod-openapi";
import type { Deps } from "../../deps";
import type { Identity } from "../../http/types";
import type { Ctx } from "../../lib/context";
import { checkIdempotencyKey } from "../../lib/idempotency";
import { type Operation, perform, type RequestOf } from "../../http/operation";
import { inputSchemaOf, outputSchemaOf } from "./mcp.schema";

// One MCP tool: a REST route's verb behind a name. MCP is a transport, not a second backend
// (docs/style.md rule 12): a tool validates its arguments with the REST zod schema (`args`), calls the
// same service verb and returns the same JSON text the REST route answers; its inputSchema and
// outputSchema are generated from those zod schemas (mcp.schema.ts), never written by hand.

export interface ToolContext {
  deps: Deps;
  identity: Identity;
  requestId: string;
  /** The MCP session the call came in (sign_in binds it to the agent). */
  sessionId?: string | undefined;
  /** The call's `params._meta` (x402's MCP transport carries the payment in `x402/payment`). */
  meta?: Record<string, unknown> | undefined;
}

/**
 * A result beyond the REST body: x402's MCP transport answers a payment requirement as an error
 * result with `structuredContent`, and a settled payment with `_meta["x402/payment-response"]`.
 */
interface ToolResult {
  json: string;
  isError: boolean;
  meta?: Record<string, unknown>;
}

/**
 * A read's REST answer as REST sends it: its bytes and ETag (missions' list_missions and
 * get_mission). With the tool's name the ETag names the bytes, so the encoded tool result is kept
 * under both and never rebuilt from the body while it holds (mcp.jsonrpc.ts toolResultBytes).
 */
interface RestDoc {
  etag?: string | undefined;
  body: string | Uint8Array;
}

export interface ToolSpec<A extends z.ZodType> {
  name: string;
  description: string;
  /** The REST request schema (body or query, plus the path ids as fields): parses the arguments. */
  args: A;
  /** The REST route's 200 response schema: the outputSchema is generated from it. */
  out: z.ZodType;
  annotations: Record<string, boolean>;
  /** Who may call: checked before the arguments, as REST checks identity before the body. */
  caller?: "submitter" | "agent";
  /** Returns the REST route's JSON body, as text. */
  run(ctx: ToolContext, args: z.output<A>, caller: string | undefined): Promise<string | ToolResult | RestDoc>;
}

export interface Tool extends ArgsMap {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: Record<string, boolean>;
  caller?: "submitter" | "agent";
  args: z.ZodType;
  /** The operation the tool is derived from (opTool); absent only for the tools with no REST twin. */
  operation?: Operation;
  run(ctx: ToolContext, args: never, caller: string | undefined): Promise<string | ToolResult | RestDoc>;
}

/** Its schemas are generated at the first tools/list, not at start (docs/operations.md "Start time"). */
export function tool<A extends z.ZodType>(spec: ToolSpec<A>): Tool {
  let input: Record<string, unknown> | undefined;
  let output: Record<string, unknown> | undefined;
  return {
    ...spec,
    get inputSchema() {
      return (input ??= inputSchemaOf(spec.args));
    },
    get outputSchema() {
      return (output ??= outputSchemaOf(spec.out));
    },
    run: spec.run as Tool["run"],
  };
}

// Tool annotations (2025-11-25 server/tools ToolAnnotations): every hint stated, none left to the
// client's defaults; the marketplace is a closed world (no tool reaches out to arbitrary places).
export const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

/** A tool call's verb context, built as REST builds a request's (http/context.ts). */
export function ctxFromMcp(ctx: ToolContext): Ctx {
  return { deps: ctx.deps, now: ctx.deps.clock.now(), caller: ctx.identity };
}

export const MissionId = z.string().min(1).max(64);
const SubmissionId = z.string().min(1).max(64);
/** A tool's arguments naming one submission of one mission, as the REST path does. */
export const SubmissionRef = z.object({ mission_id: MissionId, submission_id: SubmissionId });
export const IdempotencyKey = z
  .string()
  .optional()
  .describe("retry-safe: the same key and arguments give the first answer again");

/** How a tool's arguments name the route's request: path ids renamed, the body maybe under one argument. */
interface ArgsMap {
  /** Route path parameter → tool argument (`{ id: "mission_id" }`). */
  params?: Record<string, string>;
  /** The JSON body under this one argument instead of spread among the arguments. */
  nest?: string;
  /** The route's query defaults, parsed at the first call (a zod parse per call was measurable). */
  defaults?: Record<string, unknown>;
}

/** The route's query defaults (a page's `limit`): what REST's parse fills when the tool leaves it out. */
function queryDefaults(route: RouteConfig): Record<string, unknown> {
  const query = route.request?.query;
  const parsed = query?.safeParse({});
  const data: unknown = parsed?.success ? parsed.data : undefined;
  return typeof data === "object" && data !== null ? Object.fromEntries(Object.entries(data)) : {};
}

/** The REST request the arguments stand for (mcp-schemas.test.ts checks the names against the route). */
function requestOf(route: RouteConfig, map: ArgsMap, args: Record<string, unknown>) {
  const defaults = (map.defaults ??= queryDefaults(route));
  const param: Record<string, unknown> = {};
  const rest: Record<string, unknown> = { ...args };
  delete rest.idempotency_key;
  for (const [name, arg] of Object.entries(map.params ?? {})) {
    param[name] = rest[arg];
    delete rest[arg];
  }
  const hasBody = route.request?.body !== undefined;
  const json = map.nest ? rest[map.nest] : hasBody ? rest : undefined;
  const query = hasBody ? undefined : { ...defaults, ...rest };
  return { param, query, json };
}

type OpToolSpec<R extends RouteConfig, A extends z.ZodType<object>, I, T> = Pick<
  ToolSpec<A>,
  "name" | "description" | "args" | "out" | "annotations"
> &
  ArgsMap & {
    /** Narrows who may call over MCP (a REST route open to anonymous callers, signed-in agents here). */
    caller?: "agent";
    /** Arguments that differ from the route's request on purpose, turned into it (create_mission's whole units). */
    request?(args: z.output<A>, ctx: ToolContext): RequestOf<R>;
    /** The tool's answer of the verb's result when it is not JSON to serialise (a pre-serialised page). */
    text?(result: T): string | RestDoc;
    /** An anonymous read's cached document, answered without the verb when the instance has it. */
    cached?(ctx: Ctx, input: I): Promise<RestDoc | undefined>;
  };

/**
 * A tool derived from an operation (src/http/operation.ts): it adds its name, description,
 * arguments' names and annotations; the caller check, the call to the verb, the idempotency scope
 * (its `idempotency_key` is REST's Idempotency-Key) and the cache invalidation are the operation's.
 */
export function opTool<R extends RouteConfig, I, T, A extends z.ZodType<object>>(
  op: Operation<R, I, T>,
  spec: OpToolSpec<R, A, I, T>,
): Tool {
  const { request, text, cached, params, nest, caller = op.caller, ...rest } = spec;
  const map: ArgsMap = { params, nest };
  // Object.assign, not a spread: the tool's schemas stay lazy getters.
  return Object.assign(
    tool({
      ...rest,
      ...(caller && { caller }),
      run: async (ctx, a) => {
        const args: Record<string, unknown> = Object.fromEntries(Object.entries(a));
        const req = request ? request(a, ctx) : (requestOf(op.route, map, args) as RequestOf<R>);
        const key = checkIdempotencyKey(typeof args.idempotency_key === "string" ? args.idempotency_key : undefined);
        const from = { identity: ctx.identity, ip: undefined };
        const hit = cached && !op.caller ? await cached(ctxFromMcp(ctx), op.input(req, from)) : undefined;
        if (hit) return hit;
        const out = await perform(op, { ctx: ctxFromMcp(ctx), req, from, key });
        if ("stored" in out) return out.stored.body;
        return text ? text(out.result) : JSON.stringify(out.answer.body);
      },
    }),
    { operation: op, ...(params && { params }), ...(nest && { nest }) },
  );
}
