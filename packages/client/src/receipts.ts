import { createHash } from "node:crypto";
import * as ed from "@noble/ed25519";
import canonicalize from "canonicalize";

// AIP-1 §6.1 receipt verification offline: nothing but the receipt and the issuer's manifest
// (`receipt_signing_keys`). The ONE copy of the procedure: the server (POST /receipts/verify, the
// oabp-verify-receipt command) imports this module, and the packed client bundles it. It imports
// no server code and nothing outside node:crypto, @noble/ed25519 and canonicalize, so both can.
// The signature check uses @noble/ed25519, a code path independent of the server's node:crypto signer.

/** The bytes that are digested and signed: RFC 8785 (JCS) text of the receipt without digest and signature. */
export function signingBytes(receipt: Record<string, unknown>): Uint8Array {
  const { digest: _digest, signature: _signature, ...payload } = receipt;
  const text = canonicalize(payload);
  if (text === undefined) throw new Error("value has no JSON representation");
  return new TextEncoder().encode(text);
}

export const digestOf = (bytes: Uint8Array): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

const RECEIPT_TYPE = "oabp.mission_receipt";
export const VERIFICATION_RESULTS = ["accepted", "rejected", "voided", "disputed"] as const;
export const SETTLEMENT_STATUSES = [
  "not_applicable",
  "queued",
  "broadcast",
  "settled",
  "credited",
  "failed",
  "voided",
  "disputed",
] as const;

/** Failure reasons (stable constants; `invalid_field:<path>` names the offending field). */
export const RECEIPT_REASONS = {
  malformedReceipt: "malformed_receipt",
  wrongType: "wrong_type",
  invalidField: (p: string) => `invalid_field:${p}`,
  contextMismatch: (p: string) => `context_mismatch:${p}`,
  issuerMismatch: "issuer_mismatch",
  digestMismatch: "digest_mismatch",
  unsupportedAlg: "unsupported_alg",
  malformedManifest: "malformed_manifest",
  unknownKeyId: "unknown_key_id",
  malformedKey: "malformed_public_key",
  keyRetiredBeforeIssue: "key_retired_before_issued_at",
  keyNotYetValid: "key_not_valid_at_issued_at",
  badSignature: "bad_signature",
  notCanonicalisable: "not_canonicalisable",
} as const;

export interface ReceiptVerification {
  valid: boolean;
  reasons: string[];
  /** queued/broadcast settlements are provisional until the receipt progresses (§6.1). */
  provisional: boolean;
}

export interface ReceiptExpectations {
  mission_id?: string;
  submission_id?: string;
  agent_id?: string;
  /** The origin whose manifest is used; the receipt's issuer must be it. */
  issuer?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === "string" && v.length > 0;
const isTime = (v: unknown) => isStr(v) && !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}T/.test(v);
const B64URL = /^[A-Za-z0-9_-]+$/;

function fieldProblems(r: Obj): string[] {
  const bad: string[] = [];
  const need = (ok: boolean, p: string) => void (ok || bad.push(RECEIPT_REASONS.invalidField(p)));
  for (const k of ["spec_version", "issuer", "mission_id", "submission_id", "agent_id"]) need(isStr(r[k]), k);
  need(isTime(r.issued_at), "issued_at");
  need(isStr(r.content_hash) && /^[a-z0-9-]+:[0-9a-f]+$/.test(r.content_hash as string), "content_hash");
  const v = r.verification;
  need(isObj(v), "verification");
  if (isObj(v)) {
    need(isStr(v.type), "verification.type");
    need((VERIFICATION_RESULTS as readonly unknown[]).includes(v.result), "verification.result");
    need(isTime(v.decided_at), "verification.decided_at");
    need(isStr(v.verifier), "verification.verifier");
  }
  const s = r.settlement;
  need(isObj(s), "settlement");
  if (isObj(s)) {
    need((SETTLEMENT_STATUSES as readonly unknown[]).includes(s.status), "settlement.status");
    need(isStr(s.asset), "settlement.asset");
    for (const k of ["amount", "fee_amount"])
      need(typeof s[k] === "string" && /^(0|[1-9][0-9]*)$/.test(s[k] as string), `settlement.${k}`);
  }
  need(isStr(r.digest), "digest");
  return bad;
}

