import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import type { z } from "zod";
import { checkPublicAddress } from "./lib/ip-policy";
import { EnvSchema, SETTINGS, privateKey, type AssetConfig, type ChainDepth, type RatePolicy } from "./env.settings";

export type { AssetConfig, ChainDepth, RatePolicy } from "./env.settings";
// The only reader of process.env (docs/style.md "Env once"). Every setting has a default that makes
// `npm start` work on the embedded database; a bad value stops start-up with a clear message.
// The settings themselves (schema, default, doc, Config property) are one table: env.settings.ts.

const DEFAULT_ASSETS: AssetConfig[] = [
  {
    symbol: "USDC",
    decimals: 6,
    spam_fee: "5000000", // 5 USDC: the spec RECOMMENDS >= 5 protocol-token units
    usd_price: 1,
    addresses: { base: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
  },
];

/** USDC per Base chain (docs/design.md "Escrow and settlement"): the preset when OABP_ASSETS is unset. */
const USDC_BY_CHAIN: Record<number, string> = {
  8453: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  84532: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
};

/**
 * A secret that never prints: JSON.stringify, util.inspect and template strings all show
 * "[redacted]", so a config object that reaches a log line leaks nothing.
 */
class Secret {
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

type Settings = typeof SETTINGS;
type Env = z.infer<typeof EnvSchema>;
type KeyOf<K extends keyof Settings> = Settings[K] extends { key: infer C extends string } ? C : never;
/** Settings that fill a top-level Config property as parsed. */
type Flat = {
  -readonly [K in keyof Settings as KeyOf<K> extends `${string}.${string}` ? never : KeyOf<K>]: Env[K];
};
/** Settings that fill a property of the Config group `G`. */
type Group<G extends string> = {
  -readonly [K in keyof Settings as Settings[K] extends { key: `${G}.${infer C}` } ? C : never]: Env[K];
};

/** Config properties derived from several settings (or from none as parsed), built in parseEnv. */
interface Derived {
  /** postgres.js `prepare` on the query pool. */
  databasePrepare: boolean;
  databasePipeline: boolean;
  publicUrl: string;
  assets: AssetConfig[];
  /** The base rail (AIP-1 §6 on-chain escrow); off (null) unless RPC, escrow and resolver key are all set. */
  baseRail: BaseRailConfig | null;
  /** Why the base rail is off, for the manifest and the start-up log; null when it is on. */
  baseRailOff: string | null;
  /** ERC-8004 feedback backed by payment (docs/erc-8004.md); off (null) unless the base rail and all three settings are set. */
  erc8004: Erc8004Config | null;
  /** Default appeal of creator_judges awards (null: off). */
  defaultAppeal: { windowSeconds: number } | null;
  oracleWindowSeconds: number;
  /** RFC 9116 Contact lines of /.well-known/security.txt. */
  securityContact: string[];
  /** §9 manifest contact. */
  contact: string;
  /** Shared token buckets (null: off). */
  rateLimits: { writeIp: RatePolicy; writeAgent: RatePolicy; writeNetAgents: RatePolicy; sessionIp: RatePolicy } | null;
}

/** AIP-3 reputation portability and AIP-4 disputes (docs/aip-3-4.md). */
type Aip34Config = Group<"aip34">;
/** Verification pipeline, default outcomes and bounded responses (docs/abuse.md). */
type AbuseConfig = Group<"abuse">;
type OadpConfig = Group<"oadp">;

type Simplify<T> = { [K in keyof T]: T[K] };
/** Everything the process is configured with: parsed once at start-up, passed down in deps. */
export type Config = Simplify<Flat & { aip34: Aip34Config; abuse: AbuseConfig; oadp: OadpConfig } & Derived>;

export interface BaseRailConfig {
  rpcUrl: string;
  chainId: number;
  escrow: string; // lower-case
  /** OABP_ESCROW_VERSION: how the configured escrow is called. */
  escrowVersion: "2" | "3" | "4";
  /** Retired contracts still holding slots (OABP_ESCROW_RETIRED), lower-case addresses. */
  retired: { address: string; startBlock: number; version: "2" | "3" | "4" }[];
  /** null: this process never signs (settlement runs in `npm run worker`). */
  resolverKey: Secret | null;
  /** The resolver's address (from the key, or OABP_RESOLVER_ADDRESS), lower-case; null: derive it from the key. */
  resolverAddress: string | null;
  /** A remote signer holding the resolver key (eth_signTransaction; docs/base-rail.md "Resolver signer"); null: local key or none. */
  signerUrl: string | null;
  /** The relayer key (OABP_RELAYER_KEY; docs/payments.md): x402 settlement and funding relays; null: off. */
  relayerKey: Secret | null;
  treasury: string | undefined;
  confirmations: ChainDepth;
  finality: ChainDepth;
  startBlock: number | undefined;
  pollMs: number;
}

export interface Erc8004Config {
  /** Lower-case addresses on the base rail's chain. */
  identityRegistry: string;
  reputationRegistry: string;
  reporterKey: Secret;
}

/** ERC-8004 feedback: on when the base rail and all three OABP_ERC8004_* settings are set. */
function erc8004From(e: Env, rail: BaseRailConfig | null): Erc8004Config | null {
  const identity = e.OABP_ERC8004_IDENTITY_REGISTRY;
  const reputation = e.OABP_ERC8004_REPUTATION_REGISTRY;
  const key = e.OABP_ERC8004_REPORTER_KEY;
  if (!rail || !identity || !reputation || !key) return null;
  return {
    identityRegistry: identity.toLowerCase(),
    reputationRegistry: reputation.toLowerCase(),
    reporterKey: new Secret(key),
  };
}

/** The resolver key, from OABP_RESOLVER_KEY or the file OABP_RESOLVER_KEY_FILE names (never both). */
function resolverKeyFrom(e: Env, readFile: (path: string) => string): string | undefined {
  if (e.OABP_RESOLVER_KEY && e.OABP_RESOLVER_KEY_FILE)
    throw new Error(
      "Invalid configuration:\n  OABP_RESOLVER_KEY_FILE: set either OABP_RESOLVER_KEY or OABP_RESOLVER_KEY_FILE, not both",
    );
  if (!e.OABP_RESOLVER_KEY_FILE) return e.OABP_RESOLVER_KEY;
  let text: string;
  try {
    text = readFile(e.OABP_RESOLVER_KEY_FILE);
  } catch (err) {
    const code = err instanceof Error && "code" in err ? String(err.code) : "error";
    throw new Error(`Invalid configuration:\n  OABP_RESOLVER_KEY_FILE: cannot read it (${code})`);
  }
  const parsed = privateKey.safeParse(text);
  // The message never echoes the file's content.
  if (!parsed.success)
    throw new Error(
      "Invalid configuration:\n  OABP_RESOLVER_KEY_FILE: must hold a 0x-prefixed 32-byte hex private key",
    );
  return parsed.data;
}

function baseRailFrom(e: Env, readFile: (path: string) => string): { rail: BaseRailConfig | null; off: string | null } {
  const key = resolverKeyFrom(e, readFile);
  if (!e.OABP_RPC_URL) return { rail: null, off: "no_rpc_url" };
  if (!e.OABP_ESCROW_ADDRESS) return { rail: null, off: "no_escrow_address" };
  if (!key && !e.OABP_RESOLVER_ADDRESS) return { rail: null, off: "no_resolver_key" };
  if (e.OABP_RESOLVER_SIGNER_URL && (key || !e.OABP_RESOLVER_ADDRESS))
    throw new Error(
      "Invalid configuration:\n  OABP_RESOLVER_SIGNER_URL: give OABP_RESOLVER_ADDRESS with it, and no resolver key",
    );
  const escrow = e.OABP_ESCROW_ADDRESS.toLowerCase();
  return {
    off: null,
    rail: {
      rpcUrl: e.OABP_RPC_URL,
      chainId: e.OABP_CHAIN_ID,
      escrow,
      escrowVersion: e.OABP_ESCROW_VERSION,
      retired: e.OABP_ESCROW_RETIRED.filter((r) => r.address !== escrow).map((r) => ({
        address: r.address,
        startBlock: r.start_block,
        version: r.version,
      })),
      resolverKey: key ? new Secret(key) : null,
      resolverAddress: e.OABP_RESOLVER_ADDRESS?.toLowerCase() ?? null,
      signerUrl: e.OABP_RESOLVER_SIGNER_URL ?? null,
      relayerKey: e.OABP_RELAYER_KEY ? new Secret(e.OABP_RELAYER_KEY) : null,
      treasury: e.OABP_TREASURY_ADDRESS?.toLowerCase(),
      confirmations: e.OABP_CONFIRMATIONS,
      finality: e.OABP_FINALITY,
      startBlock: e.OABP_ESCROW_START_BLOCK,
      pollMs: e.OABP_CHAIN_POLL_MS,
    },
  };
}

/** The default asset list: USDC with its address on the configured Base chain, if it has one. */
function defaultAssets(chainId: number): AssetConfig[] {
  const usdc = USDC_BY_CHAIN[chainId];
  const addresses: Record<string, string> = usdc ? { base: usdc } : {};
  return DEFAULT_ASSETS.map((a) => ({ ...a, addresses }));
}

export function parseEnv(
  source: Record<string, string | undefined>,
  readFile: (path: string) => string = (p) => readFileSync(p, "utf8"),
): Config {
  // Empty strings mean "unset" (docker-compose passes FOO= for unset variables).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL)
    throw new Error(
      "Invalid configuration:\n  DATABASE_DIRECT_URL: set only together with DATABASE_URL (the pooled URL)",
    );
  const { rail: baseRail, off: baseRailOff } = baseRailFrom(e, readFile);
  const publicUrl = (e.OABP_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  checkMeshPrivateNetwork(e, publicUrl);
  const derived: Derived = {
    // Named prepared statements and pipelining: off behind a transaction-mode pooler (DATABASE_DIRECT_URL
    // set): PgBouncer < 1.21 mixes prepared statements up across clients, and such a pooler can lose a
    // pipelined query's reply (src/db/unpipelined.ts).
    databasePrepare: !e.DATABASE_DIRECT_URL,
    databasePipeline: !e.DATABASE_DIRECT_URL,
    publicUrl,
    assets: e.OABP_ASSETS ?? defaultAssets(e.OABP_CHAIN_ID),
    baseRail,
    baseRailOff,
    erc8004: erc8004From(e, baseRail),
    defaultAppeal: e.OABP_APPEAL_DEFAULT === "on" ? { windowSeconds: e.OABP_APPEAL_WINDOW_SECONDS } : null,
    oracleWindowSeconds: e.OABP_ORACLE_WINDOW_SECONDS ?? e.OABP_JUDGING_WINDOW_SECONDS,
    securityContact: e.OABP_SECURITY_CONTACT ?? [`mailto:security@${new URL(publicUrl).hostname}`],
    contact: e.OABP_CONTACT ?? `mailto:admin@${new URL(publicUrl).hostname}`,
    rateLimits:
      e.OABP_RATE_LIMIT_ENABLED === "true"
        ? {
            writeIp: e.OABP_RATE_LIMIT_WRITE_IP,
            writeAgent: e.OABP_RATE_LIMIT_WRITE_AGENT,
            writeNetAgents: e.OABP_RATE_LIMIT_WRITE_NET_AGENTS,
            sessionIp: e.OABP_RATE_LIMIT_SESSION_IP,
          }
        : null,
  };
  return { ...keyed(e), ...derived };
}

/** Names under these are never public (RFC 6761, RFC 8375, and the usual LAN suffixes). */
const PRIVATE_SUFFIXES = ["local", "lan", "internal", "home.arpa", "test", "localhost", "intranet"];

/** Whether a server at `publicUrl` is on a private network: a non-public literal, a one-label name or a LAN suffix. */
function isPrivateServer(publicUrl: string): boolean {
  const host = new URL(publicUrl).hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
  if (isIP(host) !== 0) return !checkPublicAddress(host).ok;
  return !host.includes(".") || PRIVATE_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`));
}

/**
 * Agent Mesh private-network mode (docs/neighbours.md "Private network"): only on a server whose
 * public URL is private, and only with the mesh's shared key, which means nothing without it.
 */
function checkMeshPrivateNetwork(e: Env, publicUrl: string): void {
  const bad = (line: string) => new Error(`Invalid configuration:\n  ${line}`);
  if (!e.OABP_MESH_PRIVATE_NETWORK) {
    if (e.OABP_MESH_SHARED_KEY)
      throw bad("OABP_MESH_SHARED_KEY: a shared key is accepted only with OABP_MESH_PRIVATE_NETWORK=true");
    return;
  }
  if (!isPrivateServer(publicUrl))
    throw bad(
      `OABP_MESH_PRIVATE_NETWORK: refused on a public server (OABP_PUBLIC_URL ${publicUrl} is public); private-network mode is for a mesh on a LAN (docs/neighbours.md "Private network")`,
    );
  if (!e.OABP_MESH_SHARED_KEY)
    throw bad("OABP_MESH_SHARED_KEY: required with OABP_MESH_PRIVATE_NETWORK=true (the mesh's shared X-API-Key)");
}

/** Every setting with a `key`, as parsed, at its Config property (groups as nested objects). */
function keyed(e: Env): Omit<Config, keyof Derived> {
  const out: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(SETTINGS)) {
    if (!("key" in setting)) continue;
    const [group, prop] = setting.key.split(".");
    const value: unknown = Object.getOwnPropertyDescriptor(e, name)?.value;
    if (group === undefined) continue;
    if (prop === undefined) out[group] = value;
    else Object.assign((out[group] ??= {}), { [prop]: value });
  }
  // The shape follows from the table by construction; the types above spell it out.
  return out as Omit<Config, keyof Derived>;
}

/** Reads process.env once, at start-up. */
export function loadEnv(): Config {
  return parseEnv(process.env);
}
