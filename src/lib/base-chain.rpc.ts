import {
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  createPublicClient,
  encodeFunctionData,
  http,
  isAddress,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import type { BaseRailConfig } from "../env";
import { missionEscrowAbi } from "./abi/mission-escrow";
import { missionEscrowV3Abi } from "./abi/mission-escrow-v3";
import { missionEscrowV2Abi } from "./abi/mission-escrow-v2";
import {
  RPC_TIMEOUT_MS,
  RpcUnavailableError,
  type EscrowCall,
  type EscrowContract,
  type EscrowVersion,
} from "./base-chain";
import { revertOf } from "./chain-errors";
import { processMetrics } from "./metrics";
import { localSigner, remoteSigner, type ResolverSigner } from "./resolver-signer";

// The parts of the base rail's port (src/lib/base-chain.ts) share one viem client and these helpers.

/** What the parts of the port share: the configuration, one client, the followed contracts. */
export interface Rail {
  cfg: BaseRailConfig;
  client: PublicClient;
  /** The configured escrow. */
  escrow: Address;
  resolver: Address;
  contracts: EscrowContract[];
  versionOf(address: string | undefined): EscrowVersion | undefined;
  /** The contract a settlement call goes to: the slot's, default the configured one. */
  target(call: { escrow?: string | undefined }): Address;
}

export function railOf(cfg: BaseRailConfig, account: ResolverSigner | null): Rail {
  const contracts: EscrowContract[] = [
    { address: cfg.escrow, version: cfg.escrowVersion ?? "4", current: true, startBlock: cfg.startBlock },
    ...(cfg.retired ?? []).map((r) => ({
      address: r.address,
      version: r.version,
      current: false,
      startBlock: r.startBlock,
    })),
  ];
  return {
    cfg,
    client: createPublicClient({ transport: http(cfg.rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }) }),
    escrow: toAddress(cfg.escrow),
    resolver: (account?.address ?? cfg.resolverAddress ?? "").toLowerCase() as Address,
    contracts,
    versionOf: (address) =>
      address === undefined ? undefined : contracts.find((c) => c.address === address.toLowerCase())?.version,
    target: (call) => toAddress(call.escrow ?? cfg.escrow),
  };
}

/**
 * Wraps an RPC call: reverts and not-found answers are rethrown for the caller to decode,
 * everything else (transport failures, and node errors on reads, which no payout can fix) becomes
 * RpcUnavailableError.
 */
export async function rpc<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError || err instanceof TransactionNotFoundError) throw err;
    if (revertOf(err) !== null) throw err;
    processMetrics.rpcError("base_chain"); // GET /metrics oabp_rpc_errors_total
    throw new RpcUnavailableError(err);
  }
}

/** The ABI a contract version is called with: a retired v2 or v3 contract keeps its own calls. */
export const abiOf = (version: string | undefined) =>
  version === "2" ? missionEscrowV2Abi : version === "3" ? missionEscrowV3Abi : missionEscrowAbi;

export function callData(call: EscrowCall, version?: string): Hex {
  if (call.kind === "refund")
    return encodeFunctionData({
      abi: abiOf(version) as typeof missionEscrowAbi,
      functionName: "refund",
      args: [call.missionKey, toAddress(call.funder)],
    });
  const args = [
    call.missionKey,
    toAddress(call.funder),
    call.recipients.map(toAddress),
    call.amounts,
    call.fee,
  ] as const;
  if (call.kind === "releaseV2") return encodeFunctionData({ abi: missionEscrowV2Abi, functionName: "release", args });
  if (call.kind === "releaseSigned" && version === "3")
    return encodeFunctionData({
      abi: missionEscrowV3Abi,
      functionName: "releaseSigned",
      args: [...args, call.signature],
    });
  if (call.kind === "releaseSigned") {
    // v4: the consent carries its deadline (resolved from the chain by withDeadline before this).
    if (call.slot === undefined) throw new Error("a v4 signed release needs its slot's deadline");
    return encodeFunctionData({
      abi: missionEscrowAbi,
      functionName: "releaseSigned",
      args: [...args, { deadline: call.slot.deadline, signature: call.signature }],
    });
  }
  return encodeFunctionData({
    abi: missionEscrowAbi,
    functionName: call.kind === "propose" ? "proposeRelease" : "executeRelease",
    args,
  });
}

/** The resolver signer of this configuration: remote (OABP_RESOLVER_SIGNER_URL), local (the key), or none. */
export function signerOf(cfg: BaseRailConfig): ResolverSigner | null {
  if (cfg.signerUrl) {
    if (!cfg.resolverAddress) throw new Error("OABP_RESOLVER_SIGNER_URL needs OABP_RESOLVER_ADDRESS");
    return remoteSigner(cfg.signerUrl, cfg.resolverAddress, { timeoutMs: RPC_TIMEOUT_MS });
  }
  return cfg.resolverKey ? localSigner(cfg.resolverKey.reveal() as Hex) : null;
}

/**
 * An address as viem's type, lower-case; anything else is a bug upstream (addresses come from the
 * configuration, which validates them, and from logs).
 */
export function toAddress(text: string): Address {
  const a = text.toLowerCase();
  if (!isAddress(a, { strict: false })) throw new Error(`not an address: ${JSON.stringify(text.slice(0, 64))}`);
  return a;
}
