import { readFileSync } from "node:fs";
import { z } from "zod";
import { ReceiptKeyRecordSchema, type ReceiptKeyRecord } from "./lib/receipt-keys";

// The only reader of process.env (style.md "Env once"). Every setting has a default that makes
// `npm start` work on the embedded database; a bad value stops start-up with a clear message.

const uintString = z.string().regex(/^(0|[1-9][0-9]{0,77})$/, "must be a base-10 integer string");

const AssetSchema = z.object({
  symbol: z.string().regex(/^[A-Za-z0-9._-]{1,16}$/),
  decimals: z.number().int().min(0).max(36),
  /** Non-refundable spam fee charged at mission creation, base units (AIP-1 Security Considerations). */
  spam_fee: uintString,
  /** USD price of one whole unit, for the reputation K factor and min_reward_usd. */
  usd_price: z.number().nonnegative().default(1),
  /** Contract addresses per chain, e.g. {"base": "0x8335..."}. */
  addresses: z.record(z.string(), z.string().regex(/^0x[0-9a-fA-F]{40}$/)).default({}),
});
export type AssetConfig = z.infer<typeof AssetSchema>;

const RegistrySchema = z.object({
  domain: z.string().min(1).max(253),
  signer: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  /** ttl_seconds is not covered by the §1.4 signature, so the operator caps it per registry. */
  max_ttl_seconds: z.number().int().min(60).max(30 * 86_400).default(86_400),
});
export type RegistryConfig = z.infer<typeof RegistrySchema>;

// AIP-1 Security Considerations: "whitelist known oracles and warn on unknown ones".
const OracleSchema = z.object({
  chain: z.string().min(1).max(32).default("base"),
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  method: z.string().min(1).max(256),
});
export type OracleConfig = z.infer<typeof OracleSchema>;

const DEFAULT_ASSETS: AssetConfig[] = [
  {
    symbol: "USDC",
    decimals: 6,
    spam_fee: "5000000", // 5 USDC: the spec RECOMMENDS >= 5 protocol-token units
    usd_price: 1,
    addresses: { base: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
  },
];

/** USDC per Base chain (design.md "Escrow and settlement"): the preset when OABP_ASSETS is unset. */
export const USDC_BY_CHAIN: Record<number, string> = {
  8453: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  84532: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
};

/** "safe" / "finalized" (a block tag) or a number of blocks (N confirmations: included N-1 blocks below the head). */
const depthPolicy = (tag: "safe" | "finalized") =>
  z.string().transform((s, ctx): ChainDepth => {
    if (s === tag) return { kind: "tag", tag };
    if (/^[1-9][0-9]{0,3}$/.test(s)) return { kind: "blocks", blocks: Number(s) };
    ctx.addIssue({ code: "custom", message: `must be "${tag}" or a number of blocks (1-9999)` });
    return z.NEVER;
  });
export type ChainDepth = { kind: "tag"; tag: "safe" | "finalized" } | { kind: "blocks"; blocks: number };

const hexAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");
const privateKey = z.string().trim().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key");

/**
 * A secret that never prints: JSON.stringify, util.inspect and template strings all show
 * "[redacted]", so a config object that reaches a log line leaks nothing.
 */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON(): string {
    return "[redacted]";
  }
  toString(): string {
    return "[redacted]";
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return "[redacted]";
  }
}

const jsonOf = <T extends z.ZodTypeAny>(schema: T) =>
  z.string().transform((s, ctx) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be valid JSON" });
      return z.NEVER;
    }
  }).pipe(schema);

const TrustedIssuerSchema = z.object({
  url: z.string().url().max(300),
  server_address: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional(),
  trust_factor: z.number().min(0).max(1).optional(),
});

const csvInts = z.string().transform((s, ctx) => {
  const parts = s.split(",").map((p) => p.trim()).filter(Boolean);
  const out = parts.map(Number);
  if (out.length === 0 || out.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
    ctx.addIssue({ code: "custom", message: "must be a comma-separated list of positive integers" });
    return z.NEVER;
  }
  return out;
});

