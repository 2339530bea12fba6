import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pino from "pino";
import { prettyDestination } from "./lib/pretty-log";
import { openConfiguredDatabase, type Database } from "./db/client";
import type { Deps } from "./deps";
import type { Config } from "./env";
import { systemClock } from "./lib/clock";
import { createEvmPort, createOracleReader } from "./lib/evm";
import { createBaseChain } from "./lib/base-chain.viem";
import { randomToken } from "./lib/hash";
import { createSafeFetcher } from "./lib/safe-fetch";
import { userAgent } from "./lib/user-agent";
import { ResponseCache } from "./lib/response-cache";
import { startTracing } from "./lib/tracing";
import { loadOrCreateAttestationKey, signerFrom, type AttestationSigner } from "./lib/attestation-key";
import { keyringFrom, loadOrCreateKeyFile, type ReceiptKeyring } from "./lib/receipt-keys";

/** Receipt keys from config, or generated once into the data dir (0600); only public parts are logged. */
function receiptKeysFor(config: Config, logger: pino.Logger): ReceiptKeyring {
  if (config.receiptKeys) return keyringFrom(config.receiptKeys);
  const { keyring, created } = loadOrCreateKeyFile(config.dataDir, new Date());
  logger.info(
    { file: path.resolve(config.dataDir, "receipt-keys.json"), key_id: keyring.active.keyId, created },
    "receipt signing keys loaded from the data dir",
  );
  return keyring;
}

/** AIP-3 attestation key from config, or generated once into the data dir (0600); the address is public. */
function attestationSignerFor(config: Config, logger: pino.Logger): AttestationSigner {
  if (config.aip34.attestationKey) return signerFrom(config.aip34.attestationKey);
  const { signer, created, file } = loadOrCreateAttestationKey(config.dataDir, new Date());
  logger.info({ file, address: signer.address, created }, "attestation key loaded from the data dir");
  return signer;
}

/**
 * The admin token: OABP_ADMIN_TOKEN, or one generated once into <data dir>/admin-token (0600).
 * The token itself is never logged, only where it is.
 */
function adminTokenFor(config: Config, logger: pino.Logger): string {
  if (config.adminToken) return config.adminToken;
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.resolve(config.dataDir, "admin-token");
  if (!existsSync(file)) writeFileSync(file, `${randomToken(32)}\n`, { mode: 0o600 });
  logger.info({ file }, "OABP_ADMIN_TOKEN not set: using the generated token stored in this file");
  return readFileSync(file, "utf8").trim();
}

/** `opening`: the database already being opened (main.ts starts it before loading the rest). */
export async function buildDeps(config: Config, opening?: Promise<Database>): Promise<Deps> {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    base: { service: "oabp" },
    redact: ["req.headers.authorization", "*.token", "*.api_key"],
  };
  // Human lines on a terminal, JSON lines otherwise (src/lib/pretty-log.ts).
  const logger = process.stdout.isTTY ? pino(options, prettyDestination(process.stdout)) : pino(options);
  const database = await (opening ?? openConfiguredDatabase(config));
  // The mission-list cache of this instance (a plain ResponseCache): every read checks the missions
  // epoch (listFreshness), so a list is served only if no mission commit happened since it was
  // filled, whichever instance made it (docs/decisions/storage.md "Commits without NOTIFY").
  const missionLists = new ResponseCache(config.listCacheBytes);
  const chain = config.baseRail ? createBaseChain(config.baseRail) : null;
  if (chain) logger.info({ chain_id: chain.chainId, escrow: chain.escrow, resolver: chain.resolver }, "base rail on");
  else logger.info({ reason: config.baseRailOff }, "base rail off (ledger rail only)");
  const ua = userAgent(config.publicUrl); // AIP-1 §7.5.1, on every outbound request
  return {
    config,
    database,
    clock: systemClock,
    logger,
    evm: createEvmPort(config.rpcUrl, ua),
    chain,
    oracle: createOracleReader(config.rpcUrl, ua),
    adminToken: adminTokenFor(config, logger),
    missionLists,
    receiptKeys: receiptKeysFor(config, logger),
    attestation: attestationSignerFor(config, logger),
    tracing: await startTracing(config.tracesExporter),
    fetcher: createSafeFetcher({
      ipfsGateway: config.ipfsGateway,
      arweaveGateway: config.arweaveGateway,
      // Time, size and per-host caps: the fetcher's own (SAFE_FETCH_DEFAULTS, docs/abuse.md).
      userAgent: ua,
      dns: { servers: config.abuse.dnsServers },
      now: () => systemClock.now().getTime(),
    }),
  };
}
