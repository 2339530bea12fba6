import { MIN_REWARD_USD, minRewardBaseUnits } from "../../lib/money";
import type { Deps } from "../../deps";
import type { Config } from "../../env";
import type { ReceiptKeyring } from "../../lib/receipt-keys";
import { aipFields } from "./manifest.aips";
import { PROTOCOL_VERSIONS } from "../agent-card";
import pkg from "../../../package.json" with { type: "json" };
import { cachedTreasuryHealth, type TreasuryHealth } from "../escrow";
import { railStatus, type RailStatus } from "../rail";
import { AGENT_CARD_PATHS, MCP_PATH, mcpManifestObject } from "../../lib/mcp-contract";
import { clientManifestObject, clientPackage } from "../../lib/client-package";
import { MISSION_AUDIENCES, REPORT_REASONS, VERIFICATION_TYPES } from "../../db/vocabulary";
import { DISCOVERY_ENDPOINTS, REGISTRY_AUTH_PATH } from "../../lib/discovery-paths";
import { AMENDMENT_MAX_EXTENSION_SECONDS, AMENDMENTS_MAX_PER_MISSION } from "../amendments";
import { BLOCKLIST_MAX, ELIGIBILITY_LIST_MAX } from "../../db/schema/index";

// AIP-1 §9: /.well-known/oabp.json, every field, endpoint values as relative paths. The `mcp`
// object (§7.1 + §7.1.1) comes from the MCP feature's contract, the same constants its transport
// answers with.

const RECEIPT_ENDPOINT_TEMPLATE = "/missions/{mission_id}/receipts/{submission_id}";

interface ManifestInput {
  config: Config;
  /** The bounds a test set instead of their constants (Deps.limits). */
  limits?: Deps["limits"];
  keyring: ReceiptKeyring;
  issuerAddress?: string;
  railState?: RailStatus | null;
  /** Defaults to "ok" with a base rail, "not_applicable" without. */
  health?: TreasuryHealth;
}

export function buildManifest(input: ManifestInput) {
  const { config, keyring, issuerAddress = "" } = input;
  const health = input.health ?? (config.baseRail ? "ok" : "not_applicable");
  // Ledger is always available; the base rail only with RPC, escrow contract and resolver key.
  const rail = config.baseRail;
  return {
    implementation: pkg.name,
    version: pkg.version,
    ...aipFields(config, issuerAddress),
    // AIP-2 §7 conformance levels (also on the agent card, where AIP-2 asks for them).
    protocol_versions: PROTOCOL_VERSIONS,
    chain: rail ? "base" : "off-chain",
    // AIP-4 §8.2: ok | low_gas (base-rail submissions paused) | not_applicable (no base rail).
    treasury_health: health,
    contact: config.contact,
    endpoints: endpoints(config),
    mcp: mcpManifestObject(),
    // How a posted mission may change.
    amendments: {
      kinds: ["extend_deadline", "top_up", "edit"],
      max_extension_seconds: AMENDMENT_MAX_EXTENSION_SECONDS,
      max_per_mission: input.limits?.amendmentsMaxPerMission ?? AMENDMENTS_MAX_PER_MISSION,
      top_up_by: config.topUpByAnyone ? "anyone" : "creator",
      edit_until: "first_submission",
      event: "mission.amended",
    },
    payment_options: paymentOptions(config, input.railState ?? null),
    // `oracle` only where an oracle mission can be decided: with an RPC node (docs/aip-1-2.md §4.4).
    verification_types: VERIFICATION_TYPES.filter((t) => t !== "oracle" || config.rpcUrl !== undefined),
    fee_bps: config.feeBps,
    registries: config.registries.map((r) => ({ domain: r.domain, signer: r.signer })),
    receipt_signing_keys: keyring.published,
    receipt_endpoint_template: RECEIPT_ENDPOINT_TEMPLATE,
    ...extensionFields(config),
    // The packed @oabp/client this server serves (docs/client-install.md); absent when not built.
    client: clientManifestObject(clientPackage()),
  };
}
export type Manifest = ReturnType<typeof buildManifest>;

