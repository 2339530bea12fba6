import { describe, expect, it } from "vitest";
import { ResponseCache } from "../../src/lib/response-cache";

describe("ResponseCache", () => {
  it("serves a stored value until invalidated", async () => {
    const c = new ResponseCache(1000);
    let n = 0;
    const fill = async () => `v${++n}`;
    expect(await c.get("k", fill)).toBe("v1");
    expect(await c.get("k", fill)).toBe("v1");
    c.invalidate();
    expect(await c.get("k", fill)).toBe("v2");
    expect({ hits: c.hits, misses: c.misses }).toEqual({ hits: 1, misses: 2 });
  });

  it("never stores a value whose fill overlapped an invalidation", async () => {
    const c = new ResponseCache(1000);
    let release!: () => void;
    const slow = c.get("k", () => new Promise<string>((r) => (release = () => r("stale"))));
    c.invalidate(); // a write committed while the query ran
    release();
    expect(await slow).toBe("stale"); // the caller still gets its answer…
    expect(await c.get("k", async () => "fresh")).toBe("fresh"); // …but it was not kept
  });

  it("stays within its size, evicting the least recently used", async () => {
    const c = new ResponseCache(400);
    for (const k of ["a", "b", "c", "d"]) await c.get(k, async () => k.repeat(100));
    await c.get("a", async () => "x"); // evicted already? then refilled
    await c.get("e", async () => "e".repeat(100));
    let calls = 0;
    await c.get("e", async () => `${++calls}`);
    expect(calls).toBe(0);
    await c.get("b", async () => `${++calls}`);
    expect(calls).toBe(1); // b was the oldest and went first
  });

  it("is a pass-through when disabled", async () => {
    const c = new ResponseCache(0);
    let n = 0;
    await c.get("k", async () => `${++n}`);
    await c.get("k", async () => `${++n}`);
    expect(n).toBe(2);
  });

  it("merges concurrent misses of one key into one fill; a fill begun before an invalidation is not shared after it", async () => {
    const c = new ResponseCache(1000);
    let fills = 0;
    let release!: (v: string) => void;
    const fill = () => {
      fills++;
      return new Promise<string>((r) => (release = r));
    };
    const a = c.get("k", fill);
    const b = c.get("k", fill);
    expect(fills).toBe(1);
    release("one");
    expect([await a, await b]).toEqual(["one", "one"]);

    const old = c.get("j", fill);
    const releaseOld = release;
    c.invalidate(); // a write committed while the first fill ran
    const after = c.get("j", fill); // must not get the pre-write answer
    expect(fills).toBe(3);
    release("new");
    releaseOld("old");
    expect(await old).toBe("old");
    expect(await after).toBe("new");
    // A failed fill is not shared with later callers.
    await expect(
      c.get("x", async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await c.get("x", async () => "ok")).toBe("ok");
  });

  it("refills an entry stamped below the reader's write token", async () => {
    const c = new ResponseCache(1000);
    let n = 0;
    const fill = async () => `v${++n}`;
    let position = 10n;
    const stamp = async () => position;
    // Filled at position 10 (no NOTIFY will come in this test: the cache alone must be strict).
    expect(await c.get("k", fill, { stamp })).toBe("v1");
    // A reader without a token, or with a token the entry includes, gets the entry.
    expect(await c.get("k", fill)).toBe("v1");
    expect(await c.get("k", fill, { after: 10n, stamp })).toBe("v1");
    // A write committed at 11 elsewhere: its writer's read must not get v1.
    position = 11n;
    expect(await c.get("k", fill, { after: 11n, stamp })).toBe("v2");
    expect(c.stale).toBe(1);
    // The refill replaced the entry: later readers (any token ≤ 11) get it from the cache.
    expect(await c.get("k", fill, { after: 11n, stamp })).toBe("v2");
    expect(await c.get("k", fill)).toBe("v2");
    // An entry with an unknown stamp (filled without freshness) never satisfies a token.
    expect(await c.get("u", fill)).toBe("v3");
    expect(await c.get("u", fill, { after: 1n, stamp })).toBe("v4");
    // An older fill finishing last does not replace a newer entry.
    let release!: () => void;
    const slow = c.get("s", () => new Promise<string>((r) => (release = () => r("old"))), { stamp: async () => 5n });
    await new Promise((r) => setTimeout(r, 0));
    expect(await c.get("s", async () => "new", { after: 20n, stamp: async () => 20n })).toBe("new");
    release();
    expect(await slow).toBe("old");
    expect(await c.get("s", fill, { after: 20n, stamp })).toBe("new");
  });
});
