import type { Config } from "../../env";
import { RpcUnavailableError, type BaseChain } from "../../lib/base-chain";

// Start-up checks of the base rail (docs/base-rail.md "Start-up checks"): a process with the rail
// on refuses to start when the chain disagrees with its configuration — each message names the
// setting — rather than discovering it later as failing payouts.

export class BaseRailMisconfigured extends Error {
  constructor(readonly problems: string[]) {
    super(`base rail misconfigured:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "BaseRailMisconfigured";
  }
}

export async function checkBaseRail(chain: BaseChain, config: Config): Promise<void> {
  const rail = config.baseRail!;
  let rpcChain: number;
  try {
    rpcChain = await chain.rpcChainId();
  } catch (err) {
    const why = err instanceof RpcUnavailableError ? err.message : String(err);
    throw new BaseRailMisconfigured([`OABP_RPC_URL: the RPC does not answer (${why})`]);
  }
  if (rpcChain !== rail.chainId)
    throw new BaseRailMisconfigured([
      `OABP_CHAIN_ID: configured ${rail.chainId}, but the RPC at OABP_RPC_URL serves chain ${rpcChain}`,
    ]);
  const state = await chain.escrowState();
  if (!state.hasCode)
    throw new BaseRailMisconfigured([
      `OABP_ESCROW_ADDRESS: no contract code at ${rail.escrow} on chain ${rail.chainId}`,
    ]);
  const problems: string[] = [];
  if (!state.resolverHasRole) {
    problems.push(
      `${rail.resolverKey ? "OABP_RESOLVER_KEY" : "OABP_RESOLVER_ADDRESS"}: ${chain.resolver} does not hold RESOLVER_ROLE on the escrow ${rail.escrow} (or the contract is not a MissionEscrow)`,
    );
  }
  if (state.feeCapBps < config.feeBps) {
    problems.push(
      `OABP_FEE_BPS: ${config.feeBps} bps exceeds the escrow's fee cap of ${state.feeCapBps} bps: every release would revert FeeTooHigh`,
    );
  }
  if (rail.treasury && state.treasury && rail.treasury !== state.treasury) {
    problems.push(`OABP_TREASURY_ADDRESS: configured ${rail.treasury}, but the escrow pays fees to ${state.treasury}`);
  }
  if (problems.length) throw new BaseRailMisconfigured(problems);
}