/** AIP-1 §9 `endpoints`: relative paths. */
function endpoints(config: Config) {
  return {
    missions: "/missions",
    mission: "/missions/{id}",
    agents: "/agents",
    agent: "/agents/{id}",
    agent_badge: "/agents/{id}/badge.svg",
    leaderboard: "/leaderboard",
    feed: "/feed.xml",
    sitemap: "/sitemap.xml",
    openapi: "/openapi.json",
    receipt_verify: "/receipts/verify",
    // Subscriptions (POST/GET); absent when OABP_WEBHOOKS_ENABLED=false.
    ...(config.webhooksEnabled && { webhooks: "/webhooks" }),
    claims: "/missions/{id}/claims",
    // A creator's block-list (owner only); per-mission `eligibility` on missions.
    agent_blocklist: "/agents/{id}/blocklist",
    // POST an amendment (extend_deadline, top_up, edit), GET the public log.
    amendments: "/missions/{id}/amendments",
    // Live events: public SSE stream and the signed-in agent's inbox, from the outbox.
    events: "/events",
    inbox: "/agents/me/inbox",
    mission_types: "/missions/types",
    ...(config.oadp.pingEnabled && { ping: "/ping" }),
    adp_agent_card: "/.well-known/adp-agent-card.json",
    adp_discover: "/adp/adp.discover",
    mcp: MCP_PATH,
    agent_card: AGENT_CARD_PATHS[0],
    // Discovery documents for crawlers and catalogues (docs/discovery.md).
    ...DISCOVERY_ENDPOINTS,
    ...(config.mcpRegistryPublicKey !== undefined && { mcp_registry_auth: REGISTRY_AUTH_PATH }),
    // AIP-3 §2.2, §4.1, §6, §10.3 and AIP-4 §2.
    reputation_attestation: "/reputation/{address}/attestation",
    reputation_import: "/reputation/import",
    reputation_trusted_issuers: "/reputation/trusted-issuers",
    submission: "/submissions/{id}",
    submission_receipt: "/api/submissions/{id}/receipt",
    disputes: "/api/disputes",
    // Moderation (docs/moderation.md): signed-in agents report a mission to the operator.
    mission_reports: "/missions/{id}/reports",
    // The public Q&A thread of a mission and private messages about a submission.
    mission_questions: "/missions/{id}/questions",
    mission_clarifications: "/missions/{id}/clarifications",
    submission_messages: "/missions/{id}/submissions/{sid}/messages",
    messages_inbox: "/messages/inbox",
    messages_sent: "/messages/sent",
    // Public proof of escrow (AIP-1 §6), its payouts feed, directory counters; the
    // operator's Prometheus scrape (admin token or OABP_METRICS_TOKEN) unless disabled.
    transparency: "/transparency",
    transparency_payouts: "/transparency/payouts",
    transparency_payouts_atom: "/transparency/payouts.atom",
    stats: "/stats",
    ...(config.metricsEnabled && { metrics: "/metrics" }),
  };
}