/** A token-bucket policy "<quota>/<window seconds>": `quota` requests at once, refilled over the window. */
const ratePolicy = z.string().transform((s, ctx): RatePolicy => {
  const m = /^([1-9][0-9]{0,6})\/([1-9][0-9]{0,5})$/.exec(s.trim());
  if (!m) {
    ctx.addIssue({ code: "custom", message: 'must be "<quota>/<window seconds>", e.g. "60/60"' });
    return z.NEVER;
  }
  return { quota: Number(m[1]), windowSeconds: Number(m[2]) };
});
export interface RatePolicy {
  quota: number;
  windowSeconds: number;
}

export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * A direct (unpooled) Postgres URL, for when DATABASE_URL points at a transaction-mode pooler
   * (PgBouncer, a managed pooler): migrations (a session advisory lock) and LISTEN need one
   * session of their own, which such a pooler cannot give (docs/operations.md "Behind PgBouncer").
   */
  DATABASE_DIRECT_URL: z.string().url().optional(),
  /**
   * Named prepared statements on the DATABASE_URL connections. "auto": off when
   * DATABASE_DIRECT_URL is set (a pooler older than PgBouncer 1.21 mixes them up across clients).
   */
  OABP_DB_PREPARE: z.enum(["auto", "true", "false"]).default("auto"),
  OABP_DATA_DIR: z.string().min(1).default("./data"),
  OABP_PUBLIC_URL: z.string().url().optional(),
  OABP_ADMIN_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  OABP_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
  OABP_ASSETS: jsonOf(z.array(AssetSchema).min(1)).optional(),
  OABP_REGISTRIES: jsonOf(z.array(RegistrySchema)).default([]),
  OABP_ORACLES: jsonOf(z.array(OracleSchema)).default([]),
  OABP_SIWE_CHAIN_IDS: csvInts.default([8453]),
  OABP_SESSION_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 86400).default(86400),
  OABP_FEE_BPS: z.coerce.number().int().min(0).max(100).default(50),
  OABP_MAX_SUBMISSIONS_PER_AGENT: z.coerce.number().int().min(1).max(1000).default(10),
  /** Base JSON-RPC endpoint: oracle reads, smart-account signatures and (with the settings below) the base rail. */
  OABP_RPC_URL: z.string().url().optional(),
  /** The chain the base rail settles on: 8453 Base, 84532 Base Sepolia, or a local anvil's id. */
  OABP_CHAIN_ID: z.coerce.number().int().min(1).max(2 ** 32).default(8453),
  /** MissionEscrow contract (contracts/MissionEscrow.sol) on OABP_CHAIN_ID. */
  OABP_ESCROW_ADDRESS: hexAddress.optional(),
  /** The resolver's private key (RESOLVER_ROLE on the escrow); or OABP_RESOLVER_KEY_FILE. Never logged. */
  OABP_RESOLVER_KEY: privateKey.optional(),
  OABP_RESOLVER_KEY_FILE: z.string().min(1).optional(),
  /**
   * The resolver's address, for a process that holds no key (the public API when settlement runs
   * in `npm run worker`): it watches deposits and serves escrow state, but never signs.
   */
  OABP_RESOLVER_ADDRESS: hexAddress.optional(),
  /** The treasury the escrow pays fees to (used by `npm run escrow:deploy`; checked against the contract at start). */
  OABP_TREASURY_ADDRESS: hexAddress.optional(),
  /** A deposit opens its mission, and a payout counts as confirmed, at this depth. */
  OABP_CONFIRMATIONS: depthPolicy("safe").default({ kind: "tag", tag: "safe" }),
  /** Deposits and payouts are watched for reorgs until this depth; then they are final. */
  OABP_FINALITY: depthPolicy("finalized").default({ kind: "tag", tag: "finalized" }),
  /** First block the escrow watcher scans for Funded logs (the deployment block); unset: the head at first start. */
  OABP_ESCROW_START_BLOCK: z.coerce.number().int().min(0).optional(),
  /** A broadcast payout not mined after this long is re-sent (dropped) or replaced with higher fees (stuck). */
  OABP_PAYOUT_REBROADCAST_SECONDS: z.coerce.number().int().min(5).max(86_400).default(120),
  /** The escrow watcher polls the chain at most this often (idle load: ≤ 4 requests per poll). */
  OABP_CHAIN_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(4_000),
  /** A payout's max fee per gas never exceeds this many times the current base fee (plus the tip). */
  OABP_FEE_BUMP_MAX_MULTIPLIER: z.coerce.number().int().min(2).max(100).default(4),
  /** Timeout of one JSON-RPC request of the base rail. */
  OABP_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  OABP_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  OABP_JUDGING_WINDOW_SECONDS: z.coerce.number().int().min(60).max(90 * 86_400).default(7 * 86_400),
  /** AIP-1 Security "reward griefing": creator_judges awards are disputable unless the creator opts out (`appeal: false`). */
  OABP_APPEAL_DEFAULT: z.enum(["on", "off"]).default("on"),
  /** The default appeal's dispute window after an award. */
  OABP_APPEAL_WINDOW_SECONDS: z.coerce.number().int().min(60).max(30 * 86_400).default(86_400),
  OABP_ORACLE_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Unset: the same length as the judging window. */
  OABP_ORACLE_WINDOW_SECONDS: z.coerce.number().int().min(60).max(90 * 86_400).optional(),
  OABP_VOTE_SLASH_BPS: z.coerce.number().int().min(0).max(10_000).default(1000),
  OABP_JOB_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
  OABP_IPFS_GATEWAY: z.string().url().default("https://ipfs.io/ipfs/"),
  /** ar:// deliverables are fetched as <gateway><tx id>[/path] (docs/abuse-edge.md). */
  OABP_ARWEAVE_GATEWAY: z.string().url().default("https://arweave.net/"),
  OABP_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  OABP_FETCH_MAX_BYTES: z.coerce.number().int().min(1024).max(1024 * 1024 * 1024).default(10 * 1024 * 1024),
  OABP_LIST_CACHE_BYTES: z.coerce.number().int().min(0).max(1024 * 1024 * 1024).default(32 * 1024 * 1024),
  /** RFC 9116 Contact URIs, comma-separated (mailto:, https: or tel:). Unset: mailto:security@<public host>. */
  OABP_SECURITY_CONTACT: z.string().transform((s, ctx) => {
    const out = s.split(",").map((p) => p.trim()).filter(Boolean);
    if (out.length === 0 || out.some((u) => !/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+|tel:\+?[0-9().-]+)$/.test(u))) {
      ctx.addIssue({ code: "custom", message: "must be comma-separated mailto:, https: or tel: URIs" });
      return z.NEVER;
    }
    return out;
  }).optional(),
  /** §9 manifest contact (mailto: or https://); unset: mailto:admin@<public host>. */
  OABP_CONTACT: z.string().regex(/^(mailto:|https:\/\/)\S+$/, "must start with mailto: or https://").optional(),
  /** Receipt signing keys (AIP-1 §6.1) as JSON; unset: generated into <data dir>/receipt-keys.json. */
  OABP_RECEIPT_KEYS: jsonOf(z.array(ReceiptKeyRecordSchema).min(1)).optional(),
  /** Webhook subscriptions and deliveries (events are recorded either way). */
  OABP_WEBHOOKS_ENABLED: z.enum(["true", "false"]).default("true"),
  /** How long a delivery is retried (exponential backoff with jitter) before it is `failed`. */
  OABP_WEBHOOK_RETRY_WINDOW_SECONDS: z.coerce.number().int().min(60).max(14 * 86_400).default(3 * 86_400),
  OABP_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  OABP_WEBHOOK_MAX_PER_AGENT: z.coerce.number().int().min(1).max(1000).default(10),
  /** Attempts in flight to one destination host at once, across every instance. */
  OABP_WEBHOOK_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(2),
  /** A subscription is disabled after this many failed attempts in a row. */
  OABP_WEBHOOK_MAX_CONSECUTIVE_FAILURES: z.coerce.number().int().min(1).max(1000).default(10),
  /** Attempts per delivery at most (also bounded by the retry window). */
  OABP_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** Shared token buckets in Postgres (docs/abuse-edge.md "Rate limits"); false turns every bucket off. */
  OABP_RATE_LIMIT_ENABLED: z.enum(["true", "false"]).default("true"),
  /** Writes (POST/PUT/PATCH/DELETE and MCP write tools) per client IP. */
  OABP_RATE_LIMIT_WRITE_IP: ratePolicy.default({ quota: 120, windowSeconds: 60 }),
  /** Writes per signed-in agent. */
  OABP_RATE_LIMIT_WRITE_AGENT: ratePolicy.default({ quota: 60, windowSeconds: 60 }),
  /** Session-creating routes per client IP: POST /auth/nonce and MCP initialize. */
  OABP_RATE_LIMIT_SESSION_IP: ratePolicy.default({ quota: 20, windowSeconds: 60 }),
  /** MCP sessions still in their handshake (pending) per client IP. */
  OABP_MCP_PENDING_SESSIONS_PER_IP: z.coerce.number().int().min(1).max(10_000).default(10),
  /** AIP-1 §7.3.1: initialize → notifications/initialized window (30 s RECOMMENDED). */
  OABP_MCP_HANDSHAKE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  /** AIP-1 §7.3.3: a terminated session id is not reissued before this (≥ 10 s). */
  OABP_MCP_SESSION_COOLING_SECONDS: z.coerce.number().int().min(10).max(86_400).default(10),
  /** An active MCP session ends after this long without a request. */
  OABP_MCP_SESSION_IDLE_SECONDS: z.coerce.number().int().min(60).max(7 * 86_400).default(3600),
  /** Mission claims (design.md "Claims"): lifetime of a claim (renewable; never past the deadline). */
  OABP_CLAIM_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 86_400).default(86_400),
  /** Active claims one agent may hold at once, across missions. */
  OABP_CLAIM_MAX_PER_AGENT: z.coerce.number().int().min(1).max(10_000).default(20),
  /** OADP (../shared/seeds/OADP-discovery.txt): answer POST /ping with a signed PONG. */
  OABP_OADP_PING_ENABLED: z.enum(["true", "false"]).default("true"),
  /** OADP federation: accept POST /federation/report and list GET /federation/hubs (off, as in OADP). */
  OABP_OADP_FEDERATION_ENABLED: z.enum(["true", "false"]).default("false"),
  /** Fetch reported hubs' /.well-known/agent-protocol.json (through the SSRF-safe fetcher) to set `verified`. */
  OABP_OADP_FEDERATION_VERIFY: z.enum(["true", "false"]).default("false"),
  /** OADP scan_interval_minutes: a domain is fetched at most this often. */
  OABP_OADP_SCAN_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(60),
  /** OADP hub_ttl_hours: a verified hub is re-verified after this long (0 = never). */
  OABP_OADP_HUB_TTL_HOURS: z.coerce.number().int().min(0).max(365 * 24).default(168),
  /** Federation reports accepted per caller (address, else client IP) per hour. */
  OABP_OADP_REPORTS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Behind a reverse proxy: take the client IP from the last X-Forwarded-For entry (rate limits). */
  OABP_TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  /** ADP: `metadata.ttl` of the server's own Agent Card (how long consumers may keep it). */
  OABP_ADP_CARD_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 86_400).default(3600),
  /** ADP discovery: at most this many prefiltered cards (or open missions) are scored per query. */
  OABP_ADP_CANDIDATE_CAP: z.coerce.number().int().min(10).max(10_000).default(500),
  // AIP-3 (reputation portability): the attestation key (secp256k1, 0x + 64 hex); unset: generated
  // into <data dir>/attestation-key.json.
  OABP_ATTESTATION_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x + 64 hex").optional(),
  /** AIP-3 §2: lifetime of the attestations this server issues (≤ 90 days). */
  OABP_ATTESTATION_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(30),
  /** AIP-3 §6: issuers whose attestations are imported, JSON [{url, server_address?, trust_factor?}]. */
  OABP_TRUSTED_ISSUERS: jsonOf(z.array(TrustedIssuerSchema).max(100)).default([]),
  /** AIP-3 §6 open import mode: any issuer (off: only OABP_TRUSTED_ISSUERS). */
  OABP_OPEN_IMPORT: z.enum(["true", "false"]).default("false"),
  /** AIP-3 §3 default trust_factor (per-issuer values override it). */
  OABP_IMPORT_TRUST_FACTOR: z.coerce.number().min(0).max(1).default(0.5),
  /** AIP-4 §1.1 payment_sla_hours: a non_payment dispute needs this long since the award. */
  OABP_PAYMENT_SLA_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(48),
  // ---- Verification pipeline and bounded responses (issue 13 part 1; docs/abuse.md) ----
  /** DNS + connect budget of one fetch hop, apart from OABP_FETCH_TIMEOUT_MS. */
  OABP_FETCH_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /** Concurrent remote checks (content fetch, predicate call) per server process. */
  OABP_CHECK_WORKERS: z.coerce.number().int().min(1).max(256).default(32),
  /** Checks in flight at once against one host, across every server process. */
  OABP_CHECK_PER_HOST: z.coerce.number().int().min(1).max(64).default(2),
  /** Checks in flight at once for one submitter, across every server process. */
  OABP_CHECK_PER_SUBMITTER: z.coerce.number().int().min(1).max(64).default(2),
  /** A judging/voting/oracle window waits at most this long for deliverables still being checked. */
  OABP_CHECK_GRACE_SECONDS: z.coerce.number().int().min(0).max(30 * 86_400).default(86_400),
  /** Regex matches waiting for the matcher worker; past it a submission answers 503 + Retry-After. */
  OABP_MATCH_QUEUE_MAX: z.coerce.number().int().min(1).max(10_000).default(32),
  /** Default outcomes: the share of the reward paid to the earliest verified submissions (< half). */
  OABP_DEFAULT_AWARD_BPS: z.coerce.number().int().min(0).max(4999).default(2000),
  /** Default outcomes: at most this many submissions share OABP_DEFAULT_AWARD_BPS. */
  OABP_DEFAULT_AWARD_MAX_WINNERS: z.coerce.number().int().min(1).max(100).default(3),
  /** Byte cap of one list response (submissions); a page stops early and carries next_cursor. */
  OABP_LIST_MAX_BYTES: z.coerce.number().int().min(16 * 1024).max(64 * 1024 * 1024).default(1024 * 1024),
  /** Request body bytes in flight at once per caller (agent, else client IP) and in the whole process. */
  OABP_INFLIGHT_BYTES_PER_CALLER: z.coerce.number().int().min(64 * 1024).max(1024 * 1024 * 1024).default(4 * 1024 * 1024),
  OABP_INFLIGHT_BYTES_TOTAL: z.coerce.number().int().min(1024 * 1024).max(16 * 1024 * 1024 * 1024).default(128 * 1024 * 1024),
});

