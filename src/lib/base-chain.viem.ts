import type { BaseRailConfig } from "../env";
import { RPC_TIMEOUT_MS, type BaseChain } from "./base-chain";
import { logReads, receiptReads, stateReads } from "./base-chain.reads";
import { railOf, signerOf } from "./base-chain.rpc";
import { payoutCalls, slotCalls } from "./base-chain.sends";
import { createRelayer } from "./relayer";

/** The base rail's port (src/lib/base-chain.ts) over one viem client: its reads, its payouts and its slot calls. */
export function createBaseChain(cfg: BaseRailConfig): BaseChain {
  const account = signerOf(cfg);
  const r = railOf(cfg, account);
  return {
    chainId: cfg.chainId,
    escrow: cfg.escrow,
    contracts: r.contracts,
    versionOf: (address) => r.versionOf(address ?? cfg.escrow) ?? cfg.escrowVersion ?? "4",
    resolver: r.resolver,
    canSign: account !== null,
    relayer: cfg.relayerKey
      ? createRelayer({
          rpcUrl: cfg.rpcUrl,
          chainId: cfg.chainId,
          key: cfg.relayerKey.reveal(),
          timeoutMs: RPC_TIMEOUT_MS,
        })
      : null,
    ...stateReads(r),
    ...receiptReads(r),
    ...logReads(r),
    ...payoutCalls(r, account),
    ...slotCalls(r),
  };
}
