import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/types";
import { A2A_PATH, A2A_PROTOCOL_VERSION } from "../../lib/a2a-contract";

// /openapi.json entry for the A2A endpoint. The handler is a plain Hono route (a2a.rpc.ts): it
// answers every input with its own JSON-RPC body, which a validating OpenAPI route would pre-empt.

const RpcId = z.union([z.string(), z.number()]).nullable();
const A2aRequest = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]),
    method: z.string().openapi({
      example: "SendMessage",
      description:
        "SendMessage, GetTask, ListTasks, CancelTask and the four push notification config methods (A2A §9.4); the others answer their A2A error",
    }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("A2aJsonRpcRequest", { description: `One A2A ${A2A_PROTOCOL_VERSION} JSON-RPC request per POST` });
const A2aResponse = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: RpcId,
    result: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        "SendMessage: {task} or {message}; GetTask, CancelTask: a Task; ListTasks: {tasks, nextPageToken, pageSize, totalSize}; Create/GetTaskPushNotificationConfig: a TaskPushNotificationConfig; ListTaskPushNotificationConfigs: {configs, nextPageToken}; DeleteTaskPushNotificationConfig: {}",
    }),
    error: z
      .object({ code: z.number().int(), message: z.string(), data: z.array(z.record(z.string(), z.unknown())) })
      .optional()
      .openapi({ description: "A2A §5.4 / §9.5 code; data[0] is a google.rpc.ErrorInfo whose reason says why" }),
  })
  .openapi("A2aJsonRpcResponse");

export function registerA2aDocs(api: OpenAPIHono<AppEnv>): void {
  const json = (description: string) => ({ description, content: { "application/json": { schema: A2aResponse } } });
  api.openAPIRegistry.registerPath({
    method: "post",
    path: A2A_PATH,
    tags: ["a2a"],
    summary: `A2A ${A2A_PROTOCOL_VERSION} JSON-RPC binding (docs/a2a.md): a submission is a task; root only, not under /api`,
    security: [{ bearer: [] }],
    request: {
      headers: z.object({ "a2a-version": z.string().openapi({ example: A2A_PROTOCOL_VERSION }) }),
      body: { required: true, content: { "application/json": { schema: A2aRequest } } },
    },
    responses: {
      200: json("JSON-RPC result or error"),
      401: json("No agent token: -32000 with reason UNAUTHORIZED and WWW-Authenticate: Bearer"),
      405: json("Not a POST"),
    },
  });
}
