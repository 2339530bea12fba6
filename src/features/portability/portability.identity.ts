import { recoverMessageAddress, type Hex } from "viem";
import type { Ctx } from "../../lib/context";
import type { Reason } from "../../lib/error-reasons";
import { fetchIssuerJson, issuerHolding } from "./portability.issuers";
import { IMPORT_REASONS, verifyAttestation } from "./portability.verify";

// AIP-4 §7.2 cross-server filer identities through AIP-3. A filer whose identity is hosted on
// another hub proves it with two things, both checked at filing time:
//   1. its AIP-3 attestation, URL-addressable at that hub (§7.2 item 1), fetched here from that
//      URL and verified against the hub's own manifest key (AIP-3 §4 steps 1–3), still live and so
//      issued within the last 90 days (§7.2 item 3);
//   2. an EIP-191 personal_sign by the attested subject's key over the filing's own message (the
//      caller builds it: it names this server, the filing and the attestation URL, and a signing
//      time within 5 minutes), so a fetched attestation — a public document — is not a bearer
//      token: only the key's holder files in its name.
// Any hub's attestation is accepted (§7.2: rejecting untrusted hubs would mean declaring
// cross_server_disputes false); trusted private hubs are reached through their own fetcher.

const PROOF_SKEW_MS = 5 * 60_000;

export type CrossServerProof = { attestation_url: string; signed_at: string; signature: string };
export type CrossServerIdentity =
  | { ok: true; address: string; record: Record<string, unknown> }
  | { ok: false; reason: (typeof CROSS_SERVER_REFUSALS)[number]; detail: string };

/** Why a cross-server identity is refused: the 401's `details.reason` of the routes that take one. */
export const CROSS_SERVER_REFUSALS = [
  "proof_stale",
  "proof_invalid",
  "attestation_unreachable",
  "attestation_not_at_issuer",
  "proof_not_subject",
  ...IMPORT_REASONS,
] as const satisfies readonly Reason<"UNAUTHORIZED">[];

const refused = (reason: (typeof CROSS_SERVER_REFUSALS)[number], detail: string): CrossServerIdentity => ({
  ok: false,
  reason,
  detail,
});

/** Verifies a cross-server identity; `message` is what the subject's key signed (the caller's format). */
export async function crossServerIdentity(
  ctx: Ctx,
  { proof, message }: { proof: CrossServerProof; message: string },
): Promise<CrossServerIdentity> {
  const signedAt = new Date(proof.signed_at);
  if (!(Math.abs(signedAt.getTime() - ctx.now.getTime()) <= PROOF_SKEW_MS))
    return refused("proof_stale", "signed_at must be within 5 minutes of this server's clock");
  let signer: string;
  try {
    signer = (await recoverMessageAddress({ message, signature: proof.signature as Hex })).toLowerCase();
  } catch {
    return refused("proof_invalid", "signature is not an EIP-191 signature");
  }
  const issuer = issuerHolding(ctx.deps, proof.attestation_url);
  if (!issuer) return refused("attestation_unreachable", "attestation_url must be an http(s) URL");
  const fetched = await fetchIssuerJson(ctx.deps, { issuer, url: proof.attestation_url });
  if (!fetched.ok) return refused("attestation_unreachable", fetched.detail);
  const v = await verifyAttestation(ctx, { body: fetched.doc, admit: () => null });
  if (!v.ok) return refused(v.reason, v.detail);
  if (!proof.attestation_url.startsWith(`${v.issuer}/`))
    return refused("attestation_not_at_issuer", "attestation_url is not under the base URL of the hub that signed it");
  if (signer !== v.subject) return refused("proof_not_subject", "the signature is not by the attested agent's key");
  return {
    ok: true,
    address: v.subject,
    record: {
      attestation_url: proof.attestation_url,
      issuer: `${v.issuer}/`,
      issuer_address: v.claimed,
      attestation_issued_at: v.doc.issued_at,
      signed_at: signedAt.toISOString(),
    },
  };
}
