import { z } from "@hono/zod-openapi";
import type { Deps } from "../../deps";
import type { Identity } from "../../http/types";
import type { Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { type Answer, checkIdempotencyKey, idempotent } from "../../lib/idempotency";
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

export interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: Record<string, boolean>;
  caller?: "submitter" | "agent";
  args: z.ZodType;
  run(ctx: ToolContext, args: never, caller: string | undefined): Promise<string | ToolResult | RestDoc>;
}

export function tool<A extends z.ZodType>(spec: ToolSpec<A>): Tool {
  return {
    ...spec,
    inputSchema: inputSchemaOf(spec.args),
    outputSchema: outputSchemaOf(spec.out),
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
export const submissionRef = (a: z.output<typeof SubmissionRef>) => ({
  missionId: a.mission_id,
  submissionId: a.submission_id,
});
export const IdempotencyKey = z
  .string()
  .optional()
  .describe("retry-safe: the same key and arguments give the first answer again");

/** Writes drop this instance's cached mission lists at once (REST does it in app.ts for /missions paths). */
export function written(ctx: ToolContext, body: string): string {
  ctx.deps.missionLists.invalidate();
  return body;
}

/**
 * A write with REST's Idempotency-Key semantics (lib/idempotency.ts), as the REST route runs it:
 * `request` is the body the key is bound to, `once` the verb's scope and answer (the route's
 * `…Once`), `verb` the write itself.
 */
export interface IdempotentCall<T> {
  request: unknown;
  once: { scope: string; answer: (result: T) => Answer };
  verb: (c: Ctx) => Promise<T>;
}

type KeyedArgs = z.ZodType<{ idempotency_key?: string | undefined }>;

/**
 * A signed-in write tool whose `idempotency_key` argument is REST's Idempotency-Key: `call` names
 * the write for the parsed arguments and the caller; the tool answers its JSON, once written.
 */
export function idempotentTool<A extends KeyedArgs, T>(
  spec: Omit<ToolSpec<A>, "annotations" | "caller" | "run"> & {
    caller: "submitter" | "agent";
    call(args: z.output<A>, caller: string): IdempotentCall<T>;
  },
): Tool {
  const { call, ...rest } = spec;
  return tool({
    ...rest,
    annotations: WRITE,
    run: async (ctx, a, caller) => {
      // callTool resolves the caller before the arguments, for every tool with `caller`.
      if (caller === undefined) throw new AppError("UNAUTHORIZED", "sign in to call this tool");
      const { request, once, verb } = call(a, caller);
      const r = await idempotent(
        ctxFromMcp(ctx),
        { key: checkIdempotencyKey(a.idempotency_key), request, ...once },
        verb,
      );
      return written(ctx, r.body);
    },
  });
}