/** AIP-1 §6 `payment_options`: the ledger rail always, the base rail when configured. */
function paymentOptions(config: Config, railState: RailStatus | null) {
  const rail = config.baseRail;
  // AIP-1 §9: `chains` names EVM chains only; the off-chain ledger rail is described apart (`ledger`).
  const chains = rail ? ["base"] : [];
  const depth = (d: NonNullable<typeof rail>["confirmations"]) => (d.kind === "tag" ? d.tag : `${d.blocks}_blocks`);
  return {
    assets: config.assets.map((a) => a.symbol),
    chains,
    // The floor createMission applies before any fee (src/lib/money.ts MIN_REWARD_USD).
    min_reward_usd: MIN_REWARD_USD,
    // What a face needs to read and write amounts in whole units (an extension of §9): each
    // asset's decimals, its spam fee (kept even after a void) and minimum reward, in base units.
    asset_units: config.assets.map((a) => ({
      symbol: a.symbol,
      decimals: a.decimals,
      spam_fee: a.spam_fee,
      min_reward: minRewardBaseUnits(a)?.toString() ?? null,
    })),
    // The ledger rail: off-chain custody with a hash-chained ledger and a signed escrow
    // attestation (AIP-1 §6 "off-chain with provable balance"); every asset, always on.
    ledger: {
      enabled: true,
      assets: config.assets.map((a) => a.symbol),
      escrow_attestation: "/escrow/attestation",
      mission_escrow: "/missions/{id}/escrow",
    },
    // AIP-1 §6: where rewards are escrowed. The base rail says plainly when it is off, and why.
    base: rail
      ? {
          enabled: true,
          // docs/base-rail.md "Degrade, never exit": on, but unreachable or without its role for now.
          available: railState?.available ?? true,
          unavailable_reason: railState?.available === false ? railState.reason : null,
          unavailable_detail: railState?.available === false ? railState.detail : null,
          chain_id: rail.chainId,
          escrow_contract: rail.escrow,
          assets: config.assets
            .filter((a) => a.addresses.base)
            .map((a) => ({
              symbol: a.symbol,
              token: a.addresses.base!.toLowerCase(),
              decimals: a.decimals,
              spam_fee: a.spam_fee,
            })),
          confirmations: depth(rail.confirmations),
          finality: depth(rail.finality),
          attach_endpoint: "/missions/{id}/escrow",
        }
      : { enabled: false, off_reason: config.baseRailOff },
  };
}

/** Moderation, track record and eligibility: surfaces outside AIP-1. */
function extensionFields(config: Config) {
  return {
    // Surfaces outside AIP-1, named so clients can find them (specs/AIP-1/profile.md).
    extensions: {
      moderation: {
        reports: "/missions/{id}/reports",
        report_reasons: [...REPORT_REASONS],
        // off | allow_list | min_rating: who may post missions here.
        posting_gate: config.postingGate,
        ...(config.postingGate === "min_rating" && { posting_min_rating: config.postingMinRating }),
      },
    },
    //
    track_record: {
      agent_fields: ["creator_record", "solver_record"],
      mission_field: "creator_record",
      list_filters: ["creator_min_paid_ratio", "creator_max_never_judged"],
      median_award_delay_window: 64,
    },
    eligibility: {
      mission_field: "eligibility",
      rules: ["min_rating", "min_completed", "allow", "block", "audience"],
      audiences: [...MISSION_AUDIENCES],
      enforced_at: ["claim", "commitment", "submission"],
      list_max: ELIGIBILITY_LIST_MAX,
      creator_blocklist: "/agents/{id}/blocklist",
      creator_blocklist_max: BLOCKLIST_MAX,
    },
  };
}

// Built once per keyring (a rotation means a restart, or a test swapping deps.receiptKeys) and
// base-rail state (available, or unavailable for a reason).
const cache = new WeakMap<ReceiptKeyring, { object: Manifest; bytes: string; rail: string }>();
function cached(deps: Deps) {
  const state = railStatus(deps);
  const health = cachedTreasuryHealth(deps);
  const railKey = state ? `${state.available}:${state.reason}:${state.detail}:${health}` : "off";
  let hit = cache.get(deps.receiptKeys);
  if (!hit || hit.rail !== railKey) {
    const object = buildManifest({
      config: deps.config,
      limits: deps.limits,
      keyring: deps.receiptKeys,
      issuerAddress: deps.attestation.address,
      railState: state,
      health,
    });
    hit = { object, bytes: JSON.stringify(object, null, 2), rail: railKey };
    cache.set(deps.receiptKeys, hit);
  }
  return hit;
}

export const manifestObject = (deps: Deps): Manifest => cached(deps).object;
/** The exact bytes served at both /.well-known/oabp.json and /.well-known/agent-bounty.json. */
export const manifestBytes = (deps: Deps): string => cached(deps).bytes;