export interface Config {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** Direct URL for migrations and LISTEN; unset: DATABASE_URL serves both. */
  databaseDirectUrl: string | undefined;
  /** postgres.js `prepare` on the query pool. */
  databasePrepare: boolean;
  databasePoolMax: number;
  dataDir: string;
  publicUrl: string;
  adminToken: string | undefined;
  logLevel: string;
  bodyLimitBytes: number;
  assets: AssetConfig[];
  registries: RegistryConfig[];
  oracles: OracleConfig[];
  siweChainIds: number[];
  sessionTtlSeconds: number;
  feeBps: number;
  maxSubmissionsPerAgent: number;
  rpcUrl: string | undefined;
  /** The base rail (AIP-1 §6 on-chain escrow); off (null) unless RPC, escrow and resolver key are all set. */
  baseRail: BaseRailConfig | null;
  /** Why the base rail is off, for the manifest and the start-up log; null when it is on. */
  baseRailOff: string | null;
  shutdownTimeoutMs: number;
  listCacheBytes: number;
  judgingWindowSeconds: number;
  /** Default appeal of creator_judges awards (null: off). */
  defaultAppeal: { windowSeconds: number } | null;
  oraclePollSeconds: number;
  oracleWindowSeconds: number;
  jobIntervalMs: number;
  voteSlashBps: number;
  ipfsGateway: string;
  arweaveGateway: string;
  fetchTimeoutMs: number;
  fetchMaxBytes: number;
  /** RFC 9116 Contact lines of /.well-known/security.txt. */
  securityContact: string[];
  /** §9 manifest contact. */
  contact: string;
  /** OABP_RECEIPT_KEYS; undefined: keys live in <data dir>/receipt-keys.json. */
  receiptKeys: ReceiptKeyRecord[] | undefined;
  webhooksEnabled: boolean;
  webhookRetryWindowSeconds: number;
  webhookTimeoutMs: number;
  webhookMaxPerAgent: number;
  webhookHostConcurrency: number;
  webhookMaxConsecutiveFailures: number;
  webhookMaxAttempts: number;
  /** Shared token buckets (null: off). */
  rateLimits: { writeIp: RatePolicy; writeAgent: RatePolicy; sessionIp: RatePolicy } | null;
  mcpPendingPerIp: number;
  adpCardTtlSeconds: number;
  adpCandidateCap: number;
  /** MCP session lifecycle (AIP-1 §7.3), seconds. */
  mcp: { handshakeTimeoutSeconds: number; coolingSeconds: number; idleSeconds: number };
  claimTtlSeconds: number;
  claimMaxPerAgent: number;
  oadp: OadpConfig;
  trustProxy: boolean;
  /** AIP-3 reputation portability and AIP-4 disputes (docs/aip-3-4.md). */
  aip34: Aip34Config;
  /** Verification pipeline, default outcomes and bounded responses (docs/abuse.md). */
  abuse: AbuseConfig;
}

