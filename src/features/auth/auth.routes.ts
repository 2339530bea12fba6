import { z } from "@hono/zod-openapi";
import { routes } from "../../http/route";

// domain, uri and chain_ids: what the EIP-4361 message must say here (a client needs no
// out-of-band configuration to sign in).
const route = routes("identity");
export const NonceResponse = z
  .object({
    nonce: z.string(),
    expires_at: z.string(),
    domain: z.string().openapi({ description: "The SIWE `domain` this server accepts (host of its public URL)" }),
    uri: z.string().openapi({ description: "The server's public origin, for the SIWE `uri`" }),
    chain_ids: z.array(z.number().int()).openapi({ description: "Chain ids accepted in the SIWE message" }),
  })
  .openapi("SiweNonce");

export const SiweRequest = z
  .object({
    message: z.string().min(1).max(4096).openapi({ description: "EIP-4361 message" }),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]+$/)
      .max(20_000),
  })
  .openapi("SiweRequest");

export const SessionResponse = z
  .object({ token: z.string(), token_type: z.literal("Bearer"), agent_id: z.string(), expires_at: z.string() })
  .openapi("Session");

const AttestationRequest = z
  .object({
    api_key: z.string().min(1).max(256),
    profile: z.string().max(256).optional(),
    evm_address: z.string(),
    registry_domain: z.string().min(1).max(253),
    issued_at: z.string().min(1).max(64),
    ttl_seconds: z
      .number()
      .int()
      .min(60)
      .max(30 * 86_400)
      .optional(),
    signature: z.string(),
  })
  .openapi("RegistryAttestation");

const AttestationResponse = z
  .object({ bound: z.literal(true), agent_id: z.string(), registry_domain: z.string(), expires_at: z.string() })
  .openapi("RegistryBinding");

export const nonceRoute = route.post("/auth/nonce", "Get a single-use SIWE nonce (5 minutes)", {
  ok: [200, NonceResponse, "A fresh nonce"],
});

export const siweRoute = route.post("/auth/siwe", "Sign in with Ethereum (EIP-4361); returns a bearer token", {
  in: { body: SiweRequest },
  ok: [200, SessionResponse, "Signed in"],
  errors: [
    [
      "UNAUTHORIZED",
      "expired",
      "invalid_nonce",
      "invalid_signature",
      "malformed_message",
      "not_yet_valid",
      "wrong_chain",
      "wrong_domain",
      "wrong_uri",
    ],
  ],
});

export const attestationRoute = route.post(
  "/attestations/registry",
  "Bind a registry api_key to an EVM address (AIP-1 §1.4)",
  {
    in: { body: AttestationRequest },
    ok: [200, AttestationResponse, "Bound"],
    errors: [
      ["FORBIDDEN", "expired", "invalid_signature", "not_yet_valid", "unknown_registry"],
      ["CONFLICT", "api_key_taken", "stale_attestation"],
    ],
  },
);
