import type { Context } from "hono";
import type { Config } from "../../env";
import type { AppEnv } from "../../http/types";
import { sendBody } from "../../http/http-cache";
import pkg from "../../../package.json" with { type: "json" };
import { MCP_SESSION_VERSIONS, MCP_STATELESS_VERSIONS } from "../../lib/mcp-contract";
import { errorObject, type Incoming, RPC, type RpcError, type RpcId, toolResultBytes } from "./mcp.jsonrpc";
import { toolsList } from "./mcp.tools";
import { isRecord, isRpcError, runToolCall } from "./mcp.call";
import { sendTransportError } from "./mcp.transport";

// The stateless lane of MCP 2026-07-28 on the same /mcp endpoint (basic/versioning "Backward
// Compatibility", transports/streamable-http): no initialize and no Mcp-Session-Id; each request
// names its revision in `_meta` and mirrors its method (and tool) in the Mcp-Method / Mcp-Name
// headers; results carry `resultType` and the server's identity in `_meta`. Credentials are the
// request's own Authorization header, as on REST (docs/mcp.md "Stateless lane").

const META_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_SERVER = "io.modelcontextprotocol/serverInfo";
/** 2026-07-28 basic/index "Error codes": the MCP-reserved codes of the stateless lane. */
const HEADER_MISMATCH = -32020;
const UNSUPPORTED_VERSION = -32022;
/** tools/list and server/discover are the same for everyone until the next deploy (server/utilities/caching). */
const TTL_MS = 300_000;
const SUPPORTED = [...MCP_STATELESS_VERSIONS, ...MCP_SESSION_VERSIONS];

/** The server's Implementation (name, title, version, icons), for initialize and `_meta`. */
export const SERVER_INFO = (config: Config) => ({
  name: pkg.name,
  title: "OABP mission marketplace",
  version: pkg.version,
  icons: [{ src: `${config.publicUrl}/favicon.svg`, mimeType: "image/svg+xml", sizes: ["any"] }],
});

export const unsupportedVersion = (requested: unknown): RpcError => ({
  code: UNSUPPORTED_VERSION,
  message: "Unsupported protocol version",
  data: { supported: SUPPORTED, requested: typeof requested === "string" ? requested.slice(0, 40) : null },
});

type Message = Exclude<Incoming, { kind: "invalid" }>;
type Named = Extract<Message, { method: string }>;

const metaOf = (params: Record<string, unknown> | undefined) => (isRecord(params?._meta) ? params._meta : {});

/** A message of the stateless era: its `_meta` names a revision, or its header names a stateless one. */
export function isStateless(c: Context<AppEnv>, m: Message): m is Named {
  if (m.kind === "response") return false;
  if (META_VERSION in metaOf(m.params)) return true;
  return MCP_STATELESS_VERSIONS.includes(c.req.header("mcp-protocol-version") ?? "");
}

/** An `Mcp-Name` / `Mcp-Param-*` value as the body holds it: the Base64 sentinel decoded. */
function decodeHeader(v: string): string {
  const b64 = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(v);
  return b64 ? Buffer.from(b64[1] ?? "", "base64").toString("utf8") : v;
}

/** The first header that is missing or disagrees with the body (streamable-http "Server Validation"). */
function headerMismatch(c: Context<AppEnv>, m: Named, version: string): string | undefined {
  const header = c.req.header("mcp-protocol-version");
  if (header !== version)
    return `MCP-Protocol-Version header ${JSON.stringify(header ?? null)} does not match _meta ${version}`;
  const method = c.req.header("mcp-method");
  if (method !== m.method) return `Mcp-Method header ${JSON.stringify(method ?? null)} does not match body ${m.method}`;
  if (m.method !== "tools/call") return undefined;
  const name = c.req.header("mcp-name");
  const body = m.params?.name;
  if (name === undefined || decodeHeader(name) !== body)
    return `Mcp-Name header ${JSON.stringify(name ?? null)} does not match body value ${JSON.stringify(body ?? null)}`;
  return undefined;
}

const JSON_TYPE = "application/json; charset=utf-8";
function send(c: Context<AppEnv>, id: RpcId, result: Buffer) {
  c.header("Content-Type", JSON_TYPE);
  return sendBody(
    c,
    Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`), result, CLOSE]),
  );
}
const CLOSE = Buffer.from("}");

/** A result object with `resultType` and the server's identity spliced in before its closing brace. */
const complete = (c: Context<AppEnv>, result: Uint8Array) =>
  Buffer.concat([
    Buffer.from(result.subarray(0, result.length - 1)),
    Buffer.from(
      `${result.length > 2 ? "," : ""}"resultType":"complete","_meta":${JSON.stringify({ [META_SERVER]: SERVER_INFO(c.get("deps").config) })}}`,
    ),
  ]);

export async function serveStateless(c: Context<AppEnv>, m: Named): Promise<Response> {
  const id = m.kind === "request" ? m.id : null;
  const version = metaOf(m.params)[META_VERSION];
  if (typeof version !== "string") {
    const message = `Header mismatch: MCP-Protocol-Version names a stateless revision but params._meta has no ${META_VERSION} string`;
    return sendTransportError(c, { status: 400, id: id, error: { code: HEADER_MISMATCH, message } });
  }
  if (!MCP_STATELESS_VERSIONS.includes(version))
    return sendTransportError(c, { status: 400, id: id, error: unsupportedVersion(version) });
  const mismatch = headerMismatch(c, m, version);
  if (mismatch)
    return sendTransportError(c, {
      status: 400,
      id: id,
      error: { code: HEADER_MISMATCH, message: `Header mismatch: ${mismatch}` },
    });
  if (m.kind === "notification") return c.body(null, 202);
  const deps = c.get("deps");
  switch (m.method) {
    case "server/discover":
      return send(
        c,
        m.id,
        complete(
          c,
          Buffer.from(
            JSON.stringify({
              supportedVersions: SUPPORTED,
              capabilities: { tools: {} },
              instructions: `Open Agent Bounty Protocol missions over MCP; the tools are those of tools/list. Writes need Authorization: Bearer <token> (POST ${deps.config.publicUrl}/auth/siwe) on each request.`,
              ttlMs: TTL_MS,
              cacheScope: "public",
            }),
          ),
        ),
      );
    case "tools/list":
      return send(c, m.id, complete(c, Buffer.from(toolsListStateless())));
    case "tools/call": {
      const call = await runToolCall(c, m.params);
      // An unknown tool is a JSON-RPC error in a 200, as in the session lane (schema InvalidParamsError).
      if (isRpcError(call)) return c.json(errorObject(m.id, call), 200);
      return send(c, m.id, complete(c, toolResultBytes(call.outcome)));
    }
    default:
      // streamable-http "Protocol Version Header": an RPC this server does not implement is 404 + -32601.
      return sendTransportError(c, {
        status: 404,
        id: m.id,
        error: { code: RPC.METHOD_NOT_FOUND, message: `Method not found: ${m.method}` },
      });
  }
}

let statelessList: string | undefined;
const toolsListStateless = () =>
  (statelessList ??= JSON.stringify({ tools: toolsList(), ttlMs: TTL_MS, cacheScope: "public" }));
