import { z } from "zod";
import { ReceiptKeyRecordSchema } from "./lib/receipt-keys";

// Every setting, spelled once: its env name, zod schema (with the default), the default as the
// docs show it, a one-line doc and the Config property it fills. src/env.ts parses and maps it;
// docs/configuration.md is generated from it (`npx tsx scripts/config-docs.ts`, drift-tested by
// test/config/settings-table.test.ts). A setting without `key` feeds a Config property that
// parseEnv derives from several settings (env.ts).

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
  max_ttl_seconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(86_400),
});
// AIP-1 Security Considerations: "whitelist known oracles and warn on unknown ones".
const OracleSchema = z.object({
  chain: z.string().min(1).max(32).default("base"),
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  method: z.string().min(1).max(256),
});
/** "safe" / "finalized" (a block tag) or a number of blocks (N confirmations: included N-1 blocks below the head). */
const depthPolicy = (tag: "safe" | "finalized") =>
  z.string().transform((s, ctx): ChainDepth => {
    if (s === tag) return { kind: "tag", tag };
    if (/^[1-9][0-9]{0,3}$/.test(s)) return { kind: "blocks", blocks: Number(s) };
    ctx.addIssue({ code: "custom", message: `must be "${tag}" or a number of blocks (1-9999)` });
    return z.NEVER;
  });
export type ChainDepth = { kind: "tag"; tag: "safe" | "finalized" } | { kind: "blocks"; blocks: number };

/** WCAG 2 contrast ratio of a #rrggbb colour against white. */
export function contrastOnWhite(hex: string): number {
  const ch = (i: number) => {
    const v = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * ch(0) + 0.7152 * ch(1) + 0.0722 * ch(2);
  return 1.05 / (l + 0.05);
}

const hexAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");
export const privateKey = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key");

const jsonOf = <T extends z.ZodTypeAny>(schema: T) =>
  z
    .string()
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be valid JSON" });
        return z.NEVER;
      }
    })
    .pipe(schema);

const TrustedIssuerSchema = z.object({
  url: z.string().url().max(300),
  server_address: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .optional(),
  trust_factor: z.number().min(0).max(1).optional(),
  // AIP-3 §6 entry fields, published at /reputation/trusted-issuers.
  chain_family: z.string().min(1).max(32).optional(),
  chain_id: z.string().min(1).max(64).optional(),
  added: z.string().datetime({ offset: true }).optional(),
  // A private-network issuer (docs/aip-3-4.md "Private issuers"): its manifest is fetched from
  // exactly this address (and the URL's port), never any other private address.
  private_address: z.union([z.ipv4(), z.ipv6()]).optional(),
});

