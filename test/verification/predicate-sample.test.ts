import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SAMPLE_DIVISOR, sampleOf } from "../../src/features/verification/predicate-sample";

// The sample a predicate_uri is sent (docs/decisions.md "No free work through disputes or
// predicates"): at most an eighth of the bytes and 4 KiB, windows that never overlap, the same for
// the same submission, elsewhere for another.

const covered = (s: ReturnType<typeof sampleOf>) => s.windows.reduce((n, w) => n + w.length, 0);

describe("predicate sample", () => {
  it("is bounded, exact, disjoint and the same for the same seed", () => {
    for (const size of [0, 7, 8, 40, 1000, 6005, 32_768, 1 << 20]) {
      const content = randomBytes(size);
      const s = sampleOf(content, `sub_${size}:sha256:x`);
      expect(s.total_bytes).toBe(size);
      expect(covered(s)).toBeLessThanOrEqual(Math.min(4096, Math.floor(size / SAMPLE_DIVISOR)));
      let end = 0;
      for (const w of s.windows) {
        expect(w.offset).toBeGreaterThanOrEqual(end);
        end = w.offset + w.length;
        expect(end).toBeLessThanOrEqual(size);
        expect(Buffer.from(w.data, "base64").equals(content.subarray(w.offset, end))).toBe(true);
      }
      expect(sampleOf(content, `sub_${size}:sha256:x`)).toEqual(s);
    }
    expect(sampleOf(Buffer.alloc(7), "a").windows).toEqual([]);
  });

  it("another submission of the same content is sampled elsewhere", () => {
    const content = randomBytes(64 * 1024);
    const a = sampleOf(content, "sub_a:sha256:x").windows.map((w) => w.offset);
    const b = sampleOf(content, "sub_b:sha256:x").windows.map((w) => w.offset);
    expect(a).not.toEqual(b);
  });
});
