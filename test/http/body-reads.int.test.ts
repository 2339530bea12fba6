import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveTestApp, type ServedTestApp } from "../helpers/served";

// Request bodies over real HTTP (src/http/middleware.ts limitBody): a body with Content-Length is
// sized from the header and read straight from the socket; a chunked one is sized by reading it,
// and a route with a limit of its own (ADP's card) reads it again. app.request() builds WHATWG
// Requests and never takes the socket path, so these go through @hono/node-server.

const LIMIT = 131_072;
const CARD_LIMIT = 65_535; // ADP §7.6

let t: ServedTestApp;
beforeAll(async () => {
  t = await serveTestApp({ OABP_BODY_LIMIT_BYTES: String(LIMIT) });
});
afterAll(() => t.close());

/** POSTs `body` with Content-Length, or chunked (no Content-Length, written in pieces). */
function post(path: string, body: string, mode: "length" | "chunked"): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(body);
    const req = http.request(
      `${t.base}${path}`,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(mode === "length" ? { "content-length": String(bytes.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null });
        });
      },
    );
    req.on("error", reject);
    if (mode === "length") req.end(bytes);
    else {
      for (let i = 0; i < bytes.length; i += 4096) req.write(bytes.subarray(i, i + 4096));
      req.end();
    }
  });
}

/** A JSON object of about `size` bytes whose `limit` is not a number. */
const padded = (size: number) => JSON.stringify({ limit: "x", query: "q".repeat(Math.max(0, size - 40)) });

describe("request bodies over real HTTP", () => {
  for (const mode of ["length", "chunked"] as const) {
    it(`${mode}: a body within the limit is read and validated by the route`, async () => {
      const r = await post("/adp/adp.discover", padded(2_000), mode);
      expect(r.status).toBe(400);
      expect(r.json.error).toBe("INVALID_PARAMETER");
      expect(JSON.stringify(r.json.details)).toContain("limit");
    });

    it(`${mode}: a body past the limit is 413 PAYLOAD_TOO_LARGE`, async () => {
      const r = await post("/adp/adp.discover", padded(LIMIT + 10_000), mode);
      expect(r.status).toBe(413);
      expect(r.json).toMatchObject({ error: "PAYLOAD_TOO_LARGE", details: { limit_bytes: LIMIT } });
    });

    it(`${mode}: a route's own smaller limit (an ADP card) still applies after the body was read`, async () => {
      const r = await post("/adp/adp.advertise", padded(CARD_LIMIT + 1_000), mode);
      expect(r.status).toBe(413);
      expect(r.json).toMatchObject({ error: "PAYLOAD_TOO_LARGE", details: { reason: "card_too_large" } });
    });

    it(`${mode}: MCP and A2A refuse a body past the limit in their own JSON-RPC shapes`, async () => {
      const mcp = await post("/mcp", padded(LIMIT + 10_000), mode);
      expect(mcp.status).toBe(413);
      expect(mcp.json).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: { message: expect.stringContaining("Payload Too Large") },
      });
      const a2a = await post("/a2a", padded(LIMIT + 10_000), mode);
      expect(a2a.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { data: expect.anything() } });
      expect(JSON.stringify(a2a.json.error)).toContain("payload_too_large");
    });
  }

  it("a body within the limit reaches an MCP handler", async () => {
    const r = await post("/mcp", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), "chunked");
    expect(r.json).toMatchObject({ jsonrpc: "2.0", id: 1 });
  });
});
