import { sign } from "node:crypto";
import { digestOf, signingBytes } from "./canonical-json";
import type { ReceiptKeyring } from "./receipt-keys";

/**
 * Adds digest and the ed25519 signature (node:crypto) over the canonical bytes (AIP-1 §6.1).
 * Ed25519 is deterministic: the same payload and key always give the same receipt bytes.
 */
export function signReceipt<T extends Record<string, unknown>>(
  unsigned: T,
  keyring: ReceiptKeyring,
): T & { digest: string; signature: { alg: "ed25519"; key_id: string; value: string } } {
  const bytes = signingBytes(unsigned);
  const value = sign(null, bytes, keyring.active.privateKey).toString("base64url");
  return { ...unsigned, digest: digestOf(bytes), signature: { alg: "ed25519", key_id: keyring.active.keyId, value } };
}
