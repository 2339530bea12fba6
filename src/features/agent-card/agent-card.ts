import { sign } from "node:crypto";
import type { Config } from "../../env";
import pkg from "../../../package.json" with { type: "json" };
import { canonicalJson } from "../../lib/canonical-json";
import type { ReceiptKeyring } from "../../lib/receipt-keys";
import { a2aTransportBlock, MCP_PATH } from "../../lib/mcp-contract";
import { A2A_BINDING, A2A_PATH, A2A_PROTOCOL_VERSION, A2A_SKILLS } from "../../lib/a2a-contract";

// The A2A 1.0 agent card (docs/a2a.md), served at the three AIP-1 §9.3 aliases. Its A2A part has
// only fields of the 1.0 AgentCard message, without default values (A2A §8.4.1), so the JCS text a
// verifier rebuilds from the card is exactly the text signed here. The AIP-1 §9.3 alias fields and
// the §7.4 MCP recipe stay at the top level, where their readers look (A2A §5.7: unrecognised
// fields are ignored), and are repeated, signed, as the params of the OABP extension.

/** AIP-2 §7: conformance levels, declared on the agent identity manifest (this card). */
export const PROTOCOL_VERSIONS = ["aip-1-v0.1", "aip-2-basic", "aip-2-standard", "aip-2-extended"];

const MANIFEST_PATH = "/.well-known/oabp.json";
/** The card's OABP extension (A2A §4.6): the AIP-1 §9.3 / §7.4 fields, covered by the signature. */
const OABP_A2A_EXTENSION = "urn:oabp:a2a-extension:aip-1:v1";
/** The JWKS named by the signature's `jku`: the receipt signing keys as Ed25519 JWKs. */
export const JWKS_PATH = "/.well-known/jwks.json";
const JSON_MODE = "application/json";

/** The AIP-1 §9.3 alias fields and the §7.4 transport block. */
function aip1Fields(config: Config) {
  return {
    protocols: ["oabp", "a2a"],
    protocol_versions: PROTOCOL_VERSIONS,
    oabp_manifest: MANIFEST_PATH,
    endpoints: { missions: "/missions", mcp: MCP_PATH, a2a: A2A_PATH, openapi: "/openapi.json", feed: "/feed.xml" },
    transport: a2aTransportBlock(config),
  };
}

/** The card's A2A 1.0 fields: what is signed. */
export function a2aCardFields(config: Config) {
  const o = config.publicUrl;
  return {
    name: pkg.name, // = the manifest's `implementation`
    description: "Open Agent Bounty Protocol mission marketplace",
    // Only the binding this server serves (A2A §8.3.1); the MCP endpoint is not an A2A binding.
    supportedInterfaces: [
      { url: `${o}${A2A_PATH}`, protocolBinding: A2A_BINDING, protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    version: pkg.version,
    documentationUrl: `${o}/llms.txt`,
    capabilities: {
      streaming: false,
      // Served through the webhook outbox, so only while it runs (docs/a2a.md "Push notifications").
      pushNotifications: config.webhooksEnabled,
      extendedAgentCard: false,
      extensions: [
        {
          uri: OABP_A2A_EXTENSION,
          description: "AIP-1 §9.3 discovery fields and the §7.4 MCP invocation recipe of this server",
          params: withoutDefaults(aip1Fields(config)),
        },
      ],
    },
    securitySchemes: {
      bearer: {
        httpAuthSecurityScheme: {
          scheme: "Bearer",
          description: "The server's agent token: sign in with SIWE (POST /auth/nonce, POST /auth/siwe)",
        },
      },
    },
    // The role list is not empty: an empty one would vanish from the canonical text (A2A §8.4.1).
    securityRequirements: [{ schemes: { bearer: { list: ["agent"] } } }],
    defaultInputModes: [JSON_MODE, "text/plain"],
    defaultOutputModes: [JSON_MODE],
    skills: A2A_SKILLS.map((s) => ({ ...s, inputModes: [JSON_MODE, "text/plain"], outputModes: [JSON_MODE] })),
  };
}

/**
 * A2A §8.4.1: default values are left out of the signed text. Members whose value is null, "", {}
 * or [] are dropped (deeply), as a verifier drops them when it rebuilds the card, so the text it
 * canonicalises is the text signed here. The extension's params need it (the §7.4 recipe has
 * nulls and empty objects); the rest of the card is written without defaults.
 */
function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDefaults);
  if (typeof value !== "object" || value === null) return value;
  const empty = (v: unknown) => v === null || v === "" || (typeof v === "object" && Object.keys(v).length === 0);
  return Object.fromEntries(
    Object.entries(value)
      .map(([k, v]) => [k, withoutDefaults(v)] as const)
      .filter(([, v]) => !empty(v)),
  );
}

const b64url = (s: string | Buffer) => Buffer.from(s).toString("base64url");

/**
 * A2A §8.4.2: a JWS over the JCS text of the A2A fields (the payload is the card itself, so the
 * signature is detached: `protected` and `signature` only), EdDSA with the active receipt key.
 */
function signCard(config: Config, keyring: ReceiptKeyring, fields: Record<string, unknown>) {
  const header = { alg: "EdDSA", typ: "JOSE", kid: keyring.active.keyId, jku: `${config.publicUrl}${JWKS_PATH}` };
  const protectedHeader = b64url(JSON.stringify(header));
  const input = `${protectedHeader}.${b64url(canonicalJson(fields))}`;
  const signature = sign(null, Buffer.from(input), keyring.active.privateKey).toString("base64url");
  return { protected: protectedHeader, signature };
}

/** AIP-1 §9.3's spelling of the OABP skill's modes and its endpoints, beside the A2A fields. */
const AIP1_SKILL_FIELDS = {
  input_modes: [JSON_MODE],
  output_modes: [JSON_MODE],
  endpoints: { manifest: MANIFEST_PATH, missions: "/missions" },
};

export function agentCard(config: Config, keyring: ReceiptKeyring) {
  const fields = a2aCardFields(config);
  const skills = fields.skills.map((s) => (s.id === "oabp.missions" ? { ...s, ...AIP1_SKILL_FIELDS } : s));
  return { ...fields, skills, signatures: [signCard(config, keyring, fields)], ...aip1Fields(config) };
}

/** The JWKS of the receipt signing keys (RFC 7517; Ed25519 as OKP, RFC 8037). */
export function jwks(keyring: ReceiptKeyring) {
  return {
    keys: keyring.published.map((k) => ({
      kty: "OKP",
      crv: "Ed25519",
      x: k.public_key,
      kid: k.key_id,
      alg: "EdDSA",
      use: "sig",
    })),
  };
}
