import { z } from "@hono/zod-openapi";
import { intOrNull, str, bool, exampleId } from "../../http/wire";
import { pathId } from "../../http/params";
import { SETTLEMENT_STATUSES, VERIFICATION_RESULTS } from "./receipts.verify";

// Written by hand from AIP-1 §6.1 (docs/style.md rule 6).
export const MissionReceipt = z
  .object({
    type: z.literal("oabp.mission_receipt"),
    spec_version: z.string().openapi({ example: "AIP-1@0.3.8" }),
    issuer: str("Canonical origin of this server (OABP_PUBLIC_URL)"),
    issued_at: str("The mission's resolution time"),
    mission_id: z.string(),
    submission_id: z.string(),
    agent_id: z.string(),
    content_hash: z
      .string()
      .openapi({ example: "sha256:3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7" }),
    mission_hash: z.string().optional().openapi({
      description:
        "sha256:<hex> of the RFC 8785 bytes of the mission's immutable terms {id, creator, title, description, reward, verification, deadline, created_at} as served by GET /missions/{id}",
    }),
    submission_hash: z.string().optional().openapi({
      description:
        "sha256:<hex> of the RFC 8785 bytes of {id, mission_id, submitter, content_hash, submitted_at} of the submission as served",
    }),
    verification: z.object({
      type: z.string(),
      result: z.enum(VERIFICATION_RESULTS),
      decided_at: z.string(),
      verifier: z.string().openapi({ example: "oabp://example.org" }),
    }),
    settlement: z.object({
      status: z.enum(SETTLEMENT_STATUSES),
      asset: z.string(),
      amount: str("Paid to this submission, base units"),
      fee_amount: str("The mission's protocol fee, base units"),
      chain_id: intOrNull("null on the ledger rail"),
      ledger_entry_hash: z
        .string()
        .optional()
        .openapi({ description: "Hash of the winner's credit entry in the payout transfer (ledger rail)" }),
      tx_hash: z.string().optional(),
    }),
    digest: str("sha256:<hex> of the RFC 8785 bytes without digest and signature"),
    signature: z.object({
      alg: z.literal("ed25519"),
      key_id: z.string(),
      value: str("base64url ed25519 signature over the same bytes"),
    }),
  })
  .openapi("MissionReceipt");

export const ReceiptParams = z.object({
  id: pathId("id", exampleId("mis")),
  submission_id: pathId("submission_id", exampleId("sub")),
});

export const VerifyReceiptRequest = z
  .object({
    receipt: z.record(z.string(), z.unknown()).openapi({ description: "The receipt JSON as received" }),
    manifest: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        "Another issuer's /.well-known/oabp.json (then manifest_origin is required). A receipt naming this server as issuer is always checked against this server's own keys, whatever manifest is sent",
    }),
    manifest_origin: z.string().url().max(2048).optional().openapi({
      description: "The origin the manifest was fetched from; the receipt's issuer must equal it",
      example: "https://other-oabp.example",
    }),
  })
  .openapi("VerifyReceiptRequest");

export const VerifyReceiptResult = z
  .object({
    valid: z.boolean(),
    reasons: z.array(z.string()).openapi({
      description: "Failure reasons (stable constants), empty when valid",
      example: ["digest_mismatch", "bad_signature"],
    }),
    provisional: bool("Valid, but the settlement is queued/broadcast (§6.1)"),
  })
  .openapi("VerifyReceiptResult");
