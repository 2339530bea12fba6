import { eq, inArray } from "drizzle-orm";
import { skillsOfAgent } from "../mesh";
import { assertNotSuspended } from "../../db/suspension";
import { agentOf, type Ctx, dbOf } from "../../lib/context";
import { agents } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import { parseAgentId } from "../../lib/agent-id";
import { agentAccount, balancesOf } from "../ledger";
import { effectiveRating, START_RATING, agentHistory, typeAffinity } from "../reputation";
import { reviewSummary } from "../reviews";
import { isOnline } from "../heartbeats";
import { agentErc8004 } from "../erc8004";
import { importedReputation, TYPE_OVERLAP_TRUST_FACTOR } from "../portability";
import { creatorRecordToWire, recordOf, solverRecordToWire } from "../records";
import type { AgentWire, UpdateAgentInput } from "./agents.schemas";

/**
 * AIP-1 §8 `"aigen_balance": <int>`: the primary ledger asset's available balance in base units,
 * as a JSON integer. Exact up to 2^53−1 base units (9·10^15: 9 billion USDC); beyond that it
 * saturates at 2^53−1, never a float. `balances[]` always has the exact base-unit string.
 */
const aigenBalance = (units: bigint): number =>
  units > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(units);

async function balances(deps: Deps, address: string) {
  const held = await balancesOf(deps.database.db, agentAccount(address));
  const list = deps.config.assets.map((a) => ({
    asset: a.symbol,
    available: (held.get(a.symbol) ?? 0n).toString(),
    decimals: a.decimals,
  }));
  // §8 aigen_balance: this server has no AIGEN token; it reports the primary (first) ledger asset.
  return { list, primary: list[0]!, aigen: aigenBalance(held.get(list[0]!.asset) ?? 0n) };
}

/** GET /agents/{id}: any well-formed address has a profile (registration is permissionless, §1). */
/** Display names of up to 100 agents (the web pages' people; unknown or unnamed agents are absent). */
export async function displayNamesOf(ctx: Ctx, addresses: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(addresses)].slice(0, 100);
  if (ids.length === 0) return new Map();
  const rows = await dbOf(ctx)
    .select({ id: agents.id, name: agents.displayName })
    .from(agents)
    .where(inArray(agents.id, ids));
  return new Map(rows.filter((r) => r.name).map((r) => [r.id, r.name!]));
}

type AgentRow = typeof agents.$inferSelect;

const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Completed over attempted, to four decimals; null before the first attempt. */
function winRate(row: AgentRow | undefined): number | null {
  if (!row || row.missionsAttempted === 0) return null;
  return Math.round((row.missionsCompleted / row.missionsAttempted) * 10_000) / 10_000;
}

/** The profile and rating fields of GET /agents/{id}; an address with no row yet has the defaults. */
function profileOf(row: AgentRow | undefined, now: Date) {
  if (!row)
    return {
      display_name: null,
      kind: null,
      mcp_endpoint: null,
      capabilities: [],
      created_at: null,
      metadata_uri: null,
      rating: START_RATING,
      rating_updated_at: null,
      missions_attempted: 0,
      missions_completed: 0,
    };
  return {
    display_name: row.displayName,
    kind: row.kind,
    mcp_endpoint: row.mcpEndpoint,
    capabilities: row.capabilities,
    created_at: row.createdAt.toISOString(),
    metadata_uri: row.metadataUri,
    rating: effectiveRating({ now }, row),
    rating_updated_at: isoOrNull(row.ratingUpdatedAt),
    missions_attempted: row.missionsAttempted,
    missions_completed: row.missionsCompleted,
  };
}

export async function getAgent(ctx: Ctx, { agentId }: { agentId: string }): Promise<AgentWire> {
  const { deps, now } = ctx;
  const id = parseAgentId(agentId);
  const [[row], bal, reviews, record, skills, affinity] = await Promise.all([
    deps.database.db.select().from(agents).where(eq(agents.id, id)),
    balances(deps, id),
    reviewSummary(deps.database.db, id),
    recordOf(deps.database.db, id),
    skillsOfAgent(deps.database.db, id),
    typeAffinity(deps.database.db, id),
  ]);
  const erc8004 = await agentErc8004(deps.database.db, row);
  const imported = await importedReputation(deps.database.db, {
    subject: id,
    now,
    missionsCompleted: row?.missionsCompleted ?? 0,
    typeOverlapTrustFactor: TYPE_OVERLAP_TRUST_FACTOR,
  });
  return {
    agent_id: id,
    ...profileOf(row, now),
    // AIP-3 App. B per-type reputation: each AIP-2 type with a completion → elo, completions, last_active.
    mission_type_affinity: affinity,
    win_rate: winRate(row),
    last_active_at: isoOrNull(row?.lastActiveAt),
    online: isOnline({ now }, row?.lastSeenAt ?? null),
    reviews,
    aigen_balance: bal.aigen,
    balance_asset: bal.primary.asset,
    balances: bal.list,
    last_seen_at: isoOrNull(row?.lastSeenAt),
    registered: row !== undefined,
    // AIP-3 §4: reputation imported from other servers, beside (never inside) the local rating.
    imported_reputation: imported,
    creator_record: creatorRecordToWire(record),
    solver_record: solverRecordToWire(record),
    erc8004,
    // Agent Mesh (docs/neighbours.md): the skills this agent provides.
    skills,
  };
}

export async function getAgentBalance(ctx: Ctx, { agentId }: { agentId: string }) {
  const id = parseAgentId(agentId);
  const bal = await balances(ctx.deps, id);
  return { agent_id: id, aigen_balance: bal.aigen, asset: bal.primary.asset, balances: bal.list };
}

/** PUT /agents/{id}: only the address itself may write its profile (fields absent stay as they are). */
export async function updateAgent(
  ctx: Ctx,
  { agentId, profile: input }: { agentId: string; profile: UpdateAgentInput },
): Promise<AgentWire> {
  const { now } = ctx;
  const caller = agentOf(ctx);
  const id = parseAgentId(agentId);
  if (caller !== id) throw new AppError("FORBIDDEN", "an agent may only edit its own profile");
  await assertNotSuspended(ctx.deps.database.db, caller, now); // docs/moderation.md "Suspension"
  const set = {
    ...(input.display_name !== undefined && { displayName: input.display_name }),
    ...(input.kind !== undefined && { kind: input.kind }),
    ...(input.mcp_endpoint !== undefined && { mcpEndpoint: input.mcp_endpoint }),
    ...(input.capabilities !== undefined && { capabilities: [...new Set(input.capabilities)] }),
    ...(input.metadata_uri !== undefined && { metadataUri: input.metadata_uri }),
    ...(input.erc8004_agent_id !== undefined && {
      erc8004AgentId: input.erc8004_agent_id,
      erc8004OptedAt: input.erc8004_agent_id === null ? null : now,
    }),
    updatedAt: now,
    lastSeenAt: now,
  };
  await dbOf(ctx)
    .insert(agents)
    .values({ id, createdAt: now, ...set })
    .onConflictDoUpdate({ target: agents.id, set });
  return getAgent(ctx, { agentId: id });
}

/** GET /agents/{id}/history (AIP-1 §5, mandatory for cross-implementation reputation reads). */
export function getAgentHistory(
  ctx: Ctx,
  { agentId, ...q }: { agentId: string; limit: number; cursor?: string | undefined },
) {
  return agentHistory(ctx, { ...q, agentId: parseAgentId(agentId) });
}
