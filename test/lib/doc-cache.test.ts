import { describe, expect, it } from "vitest";
import { DocCache } from "../../src/lib/doc-cache";

describe("DocCache", () => {
  it("answers only for the exact version it holds", () => {
    const c = new DocCache(1 << 20);
    c.set("a", 5, '{"v":5}');
    expect(c.get("a", 5)).toBe('{"v":5}');
    expect(c.get("a", 6)).toBeUndefined();
    expect(c.get("a", 4)).toBeUndefined();
    expect(c.get("b", 5)).toBeUndefined();
  });

  it("a newer version replaces an older one; an older fill never replaces a newer one", () => {
    const c = new DocCache(1 << 20);
    c.set("a", 5, "five");
    c.set("a", 7, "seven");
    c.set("a", 6, "six"); // a slow fill that read the row before the last update
    expect(c.get("a", 7)).toBe("seven");
    expect(c.get("a", 6)).toBeUndefined();
    expect(c.size).toBe(1);
  });

  it("stays within its bound, least recently used out first; 0 = off", () => {
    const c = new DocCache(16 * 10);
    for (let i = 0; i < 10; i++) c.set(`k${i}`, 1, "x".repeat(10));
    expect(c.get("k0", 1)).toBe("x".repeat(10)); // k0 now most recent
    for (let i = 10; i < 15; i++) c.set(`k${i}`, 1, "x".repeat(10));
    expect(c.size).toBeLessThanOrEqual(16);
    c.set("big", 1, "y".repeat(100)); // > a sixteenth of the bound: not kept
    expect(c.get("big", 1)).toBeUndefined();
    const off = new DocCache(0);
    off.set("a", 1, "x");
    expect(off.get("a", 1)).toBeUndefined();
  });
});
