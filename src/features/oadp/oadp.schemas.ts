import { z } from "@hono/zod-openapi";
import { Tag, int, strOrNull, str, bool, pageOf } from "../../http/wire";

// OADP (docs/protocols/OADP-discovery.txt): PING/PONG and federation, written by hand.

/**
 * A PING at any of the three privacy tiers: anonymous `{"ping": true}`, minimal (+ name,
 * orchestrator) or full (+ capabilities, version, description). Every field is optional and
 * unknown fields are tolerated; nothing of it is stored or echoed except `nonce`.
 */
export const PingRequest = z
  .looseObject({
    ping: z.boolean().optional(),
    name: z.string().max(128).optional(),
    orchestrator: z.string().max(64).optional(),
    signal_layer: z.string().max(32).optional(),
    capabilities: z.array(z.string().max(64)).max(64).optional(),
    version: z.string().max(32).optional(),
    description: z.string().max(2000).optional(),
    agent_id: z.string().max(128).optional(),
    origin: z.string().max(2048).optional(),
    nonce: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[\x21-\x7e]+$/, "printable ASCII without spaces")
      .optional()
      .openapi({
        description: "Echoed in the signed PONG, so a recorded PONG cannot be replayed as the answer to a fresh ping",
      }),
  })
  .openapi("Ping");

export const Pong = z
  .object({
    pong: z.literal(true),
    protocol: z.string().openapi({ example: "oadp/1.0" }),
    hub: str("Hub name"),
    hub_url: z.string(),
    message: z.string(),
    register_url: str("Joining is signing in with Ethereum (SIWE)"),
    agents_online: int("Agents seen within the availability window (180 s); a count only"),
    open_missions: z.number().int(),
    features: z.record(z.string(), z.boolean()),
    timestamp: z.string(),
    nonce: strOrNull("The ping's nonce, or null"),
    key_id: str("Signing key: hub.key_id / signing_keys[] of /.well-known/agent-protocol.json"),
    signature: str("base64url ed25519 over the RFC 8785 (JCS) bytes of this object without `signature`"),
  })
  .openapi("Pong");
export type PongWire = z.infer<typeof Pong>;

export const FederationReport = z
  .object({
    hub_url: z.string().min(1).max(4096).openapi({ example: "https://newly-discovered-hub.example/api" }),
    signal_layer: Tag.optional().openapi({
      description:
        "Where the hub was seen: header, well-known, markdown, html-meta, robots-txt, dns-txt (aliases accepted)",
      example: "header",
    }),
  })
  .openapi("FederationReport");
export type FederationReportInput = z.infer<typeof FederationReport>;

export const FederationReportResult = z
  .object({
    accepted: z.boolean(),
    known: bool("The hub was already known (deduplicated on its normalised URL)"),
    hub_url: str("The normalised URL it is known under"),
  })
  .openapi("FederationReportResult");

const HUB_STATUSES = ["unverified", "verified", "stale"] as const;

const ReportedHub = z
  .object({
    hub_url: z.string(),
    domain: z.string(),
    signal_layer: z.string(),
    report_count: z.number().int(),
    first_reported_at: z.string(),
    last_reported_at: z.string(),
    verified: bool(
      "Its /.well-known/agent-protocol.json was fetched and is a valid OADP document, within the hub TTL. Not an endorsement",
    ),
    status: z.enum(HUB_STATUSES),
    hub_name: z.string().nullable(),
    verified_at: z.string().nullable(),
    last_checked_at: z.string().nullable(),
  })
  .openapi("ReportedHub");
export type ReportedHubWire = z.infer<typeof ReportedHub>;

export const HubList = pageOf(
  "HubList",
  { hubs: z.array(ReportedHub) },
  { verification_enabled: bool("Whether this hub checks reported hubs at all (OABP_OADP_FEDERATION_VERIFY)") },
);

export const ListHubsQuery = z.object({
  verified: z.enum(["true", "false"]).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(600).optional(),
});
