import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { recoverMessageAddress } from "viem";
import { z } from "zod";
import type { AttestationSigner } from "../../lib/attestation-key";
import type { Ctx } from "../../lib/context";

// AIP-3 §2 attestation format and §2.1 signing payload — pure functions.
//
// §2.1 reads "the canonical JSON … is hashed with SHA-256 and signed with the server's key …
// EIP-191 personal_sign". We sign personal_sign over the 32 raw bytes of that SHA-256 digest
// (`signature.value`, 0x hex) and, on import, also accept a personal_sign over the canonical
// string itself (how a server that skips the SHA-256 step would read it) or over the digest's hex
// text (`0x…` or bare, how a server that signs "the hash" as a string would read it) — all bind
// the same canonical bytes. Canonical JSON is RFC 8785 (keys sorted at every depth, no whitespace).
//
// `spec`: we emit "aip-3-v0.1" (the §2 format string and the App. C conformance check) and accept
// "aip-3-v0.2" too — v0.2.0 only added the optional breakdown, which is validated either way
// (docs/aip-3-4.md).

export const ATTESTATION_SPEC = "aip-3-v0.1";
/** Spec strings accepted on import. */
export const ACCEPTED_SPECS: readonly string[] = [ATTESTATION_SPEC, "aip-3-v0.2"];
export const MAX_AGE_DAYS = 90;
const SIGNATURE_ALGORITHM = "secp256k1-eth-personal-sign";
/** §2 weights of total_weighted_points. */
export const BREAKDOWN_WEIGHTS = { first_valid_match: 1, oracle: 3, creator_judges: 5, peer_vote: 10 } as const;

const count = z.number().int().min(0).max(1e9);
const isoZ = z.string().datetime({ offset: true });
const Identity = z.object({
  chain_family: z.string().max(32),
  chain_id: z.string().max(64),
  address: z.string().min(1).max(128),
});

const Breakdown = z
  .object({
    bounties: z
      .object({
        first_valid_match: count,
        oracle: count,
        creator_judges: count,
        peer_vote: count,
        total_weighted_points: count,
      })
      .strict(),
  })
  .passthrough();

export const Attestation = z
  .object({
    spec: z.string().max(32),
    issued_at: isoZ,
    expires_at: isoZ,
    issuer: z
      .object({
        oabp_server: z.string().url().max(300),
        chain_family: z.string().max(32),
        chain_id: z.string().max(64),
        server_address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
      })
      .passthrough(),
    subject: Identity.extend({ aliases: z.array(Identity.passthrough()).max(16).optional() }).passthrough(),
    reputation: z
      .object({
        elo: z.number().int().min(0).max(10_000),
        missions_completed: count,
        missions_failed: count,
        missions_disputed: count,
        total_earned_usd_equivalent: z.number().min(0),
        types_active: z.array(z.string().max(64)).max(64),
        percentile: z.number().min(0).max(100),
        last_active: isoZ.nullable(),
        breakdown: z.unknown().optional(),
      })
      .passthrough(),
    signature: z.object({ algorithm: z.string().max(64), value: z.string().max(600) }),
  })
  .passthrough();
export type AttestationDoc = z.infer<typeof Attestation>;

export type BreakdownCheck = { ok: true } | { ok: false; reason: "breakdown_invalid"; detail: string };

/** §2 field constraints on reputation.breakdown.bounties (only checked when present). */
export function checkBreakdown(reputation: { missions_completed: number; breakdown?: unknown }): BreakdownCheck {
  if (reputation.breakdown === undefined) return { ok: true };
  const parsed = Breakdown.safeParse(reputation.breakdown);
  if (!parsed.success)
    return {
      ok: false,
      reason: "breakdown_invalid",
      detail:
        "bounties must hold exactly first_valid_match, oracle, creator_judges, peer_vote and total_weighted_points as non-negative integers",
    };
  const b = parsed.data.bounties;
  const weighted = b.first_valid_match * 1 + b.oracle * 3 + b.creator_judges * 5 + b.peer_vote * 10;
  if (b.total_weighted_points !== weighted)
    return { ok: false, reason: "breakdown_invalid", detail: `total_weighted_points must be ${weighted}` };
  if (b.first_valid_match + b.oracle + b.creator_judges + b.peer_vote > reputation.missions_completed) {
    return { ok: false, reason: "breakdown_invalid", detail: "the verification-type counts exceed missions_completed" };
  }
  return { ok: true };
}

/** §2.1: the canonical JSON of everything but `signature`. */
export function signingPayload(doc: Record<string, unknown>): string {
  const { signature: _omit, ...rest } = doc;
  return canonicalize(rest)!;
}

const payloadDigest = (payload: string): Buffer => createHash("sha256").update(payload, "utf8").digest();

export async function signAttestation<T extends Record<string, unknown>>(
  unsigned: T,
  signer: AttestationSigner,
): Promise<T & { signature: { algorithm: string; value: string } }> {
  const digest = payloadDigest(signingPayload(unsigned));
  const value = await signer.account.signMessage({ message: { raw: digest } });
  return { ...unsigned, signature: { algorithm: SIGNATURE_ALGORITHM, value } };
}

/** The addresses the signature recovers to under each accepted form (raw digest, plain string, digest hex). */
export async function attestationSigners(
  doc: Record<string, unknown> & { signature: { value: string } },
): Promise<string[]> {
  const sig = doc.signature.value;
  if (!/^0x[0-9a-fA-F]{130}$/.test(sig)) return [];
  const payload = signingPayload(doc);
  const out: string[] = [];
  const digest = payloadDigest(payload);
  const hex = digest.toString("hex");
  for (const message of [{ raw: digest }, payload, `0x${hex}`, hex]) {
    try {
      out.push((await recoverMessageAddress({ message, signature: sig as `0x${string}` })).toLowerCase());
    } catch {
      /* malformed signature: no signer */
    }
  }
  return out;
}

/** §3 default formula; the result is capped at eloMax and never below the floor. */
export function importedElo(p: {
  floor: number;
  max: number;
  attested: number;
  trustFactor: number;
  freshness: number;
}): number {
  const raw = Math.floor(p.floor + (p.attested - p.floor) * p.trustFactor * p.freshness);
  return Math.min(p.max, Math.max(p.floor, raw));
}

/** §3 freshness_factor = 1 − age_days/90, in [0, 1]. */
export function freshnessFactor({ now }: Pick<Ctx, "now">, issuedAt: Date): number {
  const ageDays = Math.max(0, now.getTime() - issuedAt.getTime()) / 86_400_000;
  return Math.max(0, Math.min(1, 1 - ageDays / MAX_AGE_DAYS));
}
