import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./types";

// Response compression (docs/web.md "Delivery"): brotli or gzip, chosen by the request's
// Accept-Encoding with its q-values (RFC 9110 §12.5.3), for text bodies — HTML, JSON, CSS,
// JavaScript, XML, SVG, plain text. Never for bodies already compressed (/client.tgz is gzip),
// never for streams (Server-Sent Events, NDJSON), never below MIN_BYTES, never past MAX_BYTES.
//
// Bounded CPU: compressed bytes are kept in a byte-bounded LRU keyed by the body's SHA-256 and the
// encoding, so a body served again — a cached mission list or mission document, an asset, a page
// rendered from the cache — is compressed once, whatever the number of readers. Hashing is ~50×
// cheaper than brotli. Compression runs on libuv's thread pool (zlib's async API), not the event loop.

const COMPRESSIBLE =
  /^(text\/(html|css|plain|javascript|xml|markdown|csv)|application\/(json|[a-z0-9.+-]+\+json|javascript|xml|[a-z0-9.+-]+\+xml|manifest\+json)|image\/svg\+xml)\b/i;
/** Below this a compressed body saves less than the headers it adds. */
const MIN_BYTES = 1024;
/** Past this the body is sent as it is (nothing this server renders comes close but the API bundle). */
const MAX_BYTES = 8 * 1024 * 1024;

export type Coding = "br" | "gzip";
const NEGOTIATED_MAX = 64;

/**
 * The coding to use for an Accept-Encoding header: the highest q among br and gzip (`*` stands
 * for those not named), br on a tie; none when both are absent or q=0.
 */
export function negotiateEncoding(header: string | undefined): Coding | undefined {
  if (!header) return undefined;
  const q: Record<string, number> = {};
  for (const part of header.slice(0, 1000).split(",")) {
    const [rawName, ...params] = part.toLowerCase().split(";");
    const name = rawName?.trim();
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p);
      if (m) weight = Math.min(1, Number(m[1]));
    }
    q[name] = weight;
  }
  const of = (c: Coding) => q[c] ?? q["*"] ?? 0;
  const br = of("br");
  const gz = of("gzip") || (q["gzip"] === undefined ? (q["x-gzip"] ?? 0) : 0);
  if (br <= 0 && gz <= 0) return undefined;
  return br >= gz ? "br" : "gzip";
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli quality: 11 for immutable assets up to 256 KiB (compressed once per process), 9 past that
 * (quality 11 takes ~11 s on the 1.7 MB Swagger bundle, 9 half a second for 9 % more bytes), 5
 * for everything else — dynamic bodies get most of the gain at a fraction of the CPU.
 */
export function brotliQuality(bytes: number, immutable: boolean): number {
  return immutable ? (bytes <= 256 * 1024 ? 11 : 9) : 5;
}