export async function verifyReceipt(
  receipt: unknown,
  manifest: unknown,
  expect: ReceiptExpectations = {},
): Promise<ReceiptVerification> {
  const reasons: string[] = [];
  const done = (provisional = false): ReceiptVerification => ({
    valid: reasons.length === 0,
    reasons,
    provisional: reasons.length === 0 && provisional,
  });
  if (!isObj(receipt)) return (reasons.push(RECEIPT_REASONS.malformedReceipt), done());
  // Step 2: type and the surrounding context.
  if (receipt.type !== RECEIPT_TYPE) reasons.push(RECEIPT_REASONS.wrongType);
  reasons.push(...fieldProblems(receipt));
  for (const k of ["mission_id", "submission_id", "agent_id"] as const) {
    if (expect[k] !== undefined && receipt[k] !== expect[k]) reasons.push(RECEIPT_REASONS.contextMismatch(k));
  }
  if (expect.issuer !== undefined && receipt.issuer !== expect.issuer) reasons.push(RECEIPT_REASONS.issuerMismatch);
  // Steps 3–4: canonical bytes without digest and signature, digest recomputed.
  let bytes: Uint8Array;
  try {
    bytes = signingBytes(receipt);
  } catch {
    return (reasons.push(RECEIPT_REASONS.notCanonicalisable), done());
  }
  if (receipt.digest !== digestOf(bytes)) reasons.push(RECEIPT_REASONS.digestMismatch);
  // Step 5: the key named by signature.key_id in the issuer's manifest, then the signature.
  const sig = receipt.signature;
  // Only the canonical (unpadded, zero trailing bits) base64url spelling of a signature is
  // accepted, so one receipt has one byte form: a decoder ignores the last character's spare bits.
  if (
    !isObj(sig) ||
    !isStr(sig.key_id) ||
    !isStr(sig.value) ||
    !B64URL.test(sig.value) ||
    Buffer.from(sig.value, "base64url").toString("base64url") !== sig.value
  ) {
    return (reasons.push(RECEIPT_REASONS.invalidField("signature")), done());
  }
  if (sig.alg !== "ed25519") return (reasons.push(RECEIPT_REASONS.unsupportedAlg), done());
  const keys = isObj(manifest) ? manifest.receipt_signing_keys : undefined;
  if (!Array.isArray(keys)) return (reasons.push(RECEIPT_REASONS.malformedManifest), done());
  const key = keys.find((k): k is Obj => isObj(k) && k.key_id === sig.key_id);
  if (!key) return (reasons.push(RECEIPT_REASONS.unknownKeyId), done());
  if (key.alg !== "ed25519") return (reasons.push(RECEIPT_REASONS.unsupportedAlg), done());
  const pub =
    isStr(key.public_key) && B64URL.test(key.public_key) ? Buffer.from(key.public_key, "base64url") : undefined;
  if (!pub || pub.length !== 32) return (reasons.push(RECEIPT_REASONS.malformedKey), done());
  // A retired key only vouches for resolutions from before its retirement.
  if (
    isStr(key.valid_until) &&
    isTime(receipt.issued_at) &&
    Date.parse(receipt.issued_at as string) > Date.parse(key.valid_until)
  ) {
    reasons.push(RECEIPT_REASONS.keyRetiredBeforeIssue);
  }
  // …and a key vouches for nothing dated before its valid_from (a re-signed receipt is re-dated).
  if (
    isStr(key.valid_from) &&
    isTime(receipt.issued_at) &&
    Date.parse(receipt.issued_at as string) < Date.parse(key.valid_from)
  ) {
    reasons.push(RECEIPT_REASONS.keyNotYetValid);
  }
  const sigBytes = Buffer.from(sig.value, "base64url");
  let ok = false;
  try {
    ok = sigBytes.length === 64 && (await ed.verifyAsync(new Uint8Array(sigBytes), bytes, new Uint8Array(pub)));
  } catch {
    ok = false;
  }
  if (!ok) reasons.push(RECEIPT_REASONS.badSignature);
  // Step 6: settlement. credited carries ledger_entry_hash (the issuer's ledger proof, checkable
  // only against its ledger); queued/broadcast are provisional.
  const status = isObj(receipt.settlement) ? receipt.settlement.status : undefined;
  return done(status === "queued" || status === "broadcast");
}
