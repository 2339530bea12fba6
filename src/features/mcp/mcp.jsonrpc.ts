// JSON-RPC 2.0 envelopes for MCP (2025-06-18: one message per POST; batches were removed).
// Pure functions: classify what a client sent, and write what the server answers as text.

export type RpcId = string | number;

export type Incoming =
  | { kind: "request"; id: RpcId; method: string; params: Record<string, unknown> | undefined }
  | { kind: "notification"; method: string; params: Record<string, unknown> | undefined }
  /** A client's answer to a server request (this server sends none; accepted and ignored). */
  | { kind: "response" }
  | { kind: "invalid"; id: RpcId | null; reason: string };

const isId = (v: unknown): v is RpcId => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function classify(msg: unknown): Incoming {
  if (Array.isArray(msg))
    return {
      kind: "invalid",
      id: null,
      reason: "JSON-RPC batches are not supported (MCP 2025-06-18): send one message per POST",
    };
  if (!isObject(msg)) return { kind: "invalid", id: null, reason: "the body must be a JSON-RPC 2.0 object" };
  const id = isId(msg.id) ? msg.id : null;
  if (msg.jsonrpc !== "2.0") return { kind: "invalid", id, reason: 'jsonrpc must be "2.0"' };
  if (msg.params !== undefined && !isObject(msg.params))
    return { kind: "invalid", id, reason: "params must be an object" };
  const params = msg.params as Record<string, unknown> | undefined;
  if (typeof msg.method === "string") {
    if (msg.id === undefined) return { kind: "notification", method: msg.method, params };
    if (id === null) return { kind: "invalid", id: null, reason: "id must be a string or a number" };
    return { kind: "request", id, method: msg.method, params };
  }
  if (msg.method === undefined && id !== null && ("result" in msg || "error" in msg)) return { kind: "response" };
  return { kind: "invalid", id, reason: "method must be a string" };
}

export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  SESSION_EXPIRED: -32001,
} as const;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** `{"jsonrpc":"2.0","id":…,"result":<resultJson>}` with an already-serialised result. */
export const resultText = (id: RpcId, resultJson: string) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`;

export const errorObject = (id: RpcId | null, error: RpcError) => ({ jsonrpc: "2.0" as const, id, error });

/** `{"jsonrpc":"2.0","id":…,"result":<result bytes>}` around an already-encoded result. */
export const resultBytes = (id: RpcId, result: Uint8Array): Buffer =>
  Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`), result, CLOSE]);
const CLOSE = Buffer.from("}");

/**
 * A tools/call result, UTF-8 encoded: the REST JSON as text content (for clients that only read
 * text) and, on success, the same bytes as structuredContent — spliced in, never re-parsed. An
 * error result carries no structuredContent: it would not match the tool's outputSchema.
 */
export function toolResultBytes(o: {
  json: string;
  isError: boolean;
  note?: string | undefined;
  structured?: boolean | undefined;
  meta?: Record<string, unknown> | undefined;
  key?: string | undefined;
}): Uint8Array {
  if (o.structured || o.meta) {
    const meta = o.meta ? `,"_meta":${JSON.stringify(o.meta)}` : "";
    return Buffer.from(
      `{"content":[{"type":"text","text":${JSON.stringify(o.json)}}],"structuredContent":${o.json},"isError":${o.isError}${meta}}`,
    );
  }
  if (o.isError) {
    const content = [`{"type":"text","text":${JSON.stringify(o.json)}}`];
    if (o.note) content.push(`{"type":"text","text":${JSON.stringify(o.note)}}`);
    return Buffer.from(`{"content":[${content.join(",")}],"isError":true}`);
  }
  // Under the tool's name and REST's ETag when there is one (mcp.tools.ts ToolOutcome.key):
  // looking a 100 KB text up by itself hashes all of it, and with the key the text is not even
  // decoded from REST's bytes on a hit (mcp.tools.ts restOutcome).
  const key = o.key ?? o.json;
  let bytes = wrapped.get(key);
  if (bytes === undefined) {
    const json = o.json;
    bytes = Buffer.from(
      `{"content":[{"type":"text","text":${JSON.stringify(json)}}],"structuredContent":${json},"isError":false}`,
    );
    if (json.length <= MEMO_MAX_CHARS) {
      wrapped.set(key, bytes);
      if (wrapped.size > MEMO_ENTRIES) wrapped.delete(wrapped.keys().next().value!);
    }
  }
  return bytes;
}

// Escaping a 50-mission list into a JSON string costs about as much as serving it from the list
// cache, and a 230 KB answer built as a string per call (the id spliced in) is flattened and
// encoded again on every write: the cache hands out the same list until a write, so the wrapped
// result is kept encoded, and each answer is three buffers joined (bench/README.md "The quiet
// run": the MCP list went from 0.21× to about the REST list's rate).
const MEMO_ENTRIES = 32;
const MEMO_MAX_CHARS = 1 << 20;
const wrapped = new Map<string, Buffer>();
