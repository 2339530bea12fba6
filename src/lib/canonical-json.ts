import canonicalize from "canonicalize";

// AIP-1 §6.1: digest and signature cover the RFC 8785 (JCS) canonical bytes of the receipt with
// `digest` and `signature` removed. Every other field — including ones a future AIP adds — is
// covered, so verifiers may tolerate unknown fields without weakening the signature.

/** RFC 8785 canonical JSON text; throws on values JSON cannot carry (undefined, bigint, NaN). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error("value has no JSON representation");
  return text;
}

// The bytes that are digested and signed (the receipt without digest and signature) and their
// digest: declared once, beside the verifier that checks them, in the client package.
export { digestOf, signingBytes } from "../../packages/client/src/receipts";
