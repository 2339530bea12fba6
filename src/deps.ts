import type { Logger } from "pino";
import type { Database } from "./db/client";
import type { Config } from "./env";
import type { Clock } from "./lib/clock";
import type { EvmPort, OracleReader } from "./lib/evm";
import type { BaseChain } from "./lib/base-chain";
import type { ResponseCache } from "./lib/response-cache";
import type { SafeFetcher } from "./lib/safe-fetch";
import type { ReceiptKeyring } from "./lib/receipt-keys";
import type { AttestationSigner } from "./lib/attestation-key";
import type { Tracing } from "./lib/tracing";

/** Everything a request or job needs, built once in main.ts (or by a test). */
export interface Deps {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  evm: EvmPort;
  /** Reads oracle contracts (AIP-1 §4.4) through OABP_RPC_URL; answers no_rpc without one. */
  oracle: OracleReader;
  /** Serialized GET /missions pages, dropped on every committed change to missions. */
  missionLists: ResponseCache;
  /** SSRF-safe fetcher for every user-supplied URL (content_uri, predicate_uri). */
  fetcher: SafeFetcher;
  /** The base rail's chain port (escrow deposits, payouts); null when the rail is off. */
  chain: BaseChain | null;
  /** The admin bearer token in force (configured, or generated into the data dir). */
  adminToken: string | undefined;
  /** Receipt signing keys (AIP-1 §6.1): OABP_RECEIPT_KEYS, or <data dir>/receipt-keys.json. */
  receiptKeys: ReceiptKeyring;
  /** AIP-3 attestation and §10 receipt key (secp256k1): OABP_ATTESTATION_KEY, or <data dir>/attestation-key.json. */
  attestation: AttestationSigner;
  /** OpenTelemetry traces (OTEL_TRACES_EXPORTER); null or absent when off (no SDK loaded). */
  tracing?: Tracing | null;
}
