import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import {
  brotliQuality,
  CompressedCache,
  compression,
  negotiateEncoding,
  varyWithEncoding,
} from "../../src/http/compression";
import { sendJsonDoc } from "../../src/http/http-cache";
import type { AppEnv } from "../../src/http/types";

// docs/web.md "Delivery": the coding chosen from Accept-Encoding (RFC 9110 §12.5.3) and the cache
// that compresses a body served again only once.

describe("negotiateEncoding", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["identity", undefined],
    ["deflate", undefined],
    ["gzip", "gzip"],
    ["br", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0, gzip;q=0", undefined],
    ["*", "br"],
    ["*;q=0", undefined],
    ["gzip;q=0.8, *;q=0.9", "br"],
    ["br;q=0.2, gzip;q=0.2", "br"],
    ["BR ; Q=0.9 , GZIP;q=0.1", "br"],
    ["x-gzip", "gzip"],
    ["gzip;q=bogus", "gzip"],
  ] as const)("%j → %j", (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });
});

describe("varyWithEncoding", () => {
  it("adds Accept-Encoding once", () => {
    expect(varyWithEncoding(null)).toBe("Accept-Encoding");
    expect(varyWithEncoding("Cookie, Accept")).toBe("Cookie, Accept, Accept-Encoding");
    expect(varyWithEncoding("Authorization, accept-encoding")).toBe("Authorization, accept-encoding");
  });
});

describe("CompressedCache", () => {
  const body = new TextEncoder().encode(JSON.stringify({ missions: Array.from({ length: 200 }, (_, i) => ({ i })) }));

  it("compresses one body once per coding; the bytes decode to the body", async () => {
    const cache = new CompressedCache(1024 * 1024);
    const [a, b] = await Promise.all([cache.get(body, "br", false), cache.get(body, "br", false)]);
    expect(a).toBe(b); // the concurrent miss shared one compression
    const c = await cache.get(body, "br", false);
    expect(c).toBe(a);
    expect(Buffer.from(brotliDecompressSync(c)).equals(Buffer.from(body))).toBe(true);
    const g = await cache.get(body, "gzip", false);
    expect(Buffer.from(gunzipSync(g)).equals(Buffer.from(body))).toBe(true);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 3 });
  });

  it("is bounded by bytes: the least recently used body goes first; 0 keeps nothing", async () => {
    // Fixed, equally sized bodies (hex of a hash chain): each compresses to about the same size.
    const bodies = Array.from({ length: 8 }, (_, i) => {
      let h = `body ${i}`;
      const parts: string[] = [];
      for (let k = 0; k < 40; k++) parts.push((h = createHash("sha256").update(h).digest("hex")));
      return new TextEncoder().encode(`${i}`.repeat(2000) + parts.join(""));
    });
    const sizes = await Promise.all(
      bodies.map(async (b) => (await new CompressedCache(1 << 20).get(b, "br", false)).byteLength),
    );
    // Room for four of the largest, never five of the smallest.
    const cache = new CompressedCache(Math.max(...sizes) * 4 + 10);
    expect(Math.min(...sizes) * 5).toBeGreaterThan(Math.max(...sizes) * 4 + 10);
    for (const b of bodies) await cache.get(b, "br", false);
    const misses = cache.misses;
    await cache.get(bodies[7]!, "br", false);
    expect(cache.misses).toBe(misses); // recent: kept
    await cache.get(bodies[0]!, "br", false);
    expect(cache.misses).toBe(misses + 1); // oldest: evicted
    const none = new CompressedCache(0);
    await none.get(body, "br", false);
    await none.get(body, "br", false);
    expect(none.hits).toBe(0);
  });

  it("brotli quality: 11 for small immutable assets, 9 for large ones, 5 for dynamic bodies", () => {
    expect(brotliQuality(10_000, true)).toBe(11);
    expect(brotliQuality(2_000_000, true)).toBe(9);
    expect(brotliQuality(10_000, false)).toBe(5);
  });
});

// bench/README.md "What made anonymous reads dearer": a stored JSON document whose compressed
// bytes are cached goes out from sendJsonDoc, not rebuilt by the middleware after the handler.
describe("sendJsonDoc under compression()", () => {
  const text = JSON.stringify({ data: Array.from({ length: 300 }, (_, i) => ({ id: `m${i}`, title: "a mission" })) });
  const build = (cache: CompressedCache) => {
    const app = new Hono<AppEnv>();
    app.use("*", compression(cache));
    app.get("/doc", (c) => sendJsonDoc(c, { etag: '"strong-tag"', body: text }));
    return app;
  };

  it("a cached body is sent as it is stored: no second pass, same bytes, weak ETag, 304 still", async () => {
    const cache = new CompressedCache(1 << 20);
    const app = build(cache);
    const pass = vi.spyOn(cache, "get");
    const first = await app.request("/doc", { headers: { "accept-encoding": "br" } });
    expect(pass).toHaveBeenCalledTimes(1); // a miss: the middleware compresses and keeps it
    const second = await app.request("/doc", { headers: { "accept-encoding": "br" } });
    expect(pass).toHaveBeenCalledTimes(1); // a hit: answered by sendJsonDoc itself
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 1 });
    for (const r of [first, second]) {
      expect(r.status).toBe(200);
      expect(r.headers.get("content-encoding")).toBe("br");
      expect(r.headers.get("etag")).toBe('W/"strong-tag"');
      expect(Buffer.from(brotliDecompressSync(Buffer.from(await r.arrayBuffer()))).toString("utf8")).toBe(text);
    }
    const gz = await app.request("/doc", { headers: { "accept-encoding": "gzip" } });
    expect(pass).toHaveBeenCalledTimes(2); // another coding: another entry
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString("utf8")).toBe(text);
    const plain = await app.request("/doc");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("etag")).toBe('"strong-tag"');
    expect(await plain.text()).toBe(text);
    const held = await app.request("/doc", { headers: { "accept-encoding": "br", "if-none-match": 'W/"strong-tag"' } });
    expect(held.status).toBe(304);
    expect(pass).toHaveBeenCalledTimes(2);
  });

  it("with the cache off every answer is compressed by the middleware, as before", async () => {
    const cache = new CompressedCache(0);
    const app = build(cache);
    const pass = vi.spyOn(cache, "get");
    for (let i = 0; i < 2; i++) {
      const r = await app.request("/doc", { headers: { "accept-encoding": "gzip" } });
      expect(r.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(Buffer.from(await r.arrayBuffer())).toString("utf8")).toBe(text);
    }
    expect(pass).toHaveBeenCalledTimes(2);
  });
});
