import type { Context } from "hono";
import type { AppEnv } from "../../http/types";
import { asAppError } from "../../http/errors";
import { AppError } from "../../lib/errors";
import { enforceRateLimit } from "../../http/rate-limit";
import { RPC, type RpcError, type RpcId } from "./mcp.jsonrpc";
import { callTool, hasTool, isWriteTool, type ToolOutcome } from "./mcp.tools";

// tools/call, shared by the session lane (mcp.server.ts) and the stateless lane (mcp.stateless.ts).

export interface ToolCall {
  name: string;
  args: unknown;
  outcome: ToolOutcome;
}

/** Runs the named tool for this request's identity; an unknown tool is the JSON-RPC error. */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A call's `params._meta` when it is an object (MCP "_meta"; x402's MCP transport carries the payment there). */
const metaOf = (params: Record<string, unknown> | undefined) => (isRecord(params?._meta) ? params._meta : undefined);

export async function runToolCall(
  c: Context<AppEnv>,
  params: Record<string, unknown> | undefined,
): Promise<ToolCall | RpcError> {
  const name = params?.name;
  if (typeof name !== "string" || !hasTool(name)) {
    return { code: RPC.INVALID_PARAMS, message: `Unknown tool: ${String(name)}` };
  }
  // A write tool spends the same write tokens as its REST route.
  if (isWriteTool(name)) await enforceRateLimit(c, "write");
  const ctx = {
    deps: c.get("deps"),
    identity: c.get("identity"),
    requestId: c.get("requestId"),
    sessionId: c.req.header("mcp-session-id"),
    meta: metaOf(params),
  };
  const outcome = await callTool(ctx, {
    name,
    args: params?.arguments,
    asError: (err) => {
      const known = asAppError(err);
      if (known) return known;
      ctx.deps.logger.error({ err, request_id: ctx.requestId, tool: name }, "unhandled error in MCP tool");
      return new AppError("INTERNAL_ERROR", "internal error");
    },
  });
  return { name, args: params?.arguments, outcome };
}

export const isRpcError = (v: ToolCall | RpcError): v is RpcError => "code" in v;

export const errorText = (id: RpcId | null, error: RpcError) => JSON.stringify({ jsonrpc: "2.0", id, error });