export interface Aip34Config {
  attestationKey: `0x${string}` | undefined;
  attestationTtlDays: number;
  trustedIssuers: { url: string; server_address?: string | undefined; trust_factor?: number | undefined }[];
  openImport: boolean;
  trustFactor: number;
  paymentSlaHours: number;
}

export interface AbuseConfig {
  fetchConnectTimeoutMs: number;
  checkWorkers: number;
  checkPerHost: number;
  checkPerSubmitter: number;
  checkGraceSeconds: number;
  matchQueueMax: number;
  defaultAwardBps: number;
  defaultAwardMaxWinners: number;
  listMaxBytes: number;
  inflightBytesPerCaller: number;
  inflightBytesTotal: number;
}

export interface OadpConfig {
  pingEnabled: boolean;
  federationEnabled: boolean;
  federationVerify: boolean;
  scanIntervalMinutes: number;
  hubTtlHours: number;
  reportsPerHour: number;
}

export interface BaseRailConfig {
  rpcUrl: string;
  chainId: number;
  escrow: string; // lower-case
  /** null: this process never signs (settlement runs in `npm run worker`). */
  resolverKey: Secret | null;
  /** The resolver's address (from the key, or OABP_RESOLVER_ADDRESS), lower-case; null: derive it from the key. */
  resolverAddress: string | null;
  treasury: string | undefined;
  confirmations: ChainDepth;
  finality: ChainDepth;
  startBlock: number | undefined;
  rebroadcastSeconds: number;
  rpcTimeoutMs: number;
  pollMs: number;
  feeBumpMaxMultiplier: number;
}

