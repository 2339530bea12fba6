import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { brotliQuality, CompressedCache, negotiateEncoding, varyWithEncoding } from "../../src/http/compression";

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
