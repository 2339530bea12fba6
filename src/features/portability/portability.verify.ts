import type { Ctx } from "../../lib/context";
import {
  ACCEPTED_SPECS,
  Attestation,
  attestationSigners,
  checkBreakdown,
  MAX_AGE_DAYS,
  type AttestationDoc,
} from "./portability.format";
import { issuerKey, normaliseIssuer, trustedIssuer } from "./portability.issuers";

// AIP-3 §4 steps 1–3, shared by the import (§4.1) and by AIP-4 §7.2 cross-server filer identities:
// the §2 shape, the spec string, the subject, the lifetime and clock, the breakdown, the issuer
// (never this server), its key from its own manifest, and the signature. Each refusal names its
// reason; the caller's `admit` decides which issuers it accepts before any network fetch.

const SKEW_MS = 5 * 60_000;

/** Why an attestation is refused (AIP-3 §4.1's 400 `reason`). */
export const IMPORT_REASONS = [
  "attestation_malformed",
  "spec_unsupported",
  "subject_unsupported",
  "attestation_expired",
  "lifetime_exceeds_90_days",
  "issued_in_future",
  "breakdown_invalid",
  "issuer_is_self",
  "issuer_unknown",
  "issuer_unreachable",
  "issuer_key_missing",
  "issuer_key_mismatch",
  "signature_invalid",
  "too_many_issuers",
  "subject_not_caller",
] as const;
export type ImportReason = (typeof IMPORT_REASONS)[number];

type Trusted = ReturnType<typeof trustedIssuer>;
export type Verified = {
  ok: true;
  doc: AttestationDoc;
  subject: string;
  issuer: string;
  trusted: Trusted;
  /** The issuer's key (issuer.server_address, lowercase), checked against its manifest. */
  claimed: string;
  issuedAt: Date;
  expiresAt: Date;
};
export type Refused = { ok: false; reason: ImportReason; detail: string };
const fail = (reason: ImportReason, detail: string): Refused => ({ ok: false, reason, detail });

/** The §2 document itself: shape, spec, subject, lifetime, clock, breakdown. */
function checkDocument(body: unknown, now: Date) {
  const parsed = Attestation.safeParse(body);
  if (!parsed.success)
    return fail(
      "attestation_malformed",
      parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; "),
    );
  const doc = parsed.data;
  if (!ACCEPTED_SPECS.includes(doc.spec))
    return fail("spec_unsupported", `spec must be one of ${ACCEPTED_SPECS.join(", ")}`);
  const subject = doc.subject.address.toLowerCase();
  if (doc.subject.chain_family !== "evm" || !/^0x[0-9a-f]{40}$/.test(subject))
    return fail("subject_unsupported", "agents here are EVM addresses (AIP-1 §1)");
  const issuedAt = new Date(doc.issued_at);
  const expiresAt = new Date(doc.expires_at);
  if (expiresAt.getTime() - issuedAt.getTime() > MAX_AGE_DAYS * 86_400_000)
    return fail("lifetime_exceeds_90_days", "expires_at must be at most 90 days after issued_at (AIP-3 §2)");
  if (issuedAt.getTime() > now.getTime() + SKEW_MS) return fail("issued_in_future", "issued_at is in the future");
  if (expiresAt <= now) return fail("attestation_expired", `expired at ${doc.expires_at}`);
  const breakdown = checkBreakdown(doc.reputation);
  if (!breakdown.ok) return fail(breakdown.reason, breakdown.detail);
  return { ok: true as const, doc, subject, issuedAt, expiresAt };
}

/** The issuer's key from its own manifest, and the signature over the document (§4 steps 2–3). */
async function checkSignature(ctx: Ctx, doc: AttestationDoc, issuer: string, trusted: Trusted) {
  const claimed = doc.issuer.server_address.toLowerCase();
  if (trusted?.server_address && trusted.server_address !== claimed)
    return fail("issuer_key_mismatch", "issuer.server_address is not the key configured for this issuer");
  const key = await issuerKey(ctx.deps, issuer);
  if (!key.ok) return fail(key.reason, key.detail);
  if (key.address !== claimed)
    return fail("issuer_key_mismatch", "issuer.server_address differs from the issuer_address its manifest publishes");
  const signers = await attestationSigners(doc as AttestationDoc & { signature: { value: string } });
  if (!signers.includes(claimed))
    return fail("signature_invalid", "the signature does not recover to the issuer's key (AIP-3 §2.1)");
  return { ok: true as const, claimed };
}

export async function verifyAttestation(
  ctx: Ctx,
  {
    body,
    admit,
  }: {
    body: unknown;
    /** Whether this caller may import from `issuer` about `subject` (null: admitted). */
    admit: (issuer: string, trusted: Trusted, subject: string) => Refused | null;
  },
): Promise<Verified | Refused> {
  const { deps, now } = ctx;
  const d = checkDocument(body, now);
  if (!d.ok) return d;
  const issuer = normaliseIssuer(d.doc.issuer.oabp_server);
  if (!issuer) return fail("issuer_unknown", "issuer.oabp_server must be an http(s) base URL");
  if (
    issuer === normaliseIssuer(deps.config.publicUrl) ||
    d.doc.issuer.server_address.toLowerCase() === deps.attestation.address
  )
    return fail("issuer_is_self", "this server's own attestations are not imported: its local rating already counts");
  const trusted = trustedIssuer(deps, issuer);
  const refused = admit(issuer, trusted, d.subject);
  if (refused) return refused;
  const sig = await checkSignature(ctx, d.doc, issuer, trusted);
  if (!sig.ok) return sig;
  return { ...d, issuer, trusted, claimed: sig.claimed };
}
