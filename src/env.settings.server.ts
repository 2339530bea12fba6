import { z } from "zod";
import {
  AssetSchema,
  OracleSchema,
  RegistrySchema,
  csvInts,
  flagDefault,
  int,
  jsonOf,
  type Setting,
} from "./env.settings.schemas";

/** The process, the database, the public identity and sessions. One part of the settings table; src/env.settings.ts joins the parts, in this order, as SETTINGS. */
export const SERVER_SETTINGS = {
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
} as const satisfies Record<string, Setting>;
