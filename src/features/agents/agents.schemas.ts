import { z } from "@hono/zod-openapi";
import { pageQuery, pageOf, int, bool } from "../../http/wire";
import { SkillSummary } from "../mesh";
import { ImportedReputation } from "../portability";
import { CreatorRecord, SolverRecord } from "../records";

const TypeAffinity = z
  .object({ elo: z.number().int(), completions: z.number().int().min(1), last_active: z.string() })
  .openapi("MissionTypeAffinity");

const uri = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^(https:|ipfs:|ar:)/.test(u), "must be an https://, ipfs:// or ar:// URI");

// AIP-1 §1 profile metadata.
export const UpdateAgentRequest = z
  .object({
    display_name: z.string().trim().min(1).max(64).nullable().optional(),
    kind: z.enum(["human", "autonomous", "hybrid"]).nullable().optional(),
    mcp_endpoint: z
      .string()
      .max(2048)
      .url()
      .refine((u) => u.startsWith("https://"), "must be an https:// URL")
      .nullable()
      .optional(),
    capabilities: z.array(z.string().trim().min(1).max(64)).max(32).optional(),
    metadata_uri: uri.nullable().optional(),
    erc8004_agent_id: z
      .string()
      .regex(/^(0|[1-9][0-9]{0,76})$/, "must be a decimal ERC-8004 agentId")
      .nullable()
      .optional()
      .openapi({
        description:
          "Opt in to ERC-8004 feedback backed by payment (docs/erc-8004.md): your agentId in the server's identity registry, owned by (or with agentWallet) this address; null opts out",
      }),
  })
  .openapi("UpdateAgent");
export type UpdateAgentInput = z.infer<typeof UpdateAgentRequest>;

const Balance = z.object({ asset: z.string(), available: z.string(), decimals: z.number().int() });

export const Agent = z
  .object({
    agent_id: z.string(),
    display_name: z.string().nullable(),
    kind: z.string().nullable(),
    mcp_endpoint: z.string().nullable(),
    capabilities: z.array(z.string()),
    created_at: z.string().nullable(),
    metadata_uri: z.string().nullable(),
    rating: int("ELO rating at request time, decay included (AIP-1 §5)"),
    rating_updated_at: z.string().nullable(),
    missions_attempted: z.number().int(),
    missions_completed: int("Resolved missions where this agent was paid"),
    win_rate: z.number().nullable(),
    last_active_at: z.string().nullable(),
    online: bool("Seen within the last 180 s (Agent Mesh availability window)"),
    reviews: z
      .object({ count: z.number().int(), average: z.number().nullable() })
      .openapi({ description: "ClawFinder-style reviews received" }),
    aigen_balance: int(
      "AIP-1 §8 integer: available balance of the primary ledger asset (balance_asset) in base units; saturates at 2^53−1, balances[] is exact",
    ),
    balance_asset: z.string(),
    balances: z.array(Balance),
    last_seen_at: z.string().nullable(),
    registered: z.boolean(),
    imported_reputation: ImportedReputation.nullable(),
    mission_type_affinity: z.record(z.string(), TypeAffinity).openapi({
      description:
        "AIP-3 App. B per-type reputation: for each AIP-2 mission type with at least one completion, the agent's ELO in that type, its completions and last activity (docs/aip-3-4.md)",
    }),
    // The track record as a creator and as a claimer (counters, docs/decisions.md).
    creator_record: CreatorRecord,
    solver_record: SolverRecord,
    erc8004: z
      .object({
        agent_id: z.string(),
        feedback: z.array(
          z.object({
            mission_id: z.string(),
            state: z.enum(["queued", "broadcast", "confirmed", "failed"]),
            agent_registry: z.string(),
            feedback_index: z.number().int().nullable(),
            tx_hash: z.string().nullable(),
            release_tx: z.string(),
            feedback_uri: z.string(),
            feedback_hash: z.string(),
          }),
        ),
      })
      .nullable()
      .openapi({
        description:
          "ERC-8004 opt-in and the feedback entries backed by payment written for this agent's paid missions (the 20 most recent; docs/erc-8004.md)",
      }),
    skills: z.array(SkillSummary).openapi({
      description:
        "Agent Mesh: the skills this agent provides (the first 50 registered; GET /skills?agent= pages them all)",
    }),
  })
  .openapi("Agent");
export type AgentWire = z.infer<typeof Agent>;

export const AgentBalance = z
  .object({
    agent_id: z.string(),
    aigen_balance: int("AIP-1 §8 integer, base units of `asset`; balances[] is exact"),
    asset: z.string(),
    balances: z.array(Balance),
  })
  .openapi("AgentBalance");

export const HistoryQuery = z.object({
  ...pageQuery(),
});

const HistoryEntry = z.object({
  id: z.string().nullable(),
  mission_id: z.string().nullable(),
  kind: z.enum(["win", "partial", "loss", "decay", "dispute_rejected", "dispute_upheld"]),
  outcome: z.number().nullable(),
  expected: z.number().nullable(),
  k: z.number().int().nullable(),
  opponent_rating: z.number().nullable(),
  before: z.number().int(),
  after: z.number().int(),
  delta: z.number().int(),
  at: z.string(),
  pending: z.boolean().optional().openapi({ description: "Decay owed at request time, not yet written" }),
});

export const AgentHistory = pageOf("AgentHistory", {
  agent_id: z.string(),
  rating: z.number().int(),
  history: z.array(HistoryEntry),
});

// A creator's standing block-list (private to its owner).
export const BlocklistRequest = z
  .object({
    addresses: z
      .array(z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x EVM address"))
      .max(10_000)
      .openapi({ description: "The whole list (replaces the previous one); at most BLOCKLIST_MAX" }),
  })
  .strict()
  .openapi("BlocklistRequest");
export type BlocklistInput = z.infer<typeof BlocklistRequest>;

export const Blocklist = z
  .object({ agent_id: z.string(), addresses: z.array(z.string()), max: z.number().int() })
  .openapi("Blocklist", {
    description: "Addresses refused at claim and submission on every mission of this creator",
  });
export type BlocklistWire = z.infer<typeof Blocklist>;
