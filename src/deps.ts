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
  /** Other values for bounds nobody tunes; absent: their constants (the server never sets it). */
  limits?: Partial<Limits>;
}

/**
 * Bounds nobody tunes (docs/configuration.md "Decisions"): each is a constant beside the code
 * that applies it, named in the comment. A test (or the bench) that must reach one passes a
 * smaller value here — an option of the app, never a setting or a module-level variable.
 */
export interface Limits {
  /** EVENTS_BUFFER (src/features/events/events.stream.ts). */
  eventsBuffer: number;
  /** EVENTS_REPLAY (src/features/events/events.hub.ts). */
  eventsReplay: number;
  /** EVENTS_POLL_MS (src/features/events/events.hub.ts). */
  eventsPollMs: number;
  /** ADP_CANDIDATE_CAP (src/features/adp/adp.discovery.ts). */
  adpCandidateCap: number;
  /** ADP_TERM_BUDGET (src/features/adp/adp.discovery.ts). */
  adpTermBudget: number;
  /** ADP_SCORED_CARDS (src/features/adp/adp.discovery.ts). */
  adpScoredCards: number;
  /** QA_MAX_PER_MISSION (src/features/qa/qa.service.ts). */
  qaMaxPerMission: number;
  /** QA_CREATOR_RESERVE (src/features/qa/qa.service.ts). */
  qaCreatorReserve: number;
  /** QA_MAX_PER_AGENT (src/features/qa/qa.service.ts). */
  qaMaxPerAgent: number;
  /** MESSAGE_MAX_PER_SUBMISSION (src/features/messages/messages.service.ts). */
  messageMaxPerSubmission: number;
  /** AMENDMENTS_MAX_PER_MISSION (src/features/amendments/amendments.service.ts). */
  amendmentsMaxPerMission: number;
  /** TOPUPS_MAX_PER_MISSION (src/features/amendments/amendments.service.ts). */
  topUpsMaxPerMission: number;
  /** DISPUTES_MAX_OPEN_PER_MISSION (src/features/disputes/disputes.bounds.ts). */
  disputesMaxOpenPerMission: number;
  /** DISPUTES_MAX_PER_MISSION (src/features/disputes/disputes.bounds.ts). */
  disputesMaxPerMission: number;
  /** CLAIM_MAX_PER_AGENT (src/features/claims/claims.service.ts). */
  claimMaxPerAgent: number;
  /** WEBHOOK_TIMEOUT_MS (src/features/webhooks/webhooks.claim.ts). */
  webhookTimeoutMs: number;
  /** WEBHOOK_HOST_CONCURRENCY (src/features/webhooks/webhooks.claim.ts). */
  webhookHostConcurrency: number;
  /** MESH_INVOKE_TIMEOUT_MS (src/features/mesh/mesh.consent.ts). */
  meshInvokeTimeoutMs: number;
}
