import * as ed from "@noble/ed25519";
import { z } from "@hono/zod-openapi";
import { canonicalJson } from "../../lib/canonical-json";
import { ed25519FromDidKey } from "./adp.didkey";

// The ADP Agent Card (§3). Objects are loose: unknown top-level, tool, endpoint and constraint
// fields are kept (§3.1 "MUST ignore unrecognized top-level fields", §3.8 "MUST preserve
// unrecognized extension namespaces"), and nothing here transforms a value — the object that is
// validated is the object whose signature is checked and whose canonical text is stored.

/** §7.6: the AIP maximum message size; no card larger than this is generated or stored. */
export const MAX_CARD_BYTES = 65_535;
/** Our extension namespace (§3.8): binds a card to the OABP agent id (an EVM address). */
export const OABP_EXTENSION = "oabp";

const utf8Length = (s: string) => Buffer.byteLength(s, "utf8");
const iso = z.string().datetime({ offset: true });

const Tool = z.looseObject({
  // §3.4: the AITP method name, ≤ 255 UTF-8 octets.
  name: z
    .string()
    .min(1)
    .refine((s) => utf8Length(s) <= 255, "at most 255 UTF-8 octets"),
  description: z.string().max(4096).optional(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  output_schema: z.record(z.string(), z.unknown()).optional(),
  streaming: z.boolean().optional(),
  idempotent: z.boolean().optional(),
});

const Endpoint = z.looseObject({
  protocol: z.string().min(1).max(64),
  uri: z.string().min(1).max(2048),
  methods: z.array(z.string().min(1).max(255)).max(256).optional(),
  auth: z.string().min(1).max(64).optional(),
  priority: z.number().int().optional(),
});

const Constraints = z.looseObject({
  max_concurrent_tasks: z.number().int().min(0).max(1_000_000).optional(),
  max_input_tokens: z.number().int().min(0).optional(),
  supported_languages: z.array(z.string().min(1).max(35)).max(200).optional(),
  rate_limit: z.string().max(64).optional(),
});

const Metadata = z.looseObject({
  created_at: iso.optional(),
  updated_at: iso.optional(),
  ttl: z.number().int().min(0).optional(),
});

export const AgentCardSchema = z
  .looseObject({
    id: z
      .string()
      .max(2048)
      .regex(/^agent:\/\/\S+$/, "must be an agent:// URI (ADP §3.3)"),
    name: z.string().min(1).max(256),
    description: z.string().max(16_384).optional(),
    version: z.string().max(64).optional(),
    skills: z.array(z.string().min(1).max(128)).max(64).optional(),
    tools: z.array(Tool).max(256).optional(),
    endpoints: z.array(Endpoint).max(32).optional(),
    constraints: Constraints.optional(),
    did: z.string().min(1).max(256).optional(),
    metadata: Metadata.optional(),
    extensions: z.record(z.string().min(1).max(128), z.record(z.string(), z.unknown())).optional(),
    // §3.1 says uint64; the signature covers JCS (RFC 8785) text, whose numbers are IEEE-754
    // doubles, so only integers up to 2^53 − 1 survive canonicalisation unchanged.
    seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    // §3.2: Ed25519, 64 bytes, base64url without padding.
    signature: z
      .string()
      .regex(/^[A-Za-z0-9_-]{86}$/, "must be a 64-byte Ed25519 signature, base64url without padding")
      .optional(),
  })
  .openapi("AdpAgentCard", { description: "ADP Agent Card (draft-song-anp-adp-00 §3); unknown fields are kept" });
export type AgentCard = z.infer<typeof AgentCardSchema>;

/** §3.2 step 1–2: the JCS bytes of the card without its signature. */
export function cardSigningBytes(card: Record<string, unknown>): Uint8Array {
  const { signature: _signature, ...rest } = card;
  return new TextEncoder().encode(canonicalJson(rest));
}

/** The canonical text of the whole card (signature included): what is stored and measured. */
export const canonicalCard = (card: Record<string, unknown>): string => canonicalJson(card);

const CARD_SIGNATURE_REASONS = {
  unsigned: "unsigned",
  noDid: "did_required",
  unsupportedDid: "unsupported_did",
  badSignature: "bad_signature",
} as const;
export type CardSignatureReason = (typeof CARD_SIGNATURE_REASONS)[keyof typeof CARD_SIGNATURE_REASONS];

/**
 * §3.2 verification: remove `signature`, re-canonicalise, verify Ed25519 against the key of the
 * card's `did` (a did:key). ADP derives the key from the agent:// id; agent:// names carry no key
 * here, so the did:key is the card's key (README "Protocol decisions"). @noble/ed25519 verifies,
 * a code path independent of the node:crypto signer.
 */
export async function verifyCardSignature(
  card: Record<string, unknown>,
): Promise<{ ok: true } | { ok: false; reason: CardSignatureReason }> {
  const sig = card.signature;
  if (typeof sig !== "string") return { ok: false, reason: CARD_SIGNATURE_REASONS.unsigned };
  if (typeof card.did !== "string") return { ok: false, reason: CARD_SIGNATURE_REASONS.noDid };
  const key = ed25519FromDidKey(card.did);
  if (!key) return { ok: false, reason: CARD_SIGNATURE_REASONS.unsupportedDid };
  const bytes = Buffer.from(sig, "base64url");
  let ok = false;
  try {
    ok = bytes.length === 64 && (await ed.verifyAsync(new Uint8Array(bytes), cardSigningBytes(card), key));
  } catch {
    ok = false;
  }
  return ok ? { ok: true } : { ok: false, reason: CARD_SIGNATURE_REASONS.badSignature };
}

/** §6.4: a card with an empty tools array and an empty endpoints array is a revocation. */
export const isRevocation = (card: AgentCard): boolean =>
  Array.isArray(card.tools) && card.tools.length === 0 && Array.isArray(card.endpoints) && card.endpoints.length === 0;
