import type { Config } from "../../env";
import { IMPORT_TRUST_FACTOR, ATTESTATION_TTL_DAYS } from "../portability";

// The AIP family's discovery fields. The AIPs spell the supported list three ways — AIP-1 §9
// `aip_supported` (integers), AIP-3 §7 `aips` ("aip-3"), AIP-4 §5 `aip_support` ("AIP-4") — and
// this server serves all three from one list (README "Protocol decisions").

/** AIPs this server implements (aip1-aip2 adds 2 to this list). */
export const AIPS = [1, 2, 3, 4] as const;

export const DISPUTE_TYPES = ["non_payment", "bad_spec", "dup_claim", "oracle_disagreement"] as const;
export type DisputeType = (typeof DISPUTE_TYPES)[number];

export function aipFields(config: Config, issuerAddress: string) {
  const a = config.aip34;
  return {
    aip_supported: [...AIPS],
    aips: AIPS.map((n) => `aip-${n}`),
    aip_support: AIPS.map((n) => `AIP-${n}`),
    // AIP-3 §10.2: the secp256k1 key of attestations (§2) and settlement receipts (§10).
    issuer_address: issuerAddress,
    cross_chain: {
      import_enabled: true,
      open_import: a.openImport,
      trust_factor: IMPORT_TRUST_FACTOR,
      elo_floor: 1400,
      elo_max: 1600,
      max_attestation_age_days: 90,
      attestation_ttl_days: ATTESTATION_TTL_DAYS,
      transitions_to_local_after_n_missions: 3,
      trusted_issuers_url: `${config.publicUrl}/reputation/trusted-issuers`,
      attestation_signature: "secp256k1-eth-personal-sign over the 32-byte SHA-256 of the RFC 8785 canonical JSON",
    },
    // AIP-4 §5 (REQUIRED with AIP-4 declared) and §7.2.
    dispute_endpoint: "/api/disputes",
    dispute_types_supported: [...DISPUTE_TYPES],
    payment_sla_hours: a.paymentSlaHours,
    // §7.2: filers from other hubs, by their AIP-3 attestation URL and a signature by the attested
    // key; any hub's attestation is verified, none refused for not being trusted (docs/aip-3-4.md).
    cross_server_disputes: true,
    cross_server_identity: {
      field: "cross_server_identity",
      proof: "EIP-191 personal_sign by the attested agent's key over the filing message",
      message_lines: [
        "AIP-4 cross-server dispute",
        "server",
        "dispute_type",
        "mission_id",
        "submission_id",
        "attestation_url",
        "signed_at",
      ],
      max_skew_seconds: 300,
    },
  };
}
