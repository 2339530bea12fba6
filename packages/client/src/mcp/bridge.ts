import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { OabpClient } from "../client.js";

// `oabp mcp`: a stdio MCP server that relays each JSON-RPC message to a server's Streamable HTTP
// endpoint (/mcp, one message per POST; README "MCP transport"). The bridge owns the HTTP session
// lifecycle (AIP-1 §7.3): it keeps the Mcp-Session-Id from `initialize`, sends it and the
// negotiated MCP-Protocol-Version on every later POST, transparently opens a new session (replaying
// the client's initialize + notifications/initialized) when the server answers 404 "session
// expired" (§7.3.2: idle timeout, restart), and ends the session with DELETE when stdin closes.
// Credentials are the CLI login's SIWE token, renewed on expiry and once after a 401.

export interface McpBridgeOptions {
  client: OabpClient;
  input: Readable;
  output: Writable;
  log?: (line: string) => void;
  timeoutMs?: number;
  /** Longest accepted stdin line (one JSON-RPC message), bytes. */
  maxLineBytes?: number;
  /** Messages queued behind the one in flight before new ones are refused. */
  maxQueue?: number;
}

type Msg = { jsonrpc?: string; id?: string | number | null; method?: string; params?: unknown };
type Reply = { status: number; body: string; sessionId: string | null };

export class McpBridge {
  private sessionId: string | null = null;
  private protocolVersion: string | null = null;
  private initParams: unknown;
  private chain: Promise<void> = Promise.resolve();
  private queued = 0;
  private reinits = 0;
  private readonly endpoint: string;

  constructor(private readonly o: McpBridgeOptions) {
    this.endpoint = `${o.client.baseUrl}/mcp`;
  }

  /** Relays until stdin ends, then ends the HTTP session; resolves when done. */
  async run(): Promise<void> {
    const rl = createInterface({ input: this.o.input, crlfDelay: Infinity });
    for await (const line of rl) {
      if (!line.trim()) continue;
      if (Buffer.byteLength(line) > (this.o.maxLineBytes ?? 4 * 1024 * 1024)) {
        this.write({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "message too large for the bridge" } });
        continue;
      }
      let msg: Msg;
      try {
        msg = JSON.parse(line);
      } catch {
        this.write({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
        continue;
      }
      if (this.queued >= (this.o.maxQueue ?? 256)) {
        if (msg.id !== undefined)
          this.write({ jsonrpc: "2.0", id: msg.id, error: { code: -32000, message: "bridge queue full; retry" } });
        continue;
      }
      this.queued++;
      // In order: initialize must finish before anything may use its session.
      this.chain = this.chain
        .then(() => this.relay(msg))
        .catch((e) => this.log(`relay failed: ${(e as Error).message}`))
        .finally(() => void this.queued--);
    }
    await this.chain;
    await this.close();
  }

  /** DELETE /mcp for the current session (always 200 on OABP servers). */
  async close(): Promise<void> {
    if (!this.sessionId) return;
    const id = this.sessionId;
    this.sessionId = null;
    const res = await fetch(this.endpoint, {
      method: "DELETE",
      headers: await this.headers(id),
      signal: AbortSignal.timeout(5_000),
    }).catch(() => undefined);
    this.log(`session ${id} ended (${res?.status ?? "unreachable"})`);
  }

  private log(line: string) {
    this.o.log?.(line);
  }

  private write(obj: unknown) {
    this.o.output.write(`${JSON.stringify(obj)}\n`);
  }

  private async headers(sessionId: string | null): Promise<Record<string, string>> {
    const h: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (sessionId) h["mcp-session-id"] = sessionId;
    if (this.protocolVersion) h["mcp-protocol-version"] = this.protocolVersion;
    const auth = await this.o.client
      .authorization()
      .catch((e) => (this.log(`sign-in failed: ${(e as Error).message}`), undefined));
    if (auth) h.authorization = auth;
    return h;
  }

  private async post(msg: Msg, sessionId: string | null, renewed = false): Promise<Reply> {
    const res = await fetch(this.endpoint, {
      method: "POST",
      headers: await this.headers(sessionId),
      body: JSON.stringify(msg),
      redirect: "error",
      signal: AbortSignal.timeout(this.o.timeoutMs ?? 120_000),
    });
    const body = await res.text();
    if (res.status === 401 && !renewed && (await this.o.client.renew().catch(() => false)))
      return this.post(msg, sessionId, true);
    return { status: res.status, body, sessionId: res.headers.get("mcp-session-id") };
  }

  private async relay(msg: Msg): Promise<void> {
    const isRequest = msg.id !== undefined && msg.id !== null && typeof msg.method === "string";
    try {
      let reply: Reply;
      if (msg.method === "initialize") {
        this.initParams = msg.params;
        reply = await this.post(msg, null);
        if (reply.sessionId) {
          this.sessionId = reply.sessionId;
          this.log(`session ${reply.sessionId} opened`);
        }
        const version = parse(reply.body)?.result?.protocolVersion;
        if (typeof version === "string") this.protocolVersion = version;
      } else {
        reply = await this.post(msg, this.sessionId);
        // §7.3.2: 404 = the session is gone (idle, expired, server restarted): open a new one once.
        if (reply.status === 404 && this.sessionId && this.initParams !== undefined && (await this.reinitialize())) {
          reply = await this.post(msg, this.sessionId);
        }
      }
      this.forward(msg, reply, isRequest);
    } catch (e) {
      if (isRequest)
        this.write({ jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: `bridge: ${(e as Error).message}` } });
      else this.log(`notification ${msg.method} not delivered: ${(e as Error).message}`);
    }
  }

  private async reinitialize(): Promise<boolean> {
    this.reinits++;
    const init = await this.post(
      { jsonrpc: "2.0", id: `oabp-bridge-reinit-${this.reinits}`, method: "initialize", params: this.initParams },
      null,
    );
    if (init.status !== 200 || !init.sessionId) return false;
    this.sessionId = init.sessionId;
    this.log(`session ${init.sessionId} opened (renewal)`);
    const done = await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, this.sessionId);
    this.log(`session renewed (${done.status})`);
    return done.status < 300;
  }

  private forward(msg: Msg, reply: Reply, isRequest: boolean) {
    const text = reply.body.trim();
    if (!text) {
      if (isRequest)
        this.write({
          jsonrpc: "2.0",
          id: msg.id,
          error: { code: -32603, message: `upstream answered HTTP ${reply.status} with no body` },
        });
      return;
    }
    // An event stream (not sent by OABP servers, allowed by MCP): relay each data line.
    if (text.startsWith("event:") || text.startsWith("data:") || text.startsWith(":") || text.startsWith("retry:")) {
      for (const l of text.split("\n"))
        if (l.startsWith("data:") && l.slice(5).trim()) this.o.output.write(`${l.slice(5).trim()}\n`);
      return;
    }
    const body = parse(text);
    if (body && typeof body === "object" && ("result" in body || "error" in body)) {
      // Upstream 4xx bodies are JSON-RPC errors; a notification gets no answer on stdio (JSON-RPC).
      if (isRequest) this.write({ ...body, id: body.id ?? msg.id });
      else if ("error" in body) this.log(`${msg.method}: ${JSON.stringify(body.error)}`);
      return;
    }
    if (isRequest)
      this.write({
        jsonrpc: "2.0",
        id: msg.id,
        error: { code: -32603, message: `upstream HTTP ${reply.status}`, data: body ?? text.slice(0, 500) },
      });
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON-RPC message from the peer, read field by field
function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
