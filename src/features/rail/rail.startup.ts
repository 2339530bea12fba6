import { and, eq, inArray, isNotNull, isNull, notInArray, sql } from "drizzle-orm";
import { chainPayouts, escrowDeposits } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { BaseRailConfig, Config } from "../../env";
import { RpcUnavailableError, type BaseChain, type EscrowState } from "../../lib/base-chain";

// Start-up checks of the base rail (docs/base-rail.md "Start-up checks"). A chain that disagrees
// with the configuration (chain id, no code, fee cap, treasury) stops the process with a message
// naming the setting. An unreachable RPC or a resolver without RESOLVER_ROLE is a condition, not
// a configuration error: the process starts with the rail marked unavailable and checks again in
// the background (rail.status.ts, docs/base-rail.md "Degrade, never exit").

export class BaseRailMisconfigured extends Error {
  constructor(
    readonly problems: string[],
    /** rpc_unavailable and resolver_role_missing degrade the rail; misconfigured stops start-up. */
    readonly kind: RailProblem = "misconfigured",
  ) {
    super(`base rail misconfigured:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "BaseRailMisconfigured";
  }
}

export type RailProblem = "rpc_unavailable" | "resolver_role_missing" | "misconfigured";

/** Throws BaseRailMisconfigured (with its kind) for the first class of problem found. */
export async function checkBaseRail(chain: BaseChain, config: Config): Promise<void> {
  const rail = config.baseRail;
  if (!rail) throw new BaseRailMisconfigured(["OABP_RPC_URL: the base rail is not configured"]);
  const rpcChain = await answered(() => chain.rpcChainId(), true);
  if (rpcChain !== rail.chainId)
    throw new BaseRailMisconfigured([
      `OABP_CHAIN_ID: configured ${rail.chainId}, but the RPC at OABP_RPC_URL serves chain ${rpcChain}`,
    ]);
  const state = await answered(() => chain.escrowState(), false);
  if (!state.hasCode)
    throw new BaseRailMisconfigured([
      `OABP_ESCROW_ADDRESS: no contract code at ${rail.escrow} on chain ${rail.chainId}`,
    ]);
  const problems = stateProblems(state, config, rail);
  if (!state.resolverHasRole) {
    problems.push(
      `${rail.resolverKey ? "OABP_RESOLVER_KEY" : "OABP_RESOLVER_ADDRESS"}: ${chain.resolver} does not hold RESOLVER_ROLE on the escrow ${rail.escrow} (or the contract is not a MissionEscrow)`,
    );
    // The role alone is missing (revoked: step one of a key rotation): a waiting state.
    if (problems.length === 1 && state.feeCapBps > 0)
      throw new BaseRailMisconfigured(problems, "resolver_role_missing");
  }
  if (problems.length) throw new BaseRailMisconfigured(problems);
}

/**
 * A chain read of the checks; an RPC that does not answer is `rpc_unavailable` (with `anyError`,
 * whatever the failure: the first call tells whether the RPC is there at all).
 */
async function answered<T>(read: () => Promise<T>, anyError: boolean): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!anyError && !(err instanceof RpcUnavailableError)) throw err;
    const why = err instanceof RpcUnavailableError ? err.message : String(err);
    throw new BaseRailMisconfigured([`OABP_RPC_URL: the RPC does not answer (${why})`], "rpc_unavailable");
  }
}

/** The escrow's fee cap and treasury against the configuration. */
function stateProblems(state: EscrowState, config: Config, rail: BaseRailConfig): string[] {
  const problems: string[] = [];
  if (state.feeCapBps < config.feeBps) {
    problems.push(
      `OABP_FEE_BPS: ${config.feeBps} bps exceeds the escrow's fee cap of ${state.feeCapBps} bps: every release would revert FeeTooHigh`,
    );
  }
  if (rail.treasury && state.treasury && rail.treasury !== state.treasury) {
    problems.push(`OABP_TREASURY_ADDRESS: configured ${rail.treasury}, but the escrow pays fees to ${state.treasury}`);
  }
  return problems;
}

/**
 * Contracts that still hold this server's slots but that the configuration forgets (neither
 * OABP_ESCROW_ADDRESS nor OABP_ESCROW_RETIRED): a live deposit there, not taken back, without a
 * mined payout. Each is a message naming the address and the fix; start-up stops on any
 * (docs/base-rail.md "Migrating to a new escrow": the server pays a slot only from a followed contract).
 */
export async function forgottenContracts(deps: Deps): Promise<string[]> {
  const chain = deps.chain;
  if (!chain) return [];
  const followed = chain.contracts.map((c) => c.address.toLowerCase());
  const rows = await deps.database.db
    .select({
      contract: escrowDeposits.escrowAddress,
      slots: sql<number>`count(*)::int`,
      first: sql<number>`min(${escrowDeposits.blockNumber})::bigint`,
    })
    .from(escrowDeposits)
    .where(
      and(
        eq(escrowDeposits.chainId, chain.chainId),
        isNotNull(escrowDeposits.escrowAddress),
        notInArray(escrowDeposits.escrowAddress, followed),
        inArray(escrowDeposits.status, ["pending", "confirmed", "final"]),
        isNull(escrowDeposits.exitedBy),
        sql`not exists (select 1 from ${chainPayouts} p where p.deposit_id = ${escrowDeposits.id} and p.state in ('confirmed', 'final'))`,
      ),
    )
    .groupBy(escrowDeposits.escrowAddress);
  return rows.map(
    (r) =>
      `OABP_ESCROW_RETIRED: the escrow ${r.contract} still holds ${r.slots} slot(s) of this server, but it is neither OABP_ESCROW_ADDRESS nor in OABP_ESCROW_RETIRED; add {"address":"${r.contract}","start_block":${Number(r.first)},"version":"<2|3>"} to OABP_ESCROW_RETIRED (docs/base-rail.md "Migrating to a new escrow")`,
  );
}