function baseRailFrom(e: z.infer<typeof EnvSchema>, readFile: (path: string) => string): { rail: BaseRailConfig | null; off: string | null } {
  if (e.OABP_RESOLVER_KEY && e.OABP_RESOLVER_KEY_FILE) throw new Error("Invalid configuration:\n  OABP_RESOLVER_KEY_FILE: set either OABP_RESOLVER_KEY or OABP_RESOLVER_KEY_FILE, not both");
  let key = e.OABP_RESOLVER_KEY;
  if (e.OABP_RESOLVER_KEY_FILE) {
    let text: string;
    try {
      text = readFile(e.OABP_RESOLVER_KEY_FILE);
    } catch (err) {
      throw new Error(`Invalid configuration:\n  OABP_RESOLVER_KEY_FILE: cannot read it (${(err as NodeJS.ErrnoException).code ?? "error"})`);
    }
    const parsed = privateKey.safeParse(text);
    // The message never echoes the file's content.
    if (!parsed.success) throw new Error("Invalid configuration:\n  OABP_RESOLVER_KEY_FILE: must hold a 0x-prefixed 32-byte hex private key");
    key = parsed.data;
  }
  if (!e.OABP_RPC_URL) return { rail: null, off: "no_rpc_url" };
  if (!e.OABP_ESCROW_ADDRESS) return { rail: null, off: "no_escrow_address" };
  if (!key && !e.OABP_RESOLVER_ADDRESS) return { rail: null, off: "no_resolver_key" };
  return {
    off: null,
    rail: {
      rpcUrl: e.OABP_RPC_URL,
      chainId: e.OABP_CHAIN_ID,
      escrow: e.OABP_ESCROW_ADDRESS.toLowerCase(),
      resolverKey: key ? new Secret(key) : null,
      resolverAddress: e.OABP_RESOLVER_ADDRESS?.toLowerCase() ?? null,
      treasury: e.OABP_TREASURY_ADDRESS?.toLowerCase(),
      confirmations: e.OABP_CONFIRMATIONS,
      finality: e.OABP_FINALITY,
      startBlock: e.OABP_ESCROW_START_BLOCK,
      rebroadcastSeconds: e.OABP_PAYOUT_REBROADCAST_SECONDS,
      rpcTimeoutMs: e.OABP_RPC_TIMEOUT_MS,
      pollMs: e.OABP_CHAIN_POLL_MS,
      feeBumpMaxMultiplier: e.OABP_FEE_BUMP_MAX_MULTIPLIER,
    },
  };
}

