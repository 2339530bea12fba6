import { createHash } from "node:crypto";

// What a creator's predicate_uri is sent about a submission (docs/decisions.md "No free work
// through disputes or predicates"): a commitment to the deliverable — its content_hash and length
// — and a sample of its bytes, never the content_uri nor the whole work. The sample is
// SAMPLE_WINDOWS windows, one in each equal stretch of the content, together at most an eighth of
// its bytes and SAMPLE_MAX_BYTES; their offsets are drawn from the submission's id, which the
// server assigns after the content is committed (content_hash), so the submitter cannot place good
// bytes where the windows fall, and a retried check is sent the same sample (the predicate cannot
// collect more of the work by failing).

/** The sample is at most 1/SAMPLE_DIVISOR of the content's bytes. */
export const SAMPLE_DIVISOR = 8;
const SAMPLE_MAX_BYTES = 4096;
const SAMPLE_WINDOWS = 4;

interface SampleWindow {
  offset: number;
  length: number;
  /** The window's bytes, base64. */
  data: string;
}

/** The sample of `content` for the submission `seed` (its id and content_hash). */
export function sampleOf(content: Buffer, seed: string): { total_bytes: number; windows: SampleWindow[] } {
  const budget = Math.min(SAMPLE_MAX_BYTES, Math.floor(content.length / SAMPLE_DIVISOR));
  const windows: SampleWindow[] = [];
  const count = Math.min(SAMPLE_WINDOWS, budget);
  if (count === 0) return { total_bytes: content.length, windows };
  const length = Math.floor(budget / count);
  const stretch = Math.floor(content.length / count);
  const digest = createHash("sha256").update(seed).digest();
  for (let i = 0; i < count; i++) {
    // length ≤ stretch / 8, so each window fits in its own stretch: windows never overlap.
    const offset = i * stretch + (digest.readUInt32BE(i * 4) % (stretch - length + 1));
    windows.push({ offset, length, data: content.subarray(offset, offset + length).toString("base64") });
  }
  return { total_bytes: content.length, windows };
}
