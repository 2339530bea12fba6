import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const sha256Hex = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString("base64url");

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(sha256Hex(a), "hex");
  const bb = Buffer.from(sha256Hex(b), "hex");
  return timingSafeEqual(ab, bb);
}

// AIP-1 §3 content_hash: accept "0x<hex>", bare hex or "sha256:<hex>"; store "sha256:<hex>".
const HASH_RE = /^(?:0x|sha256:)?([0-9a-fA-F]{64})$/;
export function normalizeSha256(input: string): string | null {
  const m = HASH_RE.exec(input.trim());
  return m ? `sha256:${m[1]!.toLowerCase()}` : null;
}

/** AIP-1 §3 wire form of a stored "sha256:<hex>": "0x<hex>" (receipts keep sha256:, §6.1). */
export const wireSha256 = (stored: string): string => (stored.startsWith("sha256:") ? `0x${stored.slice(7)}` : stored);