/** The default asset list: USDC with its address on the configured Base chain, if it has one. */
function defaultAssets(chainId: number): AssetConfig[] {
  const usdc = USDC_BY_CHAIN[chainId];
  return DEFAULT_ASSETS.map((a) => ({ ...a, addresses: usdc ? { base: usdc } : ({} as Record<string, string>) }));
}

export function parseEnv(source: Record<string, string | undefined>, readFile: (path: string) => string = (p) => readFileSync(p, "utf8")): Config {
  // Empty strings mean "unset" (docker-compose passes FOO= for unset variables).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) throw new Error("Invalid configuration:\n  DATABASE_DIRECT_URL: set only together with DATABASE_URL (the pooled URL)");
  const { rail: baseRail, off: baseRailOff } = baseRailFrom(e, readFile);
  const publicUrl = (e.OABP_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    databasePrepare: e.OABP_DB_PREPARE === "auto" ? !e.DATABASE_DIRECT_URL : e.OABP_DB_PREPARE === "true",
    databasePoolMax: e.DATABASE_POOL_MAX,
    dataDir: e.OABP_DATA_DIR,
    publicUrl,
    adminToken: e.OABP_ADMIN_TOKEN,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.OABP_BODY_LIMIT_BYTES,
    assets: e.OABP_ASSETS ?? defaultAssets(e.OABP_CHAIN_ID),
    registries: e.OABP_REGISTRIES.map((r) => ({ ...r, domain: r.domain.toLowerCase(), signer: r.signer.toLowerCase() })),
    oracles: e.OABP_ORACLES.map((o) => ({ ...o, address: o.address.toLowerCase() })),
    siweChainIds: e.OABP_SIWE_CHAIN_IDS,
    sessionTtlSeconds: e.OABP_SESSION_TTL_SECONDS,
    feeBps: e.OABP_FEE_BPS,
    maxSubmissionsPerAgent: e.OABP_MAX_SUBMISSIONS_PER_AGENT,
    rpcUrl: e.OABP_RPC_URL,
    baseRail,
    baseRailOff,
    shutdownTimeoutMs: e.OABP_SHUTDOWN_TIMEOUT_MS,
    listCacheBytes: e.OABP_LIST_CACHE_BYTES,
    judgingWindowSeconds: e.OABP_JUDGING_WINDOW_SECONDS,
    defaultAppeal: e.OABP_APPEAL_DEFAULT === "on" ? { windowSeconds: e.OABP_APPEAL_WINDOW_SECONDS } : null,
    oraclePollSeconds: e.OABP_ORACLE_POLL_SECONDS,
    oracleWindowSeconds: e.OABP_ORACLE_WINDOW_SECONDS ?? e.OABP_JUDGING_WINDOW_SECONDS,
    jobIntervalMs: e.OABP_JOB_INTERVAL_MS,
    voteSlashBps: e.OABP_VOTE_SLASH_BPS,
    ipfsGateway: e.OABP_IPFS_GATEWAY,
    arweaveGateway: e.OABP_ARWEAVE_GATEWAY,
    fetchTimeoutMs: e.OABP_FETCH_TIMEOUT_MS,
    fetchMaxBytes: e.OABP_FETCH_MAX_BYTES,
    securityContact: e.OABP_SECURITY_CONTACT ?? [`mailto:security@${new URL(publicUrl).hostname}`],
    contact: e.OABP_CONTACT ?? `mailto:admin@${new URL(publicUrl).hostname}`,
    receiptKeys: e.OABP_RECEIPT_KEYS,
    webhooksEnabled: e.OABP_WEBHOOKS_ENABLED === "true",
    webhookRetryWindowSeconds: e.OABP_WEBHOOK_RETRY_WINDOW_SECONDS,
    webhookTimeoutMs: e.OABP_WEBHOOK_TIMEOUT_MS,
    webhookMaxPerAgent: e.OABP_WEBHOOK_MAX_PER_AGENT,
    webhookHostConcurrency: e.OABP_WEBHOOK_HOST_CONCURRENCY,
    webhookMaxConsecutiveFailures: e.OABP_WEBHOOK_MAX_CONSECUTIVE_FAILURES,
    webhookMaxAttempts: e.OABP_WEBHOOK_MAX_ATTEMPTS,
    rateLimits: e.OABP_RATE_LIMIT_ENABLED === "true"
      ? { writeIp: e.OABP_RATE_LIMIT_WRITE_IP, writeAgent: e.OABP_RATE_LIMIT_WRITE_AGENT, sessionIp: e.OABP_RATE_LIMIT_SESSION_IP }
      : null,
    mcpPendingPerIp: e.OABP_MCP_PENDING_SESSIONS_PER_IP,
    mcp: {
      handshakeTimeoutSeconds: e.OABP_MCP_HANDSHAKE_TIMEOUT_SECONDS,
      coolingSeconds: e.OABP_MCP_SESSION_COOLING_SECONDS,
      idleSeconds: e.OABP_MCP_SESSION_IDLE_SECONDS,
    },
    claimTtlSeconds: e.OABP_CLAIM_TTL_SECONDS,
    claimMaxPerAgent: e.OABP_CLAIM_MAX_PER_AGENT,
    oadp: {
      pingEnabled: e.OABP_OADP_PING_ENABLED === "true",
      federationEnabled: e.OABP_OADP_FEDERATION_ENABLED === "true",
      federationVerify: e.OABP_OADP_FEDERATION_VERIFY === "true",
      scanIntervalMinutes: e.OABP_OADP_SCAN_INTERVAL_MINUTES,
      hubTtlHours: e.OABP_OADP_HUB_TTL_HOURS,
      reportsPerHour: e.OABP_OADP_REPORTS_PER_HOUR,
    },
    trustProxy: e.OABP_TRUST_PROXY === "true",
    adpCardTtlSeconds: e.OABP_ADP_CARD_TTL_SECONDS,
    adpCandidateCap: e.OABP_ADP_CANDIDATE_CAP,
    aip34: {
      attestationKey: e.OABP_ATTESTATION_KEY as `0x${string}` | undefined,
      attestationTtlDays: e.OABP_ATTESTATION_TTL_DAYS,
      trustedIssuers: e.OABP_TRUSTED_ISSUERS.map((i) => ({ ...i, url: i.url.replace(/\/+$/, ""), server_address: i.server_address?.toLowerCase() })),
      openImport: e.OABP_OPEN_IMPORT === "true",
      trustFactor: e.OABP_IMPORT_TRUST_FACTOR,
      paymentSlaHours: e.OABP_PAYMENT_SLA_HOURS,
    },
    abuse: {
      fetchConnectTimeoutMs: e.OABP_FETCH_CONNECT_TIMEOUT_MS,
      checkWorkers: e.OABP_CHECK_WORKERS,
      checkPerHost: e.OABP_CHECK_PER_HOST,
      checkPerSubmitter: e.OABP_CHECK_PER_SUBMITTER,
      checkGraceSeconds: e.OABP_CHECK_GRACE_SECONDS,
      matchQueueMax: e.OABP_MATCH_QUEUE_MAX,
      defaultAwardBps: e.OABP_DEFAULT_AWARD_BPS,
      defaultAwardMaxWinners: e.OABP_DEFAULT_AWARD_MAX_WINNERS,
      listMaxBytes: e.OABP_LIST_MAX_BYTES,
      inflightBytesPerCaller: e.OABP_INFLIGHT_BYTES_PER_CALLER,
      inflightBytesTotal: e.OABP_INFLIGHT_BYTES_TOTAL,
    },
  };
}

/** Reads process.env once, at start-up. */
export function loadEnv(): Config {
  return parseEnv(process.env);
}
