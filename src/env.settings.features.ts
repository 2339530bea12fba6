import { z } from "zod";
import {
  OracleSchema,
  TrustedIssuerSchema,
  flagDefault,
  int,
  jsonOf,
  rate,
  type TrustedIssuer,
  type Setting,
} from "./env.settings.schemas";

/** Features: claims, amendments, OADP, ADP, AIP-3/4, the verification pipeline, moderation, the Agent Mesh. One part of the settings table; src/env.settings.ts joins the parts, in this order, as SETTINGS. */
export const FEATURE_SETTINGS = {
  /** Mission claims (docs/decisions.md "Claims"): lifetime of a claim (renewable; never past the deadline). */
  OABP_CLAIM_TTL_SECONDS: {
    key: "claimTtlSeconds",
    ...int(60, 30 * 86_400, 86_400),
    doc: "lifetime of a mission claim from its claim or renewal (never past the deadline; 60 s – 30 " + "days)",
  },
  /** Amendments: whether anyone may top up a mission's reward (false: its creator only). */
  OABP_TOPUP_BY_ANYONE: {
    key: "topUpByAnyone",
    ...flagDefault(true),
    doc: "amendments: anyone may top up a mission's reward (`false`: its creator only, others 403 `creator_only`)",
  },
  /** OADP (docs/protocols/OADP-discovery.txt): answer POST /ping with a signed PONG. */
  OABP_OADP_PING_ENABLED: {
    key: "oadp.pingEnabled",
    ...flagDefault(true),
    doc: "answer `POST /ping` with a signed PONG (`false`: 503 `ping_disabled`, `signed_pongs: false`)",
  },
  /** OADP federation: accept POST /federation/report and list GET /federation/hubs (off, as in OADP). */
  OABP_OADP_FEDERATION_ENABLED: {
    key: "oadp.federationEnabled",
    ...flagDefault(false),
    doc:
      "accept `POST /federation/report` and list `GET /federation/hubs` (off by default, as OADP's " +
      "federation; `false`: both 503 `federation_disabled`)",
  },
  /** Fetch reported hubs' /.well-known/agent-protocol.json (through the SSRF-safe fetcher) to set `verified`. */
  OABP_OADP_FEDERATION_VERIFY: {
    key: "oadp.federationVerify",
    ...flagDefault(false),
    doc:
      "let a background job fetch reported hubs' `/.well-known/agent-protocol.json` (SSRF-safe " +
      "fetcher) to set `verified`; off = reported URLs are never fetched",
  },
  /** Federation reports accepted per caller (address, else client IP) per hour. */
  OABP_OADP_REPORTS_PER_HOUR: {
    key: "oadp.reportsPerHour",
    ...int(1, 100_000, 20),
    doc:
      "federation reports accepted per caller (signed-in address, else client IP) per hour, shared " +
      "by every instance (Postgres token bucket)",
  },
  OABP_TRUST_PROXY: {
    key: "trustProxy",
    ...flagDefault(false),
    doc:
      "behind a reverse proxy: the client IP (rate limits) is the last `X-Forwarded-For` entry; " +
      "otherwise the socket address",
  },
  // AIP-3 (reputation portability): the attestation key (secp256k1, 0x + 64 hex); unset: generated
  // into <data dir>/attestation-key.json.
  OABP_ATTESTATION_KEY: {
    key: "aip34.attestationKey",
    schema: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x + 64 hex")
      .transform((s) => s as `0x${string}`)
      .optional(),
    shown: "generated",
    doc:
      "AIP-3 attestation / §10 receipt key (secp256k1, `0x` + 64 hex); unset: created once in `<data " +
      "dir>/attestation-key.json` (0600). Its address is the manifest's `issuer_address`",
  },
  /** AIP-3 §6: issuers whose attestations are imported, JSON [{url, server_address?, trust_factor?}]. */
  OABP_TRUSTED_ISSUERS: {
    key: "aip34.trustedIssuers",
    schema: jsonOf(z.array(TrustedIssuerSchema).max(100))
      .transform((list) =>
        list.map((i): TrustedIssuer => ({
          ...i,
          url: i.url.replace(/\/+$/, ""),
          server_address: i.server_address?.toLowerCase(),
        })),
      )
      .default([]),
    shown: "`[]`",
    doc:
      'AIP-3 §6 trust list, JSON `[{"url", "server_address"?, "trust_factor"?, "chain_family"?, "chain_id"?, "added"?, ' +
      '"private_address"?}]` (≤ 100); `private_address` (an IP) lets this one issuer live on a private network: its ' +
      "manifest is fetched from exactly that address and the URL's port (docs/aip-3-4.md)",
  },
  /** AIP-3 §6 open import mode: any issuer (off: only OABP_TRUSTED_ISSUERS). */
  OABP_OPEN_IMPORT: {
    key: "aip34.openImport",
    ...flagDefault(false),
    doc: "AIP-3 open import mode: accept attestations from any issuer (still verified against its " + "manifest)",
  },
  /** AIP-4 §1.1 payment_sla_hours: a non_payment dispute needs this long since the award. */
  OABP_PAYMENT_SLA_HOURS: {
    key: "aip34.paymentSlaHours",
    ...int(1, 24 * 30, 48),
    doc: "AIP-4 §1.1 `payment_sla_hours` before a `non_payment` dispute qualifies",
  },
  /** AIP-4 §4: the oracles an upheld oracle_disagreement re-runs the verification with. */
  OABP_ALTERNATE_ORACLES: {
    key: "aip34.alternateOracles",
    schema: jsonOf(z.array(OracleSchema))
      .transform((list) => list.map((o) => ({ ...o, address: o.address.toLowerCase() })))
      .default([]),
    shown: "`[]`",
    doc:
      "JSON array `[{chain, address, method}]`: alternate oracles; an upheld `oracle_disagreement` re-reads " +
      "the mission with the first one that is not its own oracle (AIP-4 §4; empty: the oracle is only flagged)",
  },
  // ---- Verification pipeline and bounded responses ----
  /** Name servers of the fetch resolver (c-ares, never getaddrinfo); unset: the system's (resolv.conf). */
  OABP_DNS_SERVERS: {
    key: "abuse.dnsServers",
    schema: z
      .string()
      .transform((s, ctx) => {
        const out = s
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean);
        if (out.some((p) => !/^(\[[0-9a-fA-F:.]+\](:\d{1,5})?|[0-9a-fA-F:.]+|[0-9.]+:\d{1,5})$/.test(p))) {
          ctx.addIssue({ code: "custom", message: "must be comma-separated ip, ip:port or [ipv6]:port" });
          return z.NEVER;
        }
        return out;
      })
      .optional(),
    shown: "the system's (`/etc/resolv.conf`)",
    doc: 'name servers for fetched URLs (`ip`, `ip:port`, `[ipv6]:port`, comma-separated; docs/abuse.md "Resolver")',
  },
  /** Default outcomes: the share of the reward paid to the earliest verified submissions (< half). */
  OABP_DEFAULT_AWARD_BPS: {
    key: "abuse.defaultAwardBps",
    ...int(0, 4999, 2000),
    doc: "default outcomes: pool paid to the earliest verified submissions (< 5000)",
  },
  /** Default outcomes: at most this many submissions share OABP_DEFAULT_AWARD_BPS. */
  OABP_DEFAULT_AWARD_MAX_WINNERS: {
    key: "abuse.defaultAwardMaxWinners",
    ...int(1, 100, 3),
    doc: "default outcomes: submissions sharing the pool",
  },
  OABP_INFLIGHT_BYTES_TOTAL: {
    key: "abuse.inflightBytesTotal",
    ...int(1024 * 1024, 16 * 1024 * 1024 * 1024, 16 * 1024 * 1024),
    doc: "request bytes in flight per process, checked before the body is read (503 beyond)",
  },
  /** Moderation (docs/moderation.md): who may post missions. */
  OABP_POSTING_GATE: {
    key: "postingGate",
    schema: z.enum(["off", "allow_list", "min_rating"]).default("off"),
    shown: "`off`",
    doc: "mission posting gate: `off`, `allow_list` (admin-managed `/admin/posting-allowlist`) or `min_rating`",
  },
  OABP_POSTING_MIN_RATING: {
    key: "postingMinRating",
    ...int(0, 10_000, 1400),
    doc: "with `OABP_POSTING_GATE=min_rating`: the creator's effective rating needed to post",
  },
  OABP_REPORT_RATE: {
    key: "reportRate",
    ...rate(10, 3600),
    doc: "mission reports per signed-in agent (`quota/window_seconds`; always on)",
  },
  OABP_MCP_REGISTRY_PUBLIC_KEY: {
    key: "mcpRegistryPublicKey",
    schema: z
      .string()
      .regex(/^[A-Za-z0-9+/]{43}=$/, "must be a base64 Ed25519 public key (32 bytes, 44 characters)")
      .optional(),
    shown: "unset",
    doc: "the MCP Registry's HTTP domain proof (docs/discovery.md): the base64 Ed25519 public key served at `/.well-known/mcp-registry-auth` for `mcp-publisher login http`; unset = 404",
  },
  /** Agent Mesh (docs/neighbours.md "Agent Mesh"): the skill registry's and the hub's bounds. */
  OABP_MESH_SKILLS_PER_AGENT: {
    key: "meshSkillsPerAgent",
    ...int(0, 10_000, 50),
    doc: "Agent Mesh: skills one agent may register (0: none)",
  },
  OABP_MESH_INVOKE_RATE: {
    key: "meshInvokeRate",
    ...rate(120, 60),
    doc: "Agent Mesh: invocations per caller over all skills (`quota/window_seconds`); a skill's own `rateLimit` applies per caller on top",
  },
  OABP_MESH_PRIVATE_NETWORK: {
    key: "meshPrivateNetwork",
    ...flagDefault(false),
    doc: 'Agent Mesh private-network mode for a mesh on a LAN (docs/neighbours.md "Private network"): `http://` and private endpoints, the shared `OABP_MESH_SHARED_KEY`, the Mesh dialect; refused at start when `OABP_PUBLIC_URL` is public',
  },
  OABP_MESH_SHARED_KEY: {
    key: "meshSharedKey",
    schema: z.string().min(16).max(256).optional(),
    shown: "unset",
    doc: "Agent Mesh private-network mode: the mesh's shared `X-API-Key` (the Mesh document's `openclaw-mesh-default-key`); required with, and refused without, `OABP_MESH_PRIVATE_NETWORK=true`",
  },
} as const satisfies Record<string, Setting>;