const csvInts = z.string().transform((s, ctx) => {
  const parts = s
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
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
/** A rate-policy setting; the docs show its default as `<quota>/<window seconds>`. */
const rate = (quota: number, windowSeconds: number) => ({
  schema: ratePolicy.default({ quota, windowSeconds }),
  shown: `\`${quota}/${windowSeconds}\``,
});
export interface RatePolicy {
  quota: number;
  windowSeconds: number;
}

/** "true" / "false" as a boolean. */
/** An integer setting in [min, max]; the docs show its default. */
const int = (min: number, max: number, byDefault: number) => ({
  schema: z.coerce.number().int().min(min).max(max).default(byDefault),
  shown: `\`${byDefault}\``,
});

const flag = z.enum(["true", "false"]).transform((v) => v === "true");
/** A true/false setting; the docs show its default. */
const flagDefault = (byDefault: boolean) => ({ schema: flag.default(byDefault), shown: `\`${byDefault}\`` });

export interface TrustedIssuer {
  url: string;
  server_address?: string | undefined;
  trust_factor?: number | undefined;
  chain_family?: string | undefined;
  chain_id?: string | undefined;
  added?: string | undefined;
  private_address?: string | undefined;
}

export interface Setting {
  schema: z.ZodType;
  /** The default as docs/configuration.md shows it ("unset" when there is none). */
  shown: string;
  /** One line for docs/configuration.md. */
  doc: string;
  /** The Config property it fills as parsed: "port", or "abuse.checkWorkers" inside a group. */
  key?: string;
}

export const SETTINGS = {
  NODE_ENV: {
    key: "nodeEnv",
    schema: z.enum(["development", "production", "test"]).default("development"),
    shown: "`development`",
    doc:
      "`development`, `production` or `test`; checked at start, read by no server code (the " +
      "Dockerfile sets `production` for `npm ci` and the libraries)",
  },
  PORT: {
    key: "port",
    ...int(0, 65535, 3000),
    doc: "listen port (`0` = any free port)",
  },
  OABP_WORKER_PORT: {
    key: "workerPort",
    ...int(0, 65535, 3001),
    doc: "`npm run worker`'s own `/health` and `/metrics` port, on `HOST` (`0` = off)",
  },
  HOST: {
    key: "host",
    schema: z.string().min(1).default("0.0.0.0"),
    shown: "`0.0.0.0`",
    doc: "listen address",
  },
  DATABASE_URL: {
    key: "databaseUrl",
    schema: z.string().url().optional(),
    shown: "unset",
    doc: "`postgres://…` to use PostgreSQL; unset = embedded PGlite in `OABP_DATA_DIR/pgdata`",
  },
  DATABASE_POOL_MAX: {
    key: "databasePoolMax",
    ...int(1, 200, 10),
    doc: "Postgres connection pool size",
  },
  /**
   * A direct (unpooled) Postgres URL, for when DATABASE_URL points at a transaction-mode pooler
   * (PgBouncer, a managed pooler): migrations (a session advisory lock) and LISTEN need one
   * session of their own, which such a pooler cannot give
   * (docs/operations.md "Behind a transaction-mode pooler").
   */
  DATABASE_DIRECT_URL: {
    key: "databaseDirectUrl",
    schema: z.string().url().optional(),
    shown: "unset",
    doc:
      "Direct Postgres URL for migrations and LISTEN when `DATABASE_URL` is a transaction-mode " +
      "pooler (PgBouncer); see docs/operations.md",
  },
  /**
   * A streaming replica for public reads; a read presenting a write token
   * (`OABP-Read-After`) the replica has not replayed yet goes to the primary.
   */
  DATABASE_READ_URL: {
    key: "databaseReadUrl",
    schema: z.string().url().optional(),
    shown: "unset",
    doc:
      "Postgres read replica (hot standby) for public read routes; writes, transactions and reads " +
      "whose `OABP-Read-After` token it has not replayed use `DATABASE_URL` (docs/operations.md)",
  },
  OABP_DATA_DIR: {
    key: "dataDir",
    schema: z.string().min(1).default("./data"),
    shown: "`./data`",
    doc: "embedded database, its lock file (`oabp.lock`: two servers never share a dir), generated " + "admin token",
  },
  OABP_PUBLIC_URL: {
    schema: z.string().url().optional(),
    shown: "`http://localhost:$PORT`",
    doc: "canonical origin: `view_url`, receipt URIs, the SIWE domain (its host)",
  },
  OABP_ADMIN_TOKEN: {
    key: "adminToken",
    schema: z.string().min(24, "must be at least 24 characters").optional(),
    shown: "generated",
    doc: "operator bearer token (≥ 24 chars) for `/admin/*`",
  },
  /** GET /metrics (Prometheus text) for a scraper that should not hold the admin token. */
  OABP_METRICS_TOKEN: {
    key: "metricsToken",
    schema: z.string().min(24, "must be at least 24 characters").optional(),
    shown: "unset",
    doc: "bearer token (≥ 24 chars) that may read `/metrics` only; the admin token always may",
  },
  OABP_METRICS_ENABLED: {
    key: "metricsEnabled",
    ...flagDefault(true),
    doc: "`false`: `/metrics` answers 404 and the manifest omits it (request metrics are not recorded)",
  },
  LOG_LEVEL: {
    key: "logLevel",
    schema: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    shown: "`info`",
    doc: "pino level (`silent` … `trace`); one JSON line per request, path only (a query may carry an " + "`api_key`)",
  },
  OABP_BODY_LIMIT_BYTES: {
    key: "bodyLimitBytes",
    ...int(1024, 64 * 1024 * 1024, 1024 * 1024),
    doc: "request body limit (413 beyond)",
  },
  OABP_ASSETS: {
    schema: jsonOf(z.array(AssetSchema).min(1)).optional(),
    shown: "USDC, 6 decimals, spam fee 5 USDC",
    doc: 'JSON array `[{symbol, decimals, spam_fee, usd_price, addresses:{base:"0x…"}}]`',
  },
  OABP_REGISTRIES: {
    key: "registries",
    schema: jsonOf(z.array(RegistrySchema))
      .transform((list) => list.map((r) => ({ ...r, domain: r.domain.toLowerCase(), signer: r.signer.toLowerCase() })))
      .default([]),
    shown: "`[]`",
    doc:
      "JSON array `[{domain, signer, max_ttl_seconds?}]`: registries whose attestations are accepted " +
      "(§1.4); `max_ttl_seconds` defaults to 86 400",
  },
  OABP_ORACLES: {
    key: "oracles",
    schema: jsonOf(z.array(OracleSchema))
      .transform((list) => list.map((o) => ({ ...o, address: o.address.toLowerCase() })))
      .default([]),
    shown: "`[]`",
    doc: "JSON array `[{chain, address, method}]`: allow-listed oracles; others are accepted with a " + "warning",
  },
  OABP_SIWE_CHAIN_IDS: {
    key: "siweChainIds",
    schema: csvInts.default([8453]),
    shown: "`8453`",
    doc: "chain ids accepted in SIWE messages (comma-separated)",
  },
  OABP_SESSION_TTL_SECONDS: {
    key: "sessionTtlSeconds",
    ...int(60, 30 * 86400, 86400),
    doc: "SIWE session lifetime",
  },
  OABP_FEE_BPS: {
    key: "feeBps",
    ...int(0, 100, 50),
    doc: "protocol fee on release, basis points (max 100)",
  },
  OABP_MAX_SUBMISSIONS_PER_AGENT: {
    key: "maxSubmissionsPerAgent",
    ...int(1, 1000, 10),
    doc: "submissions one agent may make to one mission",
  },
  /** Base JSON-RPC endpoint: oracle reads, smart-account signatures and (with the settings below) the base rail. */
  OABP_RPC_URL: {
    key: "rpcUrl",
    schema: z.string().url().optional(),
    shown: "unset",
    doc:
      "Base RPC; when set, SIWE verifies smart-contract wallets (ERC-1271/6492) too, and oracle " +
      "missions read their oracle through it (unset: oracles never answer)",
  },
  /** The chain the base rail settles on: 8453 Base, 84532 Base Sepolia, or a local anvil's id. */
  OABP_CHAIN_ID: {
    ...int(1, 2 ** 32, 8453),
    doc: "the chain of the base rail: 8453 Base, 84532 Base Sepolia (USDC preset for both), or a local " + "anvil's id",
  },
  /** MissionEscrow contract (contracts/MissionEscrow.sol) on OABP_CHAIN_ID. */
  OABP_ESCROW_ADDRESS: {
    schema: hexAddress.optional(),
    shown: "unset",
    doc: "the MissionEscrow contract; with `OABP_RPC_URL` and a resolver key it turns the base rail on",
  },
  /** The configured escrow's MissionEscrow version (how its payouts are called). */
  OABP_ESCROW_VERSION: {
    schema: z.enum(["2", "3", "4"]).default("4"),
    shown: "`4`",
    doc:
      "MissionEscrow version of `OABP_ESCROW_ADDRESS` (`2`: paid with v2's `release`/`refund`; `3`: " +
      "v3's unbound release signature); a retired " +
      "contract names its own in `OABP_ESCROW_RETIRED`",
  },
  /** Older escrow contracts that still hold slots (docs/base-rail.md "Migrating to a new escrow"). */
  OABP_ESCROW_RETIRED: {
    schema: jsonOf(
      z.array(
        z.object({
          address: hexAddress.transform((a) => a.toLowerCase()),
          start_block: z.number().int().min(0),
          version: z.enum(["2", "3", "4"]),
        }),
      ),
    ).default([]),
    shown: "`[]`",
    doc:
      "JSON array `[{address, start_block, version}]`: retired MissionEscrow contracts that still hold " +
      "slots; their deposits, payouts, exits and balances are followed until empty, new missions use " +
      "`OABP_ESCROW_ADDRESS`",
  },
  /** The resolver's private key (RESOLVER_ROLE on the escrow); or OABP_RESOLVER_KEY_FILE. Never logged. */
  OABP_RESOLVER_KEY: {
    schema: privateKey.optional(),
    shown: "unset",
    doc: "the resolver's private key (0x + 64 hex; holds `RESOLVER_ROLE`), inline; never logged or " + "echoed",
  },
  OABP_RESOLVER_KEY_FILE: {
    schema: z.string().min(1).optional(),
    shown: "unset",
    doc:
      "a file holding the resolver's private key, instead of `OABP_RESOLVER_KEY` (never both); its " +
      "content is never logged or echoed",
  },
  /**
   * The resolver's address, for a process that holds no key (the public API when settlement runs
   * in `npm run worker`): it watches deposits and serves escrow state, but never signs.
   */
  OABP_RESOLVER_ADDRESS: {
    schema: hexAddress.optional(),
    shown: "unset",
    doc:
      "instead of the key: the resolver's address, for an API process that holds no key while `npm " +
      "run worker` settles ([docs/base-rail.md](base-rail.md))",
  },
  /**
   * A remote signer holding the resolver key (JSON-RPC `eth_signTransaction`: web3signer, Clef, a
   * KMS/HSM-backed signer): with OABP_RESOLVER_ADDRESS, the worker signs through it and holds no key.
   */
  OABP_RESOLVER_SIGNER_URL: {
    schema: z.string().url().optional(),
    shown: "unset",
    doc:
      "a remote signer (JSON-RPC `eth_signTransaction`) holding the resolver key, with " +
      "`OABP_RESOLVER_ADDRESS` and no key: the worker signs through it ([docs/base-rail.md](base-rail.md))",
  },
  /**
   * The relayer's private key (docs/payments.md): a hot key with gas money only. With it, x402
   * deposits and fees are settled by this server and funding authorizations are relayed.
   */
  OABP_RELAYER_KEY: {
    schema: privateKey.optional(),
    shown: "unset",
    doc:
      "the relayer's private key (0x + 64 hex; gas only, never tokens): turns on x402 deposits and fees " +
      "and the relay of funding authorizations ([docs/payments.md](payments.md)); never logged or echoed",
  },
  /** The treasury the escrow pays fees to (used by `npm run escrow:deploy`; checked against the contract at start). */
  OABP_TREASURY_ADDRESS: {
    schema: hexAddress.optional(),
    shown: "unset",
    doc: "treasury for `npm run escrow:deploy` (the contract holds the one in force)",
  },
  /** A deposit opens its mission, and a payout counts as confirmed, at this depth. */
  OABP_CONFIRMATIONS: {
    schema: depthPolicy("safe").default({ kind: "tag", tag: "safe" }),
    shown: "`safe`",
    doc:
      "depth at which a deposit opens its mission and a payout counts as confirmed: `safe` (at or " +
      "below the chain's safe block) or a number of blocks",
  },
  /** Deposits and payouts are watched for reorgs until this depth; then they are final. */
  OABP_FINALITY: {
    schema: depthPolicy("finalized").default({ kind: "tag", tag: "finalized" }),
    shown: "`finalized`",
    doc:
      "depth after which deposits and payouts are no longer watched for reorgs: `finalized` or a " + "number of blocks",
  },
  /** First block the escrow watcher scans for Funded logs (the deployment block); unset: the head at first start. */
  OABP_ESCROW_START_BLOCK: {
    schema: z.coerce.number().int().min(0).optional(),
    shown: "head at first start",
    doc: "first block the escrow watcher scans for `Funded` logs (the deployment block)",
  },
  /** docs/withdrawals.md "Caps": above either, a withdrawal waits for the operator's approval. */
  OABP_WITHDRAWAL_AGENT_CAP: {
    key: "withdrawalAgentCap",
    ...int(0, 1_000_000_000, 100),
    doc: "whole units of an asset one agent may withdraw per 24 h without the operator's approval (0: every withdrawal waits)",
  },
  OABP_WITHDRAWAL_DAILY_CAP: {
    key: "withdrawalDailyCap",
    ...int(0, 1_000_000_000, 1_000),
    doc: "whole units of an asset all agents together may withdraw per 24 h without the operator's approval",
  },
  /** docs/erc-8004.md "Turning it on": the three together turn feedback backed by payment on. */
  OABP_ERC8004_IDENTITY_REGISTRY: {
    schema: hexAddress.optional(),
    shown: "unset",
    doc: "the ERC-8004 identity registry on the base rail's chain the server registers itself in ([docs/erc-8004.md](erc-8004.md))",
  },
  OABP_ERC8004_REPUTATION_REGISTRY: {
    schema: hexAddress.optional(),
    shown: "unset",
    doc: "the ERC-8004 reputation registry the worker writes feedback backed by payment to",
  },
  OABP_ERC8004_REPORTER_KEY: {
    schema: privateKey.optional(),
    shown: "unset",
    doc:
      "the key that owns the server's ERC-8004 identity and signs its feedback (0x + 64 hex; needs gas, " +
      "not the resolver key); never logged or echoed",
  },
  /** The escrow watcher polls the chain at most this often (idle load: ≤ 4 requests per poll). */
  OABP_CHAIN_POLL_MS: {
    ...int(100, 600_000, 4_000),
    doc: "the base rail polls the chain at most this often (idle load ≤ 4 requests per poll)",
  },
  /**
   * OpenTelemetry traces, off by default: `otlp` loads the SDK and exports spans over
   * OTLP/HTTP; the exporter and resource read the other standard OTEL_* variables themselves.
   */
  OTEL_TRACES_EXPORTER: {
    key: "tracesExporter",
    schema: z.enum(["none", "otlp", "console"]).default("none"),
    shown: "`none`",
    doc:
      "OpenTelemetry traces: `none` (off, no SDK loaded), `otlp` (OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT`), " +
      "`console`; `OTEL_SDK_DISABLED=true` also turns them off",
  },
  OABP_SHUTDOWN_TIMEOUT_MS: {
    key: "shutdownTimeoutMs",
    ...int(100, 120_000, 10_000),
    doc: "SIGTERM grace for in-flight requests and job rounds (exit 1 if it runs out)",
  },
  OABP_JUDGING_WINDOW_SECONDS: {
    key: "judgingWindowSeconds",
    ...int(60, 90 * 86_400, 7 * 86_400),
    doc: "creator_judges: judging window after the deadline (7 days) for a mission that states none (`judging_window_seconds`)",
  },
  /** AIP-1 Security "reward griefing": creator_judges awards are disputable unless the creator opts out (`appeal: false`). */
  OABP_APPEAL_DEFAULT: {
    schema: z.enum(["on", "off"]).default("on"),
    shown: "`on`",
    doc:
      "creator_judges awards are disputable unless the creator opts out (`appeal: false`); `off` " +
      "restores immediate awards",
  },
  /** The default appeal's dispute window after an award. */
  OABP_APPEAL_WINDOW_SECONDS: {
    ...int(60, 30 * 86_400, 86_400),
    doc: "the default appeal's dispute window after an award",
  },
  /** Unset: the same length as the judging window. */
  OABP_ORACLE_WINDOW_SECONDS: {
    schema: z.coerce
      .number()
      .int()
      .min(60)
      .max(90 * 86_400)
      .optional(),
    shown: "= judging window",
    doc: "oracle: how long after the deadline the oracle may attest before the default award",
  },
  OABP_JOB_INTERVAL_MS: {
    key: "jobIntervalMs",
    ...int(0, 3_600_000, 1000),
    doc: "background job loop period (`0` = no loop)",
  },
  OABP_IPFS_GATEWAY: {
    key: "ipfsGateway",
    schema: z.string().url().default("https://ipfs.io/ipfs/"),
    shown: "`https://ipfs.io/ipfs/`",
    doc: "gateway through which `ipfs://` deliverables are fetched",
  },
  /** ar:// deliverables are fetched as <gateway><tx id>[/path] (docs/abuse-edge.md). */
  OABP_ARWEAVE_GATEWAY: {
    key: "arweaveGateway",
    schema: z.string().url().default("https://arweave.net/"),
    shown: "`https://arweave.net/`",
    doc: "gateway through which `ar://` deliverables are fetched (`<gateway><tx id>[/path]`, SSRF-safe " + "fetcher)",
  },
  OABP_LIST_CACHE_BYTES: {
    key: "listCacheBytes",
    ...int(0, 1024 * 1024 * 1024, 32 * 1024 * 1024),
    doc: "memory for cached `GET /missions` pages (`0` = no cache)",
  },
  /** RFC 9116 Contact URIs, comma-separated (mailto:, https: or tel:). Unset: mailto:security@<public host>. */
  OABP_SECURITY_CONTACT: {
    schema: z
      .string()
      .transform((s, ctx) => {
        const out = s
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean);
        if (
          out.length === 0 ||
          out.some((u) => !/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+|tel:\+?[0-9().-]+)$/.test(u))
        ) {
          ctx.addIssue({ code: "custom", message: "must be comma-separated mailto:, https: or tel: URIs" });
          return z.NEVER;
        }
        return out;
      })
      .optional(),
    shown: "`mailto:security@<public host>`",
    doc: "`Contact` lines of `/.well-known/security.txt`: comma-separated `mailto:`, `https:` or `tel:` " + "URIs",
  },
  /** §9 manifest contact (mailto: or https://); unset: mailto:admin@<public host>. */
  OABP_CONTACT: {
    schema: z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, "must start with mailto: or https://")
      .optional(),
    shown: "`mailto:admin@<public host>`",
    doc: "`contact` of `/.well-known/oabp.json` (`mailto:` or `https://`)",
  },
  /** The web board's brand (docs/web.md "Brand"): its name in the header, titles and OpenGraph. */
  OABP_BRAND_NAME: {
    key: "brandName",
    schema: z.string().trim().min(1).max(60).default("Open Bounty Board"),
    shown: "`Open Bounty Board`",
    doc: "name of the web board (header, page titles, `og:site_name`)",
  },
  /** Served by this origin or inline: the pages' CSP loads images from 'self' and data: only. */
  OABP_BRAND_LOGO_URL: {
    key: "brandLogoUrl",
    schema: z
      .string()
      .max(65_536)
      .regex(
        /^(\/(?!\/)\S*|data:image\/(png|svg\+xml|webp|jpeg);base64,[A-Za-z0-9+/=]+)$/,
        "must be a path on this server (/...) or a data:image/...;base64 URL",
      )
      .optional(),
    shown: "unset (the name alone)",
    doc: "logo shown before the board's name: a path on this server or a `data:image/…;base64,` URL",
  },
  /**
   * The accent must keep links and buttons readable (WCAG AA, 4.5:1 against white); the dark
   * scheme gets a lighter shade of it (src/features/web/web.brand.ts, docs/web.md "Brand").
   */
  OABP_BRAND_ACCENT: {
    key: "brandAccent",
    schema: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "must be a #rrggbb colour")
      .refine((c) => contrastOnWhite(c) >= 4.5, "must have a contrast of at least 4.5:1 against white (WCAG AA)")
      .default("#0b57d0"),
    shown: "`#0b57d0`",
    doc: "accent colour of links and buttons (`#rrggbb`, contrast ≥ 4.5:1 on white; dark mode gets a lighter shade of it that reads on the dark page)",
  },
  /** Receipt signing keys (AIP-1 §6.1) as JSON; unset: generated into <data dir>/receipt-keys.json. */
  OABP_RECEIPT_KEYS: {
    key: "receiptKeys",
    schema: jsonOf(z.array(ReceiptKeyRecordSchema).min(1)).optional(),
    shown: "—",
    doc:
      'receipt signing keys as JSON `[{key_id, alg:"ed25519", public_key, private_key?, valid_from, ' +
      "valid_until}]` (raw 32-byte keys, base64url; exactly one with `valid_until: null` and its " +
      "`private_key`). Unset: generated on first start into `<data dir>/receipt-keys.json` (0600); set it " +
      "when several instances serve one database",
  },
  /** Webhook subscriptions and deliveries (events are recorded either way). */
  OABP_WEBHOOKS_ENABLED: {
    key: "webhooksEnabled",
    ...flagDefault(true),
    doc:
      "`false`: the `/webhooks` routes answer 503, nothing is delivered, the manifest omits " +
      "`endpoints.webhooks` (events are still recorded, and purged after 30 days)",
  },
  /** Live events (features/events): open GET /events streams and inbox long polls, per instance. */
  OABP_EVENTS_MAX_CONNECTIONS: {
    key: "eventsMaxConnections",
    ...int(1, 100_000, 1000),
    doc: "open `GET /events` streams plus waiting `GET /agents/me/inbox` long polls on one instance (then 503); a quarter only for parties of a live mission, anonymous streams at most half, a tenth kept for client networks holding none",
  },
  OABP_EVENTS_MAX_PER_IP: {
    key: "eventsMaxPerIp",
    ...int(1, 100_000, 20),
    doc: "open `GET /events` streams plus waiting inbox long polls per client network on one instance (then 429)",
  },
  OABP_INBOX_MAX_WAIT_SECONDS: {
    key: "inboxMaxWaitSeconds",
    ...int(0, 120, 25),
    doc: "longest `wait` of a `GET /agents/me/inbox` long poll (`0` turns long polls off)",
  },
  /** Shared token buckets in Postgres (docs/abuse-edge.md "Rate limits"); false turns every bucket off. */
  OABP_RATE_LIMIT_ENABLED: {
    schema: z.enum(["true", "false"]).default("true"),
    shown: "`true`",
    doc:
      "shared Postgres token buckets on writes and session-creating routes (docs/abuse-edge.md); " +
      "`false` turns them off",
  },
  /** Writes (POST/PUT/PATCH/DELETE and MCP write tools) per client IP. */
  OABP_RATE_LIMIT_WRITE_IP: {
    ...rate(120, 60),
    doc: "`<quota>/<window s>`: anonymous writes (POST/PUT/PATCH/DELETE, MCP write tools) per client network",
  },
  /** Writes per signed-in agent. */
  OABP_RATE_LIMIT_WRITE_AGENT: {
    ...rate(60, 60),
    doc: "writes per signed-in agent",
  },
  /** Writes of signed-in agents per client network (agents are limited per agent first). */
  OABP_RATE_LIMIT_WRITE_NET_AGENTS: {
    ...rate(600, 60),
    doc:
      "writes of signed-in agents per client network (after each agent's own bucket; anonymous writes " +
      "use `OABP_RATE_LIMIT_WRITE_IP`, so an anonymous neighbour cannot starve them)",
  },
  /** Reads (GET/HEAD but the event streams) per caller (agent, else client network), per instance. */
  OABP_RATE_LIMIT_READ: {
    key: "readLimit",
    ...rate(1200, 60),
    doc: "reads (GET/HEAD, not `GET /events`) per caller — the agent, else the client network — per instance (429)",
  },
  /** Reads in flight at once per caller, per instance. */
  OABP_READ_INFLIGHT_PER_CALLER: {
    key: "readInflightPerCaller",
    ...int(1, 10_000, 8),
    doc: "reads in flight at once per caller (agent, else client network) per instance (429)",
  },
  /** Of a caller's reads in flight, how many run at once; the others wait for its own to end. */
  OABP_READ_RUNNING_PER_CALLER: {
    key: "readRunningPerCaller",
    ...int(1, 10_000, 1),
    doc:
      "of a caller's reads in flight (`OABP_READ_INFLIGHT_PER_CALLER`), how many run at once per instance; " +
      "the others wait in order for one of its own to end (static assets and health probes are not counted)",
  },
  /** Open TCP connections per client network, counted at accept (src/http/connection-cap.ts). */
  OABP_CONNECTIONS_PER_NETWORK: {
    key: "connectionsPerNetwork",
    ...int(0, 1_000_000, 256),
    doc:
      "open TCP connections per client network (IPv4 address, IPv6 `CLIENT_V6_PREFIX` (64)); past it a " +
      "new connection is closed at accept, before any HTTP; generous for clients behind NAT; 0 = off; " +
      "not applied with `OABP_TRUST_PROXY` (the proxy caps connections)",
  },
  /** Session-creating routes per client IP: POST /auth/nonce and MCP initialize. */
  OABP_RATE_LIMIT_SESSION_IP: {
    ...rate(20, 60),
    doc: "`POST /auth/nonce` and MCP `initialize` per client IP",
  },
  /** MCP sessions still in their handshake (pending) per client IP. */
  OABP_MCP_PENDING_SESSIONS_PER_IP: {
    key: "mcpPendingPerIp",
    ...int(1, 10_000, 10),
    doc: "MCP sessions still in their handshake per client IP",
  },
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

type Shape = { [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K]["schema"] };
/** The environment's schema: every setting's zod schema under its env name. */
export const EnvSchema = z.object(
  Object.fromEntries(Object.entries(SETTINGS).map(([name, s]) => [name, s.schema])) as Shape,
);
