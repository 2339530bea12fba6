import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { normaliseContent } from "../../src/features/submissions/submissions.content";

// docs/abuse.md "In-flight request bytes": a base64 data: URI is hashed a chunk at a time; the
// hash must be the one of its bytes decoded whole, at and around every chunk boundary, in both
// base64 alphabets, padded or not; a lenient payload (whitespace) is decoded whole as before.
const sha = (b: Buffer) => `sha256:${createHash("sha256").update(b).digest("hex")}`;
const hashOf = (uri: string) => normaliseContent({ content_uri: uri } as never).contentHash;

describe("data: URI hash, chunked", () => {
  it("equals the hash of the bytes decoded whole", () => {
    const chunkBytes = (64 * 1024 * 3) / 4; // one chunk of base64 characters
    for (const n of [0, 1, 2, 3, chunkBytes - 1, chunkBytes, chunkBytes + 1, 3 * chunkBytes + 2]) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 131 + 7) % 256));
      const b64 = bytes.toString("base64");
      expect(hashOf(`data:application/octet-stream;base64,${b64}`), `n=${n}`).toBe(sha(bytes));
      expect(hashOf(`data:;base64,${b64.replace(/=+$/, "")}`), `unpadded n=${n}`).toBe(sha(bytes));
      expect(hashOf(`data:;base64,${bytes.toString("base64url")}`), `base64url n=${n}`).toBe(sha(bytes));
    }
    // Not strict (line breaks): decoded whole, the same bytes as before.
    const big = Buffer.alloc(200_000, 9);
    const wrapped = big.toString("base64").replace(/(.{76})/g, "$1\n");
    expect(hashOf(`data:;base64,${wrapped}`)).toBe(sha(Buffer.from(wrapped, "base64")));
    expect(hashOf("data:text/plain,hello%20world")).toBe(sha(Buffer.from("hello world")));
  });
});