async function compressBytes(body: Uint8Array, coding: Coding, immutable: boolean): Promise<Uint8Array> {
  if (coding === "gzip") return gzipAsync(body, { level: 6 });
  return brotli(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: brotliQuality(body.byteLength, immutable),
      [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

/**
 * Memory for compressed (brotli, gzip) response bodies, keyed by the body's hash, so a body served
 * again is compressed once.
 */
export const COMPRESSED_CACHE_BYTES = 16 * 1024 * 1024;

/** Compressed bodies by (coding, SHA-256 of the identity body), least recently used out first. */
export class CompressedCache {
  private readonly entries = new Map<string, Uint8Array>();
  private readonly inflight = new Map<string, Promise<Uint8Array>>();
  private bytes = 0;
  hits = 0;
  misses = 0;
  constructor(private readonly maxBytes: number) {}

  /**
   * The compressed bytes of a body already in the cache, or undefined (nothing is compressed
   * here): sendJsonDoc's synchronous path. A string is hashed as its UTF-8 bytes, as sent.
   */
  cached(body: string | Uint8Array, coding: Coding): Uint8Array | undefined {
    if (this.maxBytes <= 0) return undefined;
    return this.lookup(`${coding}:${createHash("sha256").update(body).digest("base64url")}`);
  }

  private lookup(key: string): Uint8Array | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  async get(body: Uint8Array, coding: Coding, immutable: boolean): Promise<Uint8Array> {
    if (this.maxBytes <= 0) return compressBytes(body, coding, immutable);
    const key = `${coding}:${createHash("sha256").update(body).digest("base64url")}`;
    const hit = this.lookup(key);
    if (hit) return hit;
    this.misses++;
    // Concurrent misses of one body share one compression (a burst on a new asset costs one).
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = compressBytes(body, coding, immutable);
      this.inflight.set(key, pending);
      void pending.finally(() => this.inflight.delete(key)).catch(() => undefined);
    }
    const out = await pending;
    if (out.byteLength <= this.maxBytes / 4 && !this.entries.has(key)) {
      this.entries.set(key, out);
      this.bytes += out.byteLength;
      for (const [k, v] of this.entries) {
        if (this.bytes <= this.maxBytes) break;
        this.entries.delete(k);
        this.bytes -= v.byteLength;
      }
    }
    return out;
  }
}

/** Compressed bytes of long-lived bodies, by the body object: see `encodedOnce`. */
const byBody = new WeakMap<Uint8Array, Partial<Record<Coding, Promise<Uint8Array>>>>();

/**
 * The compressed bytes of a body held for many requests (a memoised document), found by the
 * body's identity — no hash of it per request — and compressed once per coding; undefined when
 * the body is outside the sizes worth compressing (it goes out as it is, as compression() would).
 */
export function encodedOnce(encoder: Encoder, body: Uint8Array): Promise<Uint8Array> | undefined {
  if (body.byteLength < MIN_BYTES || body.byteLength > MAX_BYTES) return undefined;
  let codings = byBody.get(body);
  if (!codings) byBody.set(body, (codings = {}));
  const pending = codings[encoder.coding] ?? encoder.cache.get(body, encoder.coding, false);
  codings[encoder.coding] = pending;
  pending.catch(() => delete codings[encoder.coding]);
  return pending;
}

/** Adds `Accept-Encoding` to a Vary header value (once). */
export function varyWithEncoding(vary: string | null): string {
  if (!vary) return "Accept-Encoding";
  if (vary.split(",").some((v) => v.trim().toLowerCase() === "accept-encoding" || v.trim() === "*")) return vary;
  return `${vary}, Accept-Encoding`;
}

/**
 * What the middleware leaves on the context of a GET that accepts br or gzip: a handler that holds
 * its body (sendJsonDoc) sends the cached compressed bytes itself and clears it, so the answer keeps
 * the node server's fast path (bench/README.md "What made anonymous reads dearer").
 */
export interface Encoder {
  coding: Coding;
  cache: CompressedCache;
}

/**
 * The middleware. It touches the finished response only when the request accepts br or gzip
 * (reading c.res after next() costs the node server's fast path, bench/README.md), so a client
 * that asks for no compression pays nothing; nor does one whose answer the handler already
 * encoded (the `encoder` variable cleared).
 */
export function compression(cache: CompressedCache): MiddlewareHandler<AppEnv> {
  const encoders: Record<Coding, Encoder> = { br: { coding: "br", cache }, gzip: { coding: "gzip", cache } };
  const encode = async (c: Context<AppEnv>, next: () => Promise<void>, coding: Coding) => {
    c.set("encoder", encoders[coding]);
    await next();
    if (c.get("encoder") === undefined || !compressible(c.res)) return;
    const res = c.res;
    const cacheControl = res.headers.get("cache-control") ?? "";
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    headers.set("Vary", varyWithEncoding(headers.get("vary")));
    c.res = undefined as never; // replaced, not merged: the old headers must not come back
    if (body.byteLength < MIN_BYTES || body.byteLength > MAX_BYTES) {
      c.res = new Response(body, { status: res.status, headers });
      return;
    }
    const out = await cache.get(body, coding, /\bimmutable\b/i.test(cacheControl));
    headers.set("Content-Encoding", coding);
    headers.delete("Content-Length");
    // A strong validator names one representation's bytes: the compressed one is another (RFC 9110
    // §8.8.1), so it is weakened; weak comparison (If-None-Match) still matches, and 304 still works.
    const etag = headers.get("etag");
    if (etag && !etag.startsWith("W/")) headers.set("ETag", `W/${etag}`);
    c.res = new Response(out as Uint8Array<ArrayBuffer>, { status: 200, headers });
  };
  // Clients send a handful of distinct Accept-Encoding values: each is parsed once, at most
  // NEGOTIATED_MAX of up to 200 characters kept (the first seen; others are parsed per request).
  const negotiated = new Map<string, Coding | undefined>();
  const codingOf = (header: string | undefined): Coding | undefined => {
    if (!header) return undefined;
    if (negotiated.has(header)) return negotiated.get(header);
    const coding = negotiateEncoding(header);
    if (negotiated.size < NEGOTIATED_MAX && header.length <= 200) negotiated.set(header, coding);
    return coding;
  };
  return (c, next) => {
    const coding = c.req.method === "GET" ? codingOf(c.req.header("accept-encoding")) : undefined;
    return coding ? encode(c, next, coding) : next();
  };
}

/** A 200 with a body of a compressible type and a size worth compressing, not encoded yet nor `no-transform`. */
function compressible(res: Response): boolean {
  if (res.status !== 200 || !res.body) return false;
  const h = res.headers;
  if (h.has("content-encoding") || !COMPRESSIBLE.test(h.get("content-type") ?? "")) return false;
  if (/\bno-transform\b/i.test(h.get("cache-control") ?? "")) return false;
  const declared = Number(h.get("content-length") ?? NaN);
  return !(declared < MIN_BYTES || declared > MAX_BYTES);
}
