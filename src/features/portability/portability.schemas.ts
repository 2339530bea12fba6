import { z } from "@hono/zod-openapi";
import { int, str } from "../../http/wire";
import { pathId } from "../../http/params";

// Wire schemas of AIP-3 (written from the spec; the import body is validated by the service,
// which answers the §4.1 400 shape with a named reason).

export const AddressParam = z.object({
  address: pathId("address", "0xabc1230000000000000000000000000000000000"),
});

export const AttestationDoc = z.record(z.string(), z.unknown()).openapi("ReputationAttestation", {
  description:
    "AIP-3 §2 reputation attestation: spec, issued_at, expires_at, issuer, subject, reputation (with breakdown.bounties), signature {algorithm: secp256k1-eth-personal-sign, value}",
});

export const ImportAccepted = z
  .object({
    imported: z.literal(true),
    subject_address: z.string(),
    issuer: z.string(),
    initial_elo: int("AIP-3 §3 formula for this attestation"),
    aggregated_elo: int("AIP-3 §5 equal-weight aggregate over the agent's live imports"),
    trust_factor_applied: z.number(),
    freshness_factor_applied: z.number(),
    valid_until: z.string(),
    transitions_to_local_after_n_missions: z.number().int(),
  })
  .openapi("ReputationImported");

export const ImportRefused = z
  .object({
    imported: z.literal(false),
    reason: str("signature_invalid | attestation_expired | issuer_unknown | … (docs/aip-3-4.md)"),
    error: z.string(),
    message: z.string(),
    request_id: z.string(),
  })
  .openapi("ReputationImportRefused");

export const TrustedIssuers = z
  .object({
    open_import: z.boolean(),
    trusted_issuers: z.array(
      z.object({
        oabp_server: z.string(),
        chain_family: z.string(),
        chain_id: z.string().nullable(),
        server_address: z.string().nullable(),
        trust_factor: z.number(),
        added: z.string().nullable(),
        private_network: z.boolean(),
      }),
    ),
  })
  .openapi("TrustedIssuers");

export const ImportedReputation = z
  .object({
    elo: z.number().int(),
    by_mission_type: z.record(z.string(), z.number().int()).openapi({
      description:
        "AIP-3 App. B: the imported ELO for each mission type an import attests as active, that import weighted by max(its trust_factor, TYPE_OVERLAP_TRUST_FACTOR)",
    }),
    valid_until: z.string(),
    missions_until_local: z.number().int(),
    sources: z.array(
      z.object({
        issuer: z.string(),
        server_address: z.string(),
        attested_elo: z.number().int(),
        trust_factor: z.number(),
        freshness_factor: z.number(),
        initial_elo: z.number().int(),
        types_active: z.array(z.string()),
        issued_at: z.string(),
        valid_until: z.string(),
      }),
    ),
  })
  .openapi("ImportedReputation", {
    description: "AIP-3 reputation imported from other servers, shown apart from the local rating",
  });
