import {
  BaseError,
  InsufficientFundsError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  createPublicClient,
  encodeFunctionData,
  http,
  keccak256,
  parseEventLogs,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import type { BaseRailConfig, ChainDepth } from "../env";
import { missionEscrowAbi } from "./abi/mission-escrow";
import { missionEscrowV2Abi } from "./abi/mission-escrow-v2";
import { errorText, isTransportError, revertOf } from "./chain-errors";
import { processMetrics } from "./metrics";
import { localSigner, remoteSigner, SignerUnavailableError, type ResolverSigner } from "./resolver-signer";
import { releaseTypedData, verifyReleaseLocally, type ReleasePlan } from "./release-typed-data";

export { isTransportError, revertOf };

// The base rail's chain port (docs/style.md "Chain behind a port"): every RPC call of the escrow
// watcher and the settlement worker goes through here, so the rest of the code sees plain data
// and three failure kinds (unreachable RPC, revert, not found) rather than viem's error zoo.

/** The RPC did not answer (down, timeout, 5xx): callers keep their state and retry later. */
export class RpcUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`RPC unavailable: ${cause instanceof Error ? cause.message.split("\n")[0] : String(cause)}`);
    this.name = "RpcUnavailableError";
  }
}

export interface FundedLog {
  address: string; // emitting contract, lower-case
  missionKey: Hex;
  funder: string;
  token: string;
  amount: bigint;
  spamFee: bigint;
  /** Contract v2: from this unix time the funder may take an unreleased deposit back itself. */
  refundAfter: bigint;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
}

export interface TxReceipt {
  txHash: string;
  status: "success" | "reverted";
  blockNumber: number;
  blockHash: string;
  to: string | null;
  /** Funded logs in this receipt from any contract: the caller checks the emitter. */
  funded: FundedLog[];
  /** Credited (pull-payment fallback) recipients of this receipt's escrow logs. */
  credited: { to: string; amount: bigint }[];
  /** Wei paid for gas: gasUsed × effectiveGasPrice (absent from test fakes). */
  gasSpentWei?: bigint;
}

export interface Heads {
  latest: number;
  confirmed: number;
  final: number;
}

/**
 * A settlement transaction (MissionEscrow v3, docs/base-rail.md "Release paths"): a release with
 * the funder's signature (path 1), the delayed path's proposal and execution (path 2), a refund;
 * and a retired v2 contract's instant release. `escrow`: the contract holding the slot (the payout
 * row's; docs/base-rail.md "Migrating to a new escrow"); default the configured one.
 */
export type EscrowCall = (
  | ({ kind: "releaseSigned"; signature: Hex } & ReleasePlan)
  | ({ kind: "propose" } & ReleasePlan)
  | ({ kind: "execute" } & ReleasePlan)
  /** Contract v2's instant release: only for a slot held by a v2 contract. */
  | ({ kind: "releaseV2" } & ReleasePlan)
  | { kind: "refund"; missionKey: Hex; funder: string }
) & { escrow?: string };

/** One escrow contract the server follows: the configured one (current) and retired ones still holding slots. */
export interface EscrowContract {
  address: string; // lower-case
  version: "2" | "3";
  current: boolean;
  /** First block to scan (OABP_ESCROW_RETIRED start_block; OABP_ESCROW_START_BLOCK for the current one). */
  startBlock: number | undefined;
}

/**
 * An escrow log other than funding and settlement (exits, pull credits, governance): decoded by
 * the contract's ABI, arguments JSON-safe (bigints as decimal strings, addresses lower-case).
 */
export interface EscrowEvent {
  contract: string;
  name: string;
  args: Record<string, unknown>;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
}

/** Funding and settlement logs, handled by the deposit watcher and the settlement worker, not indexed as events. */
export const SETTLEMENT_EVENTS = new Set(["Funded", "Released", "Refunded", "Paid"]);

/** A delayed release's proposal on chain (proposalOf): hash 0x00… when there is none. */
export interface Proposal {
  hash: string;
  executableAt: number; // unix seconds
}

/**
 * A payout's estimation outcome. `revert` is the contract's error name (AlreadyReleased,
 * NotFunded, FeeTooHigh, BadRecipients, …), `insufficient_funds` when the resolver cannot pay for
 * gas, or `rejected:<node message>` when the node refused the call for another reason (wrong
 * chain, no code at the address): all are outcomes of this payout, never an outage.
 */
export type Estimate = { ok: true; gas: bigint } | { ok: false; revert: string };

/** The current fee market: the latest block's base fee and the node's suggested tip. */
export interface FeeMarket {
  baseFee: bigint;
  priority: bigint;
}

export type SendResult = "sent" | "known" | "nonce_too_low" | "insufficient_funds" | "underpriced";

/** What the escrow contract says about itself (the start-up checks compare it with the config). */
export interface EscrowState {
  hasCode: boolean;
  resolverHasRole: boolean;
  feeCapBps: number;
  treasury: string;
}

export interface BaseChain {
  readonly chainId: number;
  /** The configured escrow (new missions fund it). */
  readonly escrow: string;
  /** Every contract followed: the configured one first, then the retired ones. */
  readonly contracts: EscrowContract[];
  /** The MissionEscrow version of a followed contract (default: the configured one's); how its payouts are called. */
  versionOf(address?: string | null): "2" | "3";
  readonly resolver: string;
  /** False in a process without the resolver key (the API beside `npm run worker`): it never signs. */
  readonly canSign: boolean;
  escrowState(): Promise<EscrowState>;
  rpcChainId(): Promise<number>;
  heads(): Promise<Heads>;
  receipt(txHash: string): Promise<TxReceipt | null>;
  /** Known to the node (pending or mined)? */
  knowsTransaction(txHash: string): Promise<boolean>;
  fundedLogs(fromBlock: number, toBlock: number, escrow?: string): Promise<FundedLog[]>;
  /** Every log of one escrow contract in [from, to] (one eth_getLogs): Funded, and the other events decoded. */
  escrowLogs(
    escrow: string,
    fromBlock: number,
    toBlock: number,
  ): Promise<{ funded: FundedLog[]; events: EscrowEvent[] }>;
  /** Unix seconds of a block (effect times of governance proposals are compared with it). */
  blockTime(blockNumber: number): Promise<number>;
  /** What the escrow holds in this slot now (0: paid out, refunded or reclaimed already). */
  slotAmount(call: EscrowCall): Promise<bigint>;
  /**
   * The transaction of an earlier `Released` (release) or `Refunded` (refund) of this slot, searched
   * between `fromBlock` (the deposit's block) and the head, newest first, in bounded eth_getLogs
   * windows — public Base RPCs refuse wide ranges — over at most `maxBlocks` (500 000 ≈ 11.5 days
   * on Base: the deadline, judging window and grace of a mission); null when not found.
   */
  settledTx(call: EscrowCall, fromBlock: number, maxBlocks?: number): Promise<string | null>;
  /** Gas for `call` against the latest state (never the pending one: a replacement reuses its gas). */
  estimate(call: EscrowCall): Promise<Estimate>;
  fees(): Promise<FeeMarket>;
  balance(address: string): Promise<bigint>;
  /** ERC-20 balanceOf, at `blockNumber` when given (else latest). */
  tokenBalance(token: string, address: string, blockNumber?: number): Promise<bigint>;
  pendingNonce(): Promise<number>;
  /** The pending delayed release of this slot (proposalOf). */
  proposal(missionKey: Hex, funder: string, contract?: string): Promise<Proposal>;
  /** The latest block's timestamp (unix seconds): the contract's clock for executableAt. */
  chainTime(): Promise<number>;
  /** The transaction of a guardian's `ReleaseCancelled` of this slot since `fromBlock` (bounded search as settledTx), or null. */
  cancelledTx(
    missionKey: Hex,
    funder: string,
    fromBlock: number,
    contract?: string,
    maxBlocks?: number,
  ): Promise<string | null>;
  /** Does `signature` carry the funder's consent to this release on `escrow` (EOA, or ERC-1271 through the RPC)? */
  verifyRelease(escrow: string, plan: ReleasePlan, signature: Hex): Promise<boolean>;
  sign(
    call: EscrowCall,
    p: { nonce: number; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  ): Promise<{ raw: Hex; hash: string }>;
  sendRaw(raw: Hex): Promise<SendResult>;
}

/**
 * Wraps an RPC call: reverts and not-found answers are rethrown for the caller to decode,
 * everything else (transport failures, and node errors on reads, which no payout can fix) becomes
 * RpcUnavailableError.
 */
async function rpc<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError || err instanceof TransactionNotFoundError) throw err;
    if (revertOf(err) !== null) throw err;
    processMetrics.rpcError("base_chain"); // GET /metrics oabp_rpc_errors_total
    throw new RpcUnavailableError(err);
  }
}

/** The ABI a contract version is called with: a retired v2 contract keeps v2's release/refund. */
const abiOf = (version: string | undefined) => (version === "2" ? missionEscrowV2Abi : missionEscrowAbi);

function callData(call: EscrowCall, version?: string): Hex {
  if (call.kind === "refund")
    return encodeFunctionData({
      abi: abiOf(version) as typeof missionEscrowAbi,
      functionName: "refund",
      args: [call.missionKey, call.funder as Address],
    });
  const args = [call.missionKey, call.funder as Address, call.recipients as Address[], call.amounts, call.fee] as const;
  if (call.kind === "releaseV2") return encodeFunctionData({ abi: missionEscrowV2Abi, functionName: "release", args });
  if (call.kind === "releaseSigned")
    return encodeFunctionData({
      abi: missionEscrowAbi,
      functionName: "releaseSigned",
      args: [...args, call.signature],
    });
  return encodeFunctionData({
    abi: missionEscrowAbi,
    functionName: call.kind === "propose" ? "proposeRelease" : "executeRelease",
    args,
  });
}

/** The resolver signer of this configuration: remote (OABP_RESOLVER_SIGNER_URL), local (the key), or none. */
function signerOf(cfg: BaseRailConfig): ResolverSigner | null {
  if (cfg.signerUrl) {
    if (!cfg.resolverAddress) throw new Error("OABP_RESOLVER_SIGNER_URL needs OABP_RESOLVER_ADDRESS");
    return remoteSigner(cfg.signerUrl, cfg.resolverAddress, { timeoutMs: cfg.rpcTimeoutMs });
  }
  return cfg.resolverKey ? localSigner(cfg.resolverKey.reveal() as Hex) : null;
}

function toFunded(l: {
  address: string;
  args: {
    missionKey: Hex;
    funder: string;
    token: string;
    amount: bigint;
    spamFee: bigint;
    refundAfter: bigint | number;
  };
  transactionHash: string | null;
  logIndex: number | null;
  blockNumber: bigint | null;
  blockHash: string | null;
}): FundedLog | null {
  if (l.transactionHash === null || l.logIndex === null || l.blockNumber === null || l.blockHash === null) return null; // pending log
  return {
    address: l.address.toLowerCase(),
    missionKey: l.args.missionKey,
    funder: l.args.funder.toLowerCase(),
    token: l.args.token.toLowerCase(),
    amount: l.args.amount,
    spamFee: l.args.spamFee,
    refundAfter: BigInt(l.args.refundAfter),
    txHash: l.transactionHash.toLowerCase(),
    logIndex: l.logIndex,
    blockNumber: Number(l.blockNumber),
    blockHash: l.blockHash.toLowerCase(),
  };
}

export function createBaseChain(cfg: BaseRailConfig): BaseChain {
  const client: PublicClient = createPublicClient({
    transport: http(cfg.rpcUrl, { timeout: cfg.rpcTimeoutMs, retryCount: 0 }),
  });
  const account = signerOf(cfg);
  const resolver = (account?.address ?? cfg.resolverAddress ?? "").toLowerCase() as Address;
  const signer = (): ResolverSigner => {
    if (!account)
      throw new Error(
        "this process holds no resolver key (OABP_RESOLVER_ADDRESS only): settlement runs in `npm run worker`",
      );
    return account;
  };
  const escrow = cfg.escrow as Address;
  const contracts: EscrowContract[] = [
    { address: cfg.escrow, version: cfg.escrowVersion ?? "3", current: true, startBlock: cfg.startBlock },
    ...(cfg.retired ?? []).map((r) => ({
      address: r.address,
      version: r.version,
      current: false,
      startBlock: r.startBlock,
    })),
  ];
  const known = new Set(contracts.map((c) => c.address));
  const versionOf = (address: string | undefined) =>
    address === undefined ? undefined : contracts.find((c) => c.address === address.toLowerCase())?.version;
  const target = (call: EscrowCall) => (call.escrow ?? escrow).toLowerCase() as Address;

  async function depthHead(latest: number, d: ChainDepth): Promise<number> {
    if (d.kind === "blocks") return latest - (d.blocks - 1);
    const block = await rpc(() => client.getBlock({ blockTag: d.tag }));
    return Number(block.number);
  }

  return {
    chainId: cfg.chainId,
    escrow: cfg.escrow,
    contracts,
    versionOf: (address) => versionOf(address ?? cfg.escrow) ?? contracts[0]!.version,
    resolver,
    canSign: account !== null,
    async escrowState() {
      const [code, role] = await Promise.all([
        rpc(() => client.getCode({ address: escrow })),
        rpc(() => client.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "RESOLVER_ROLE" })).catch(
          () => null,
        ),
      ]);
      const hasCode = code !== undefined && code !== "0x";
      if (!hasCode || role === null) return { hasCode, resolverHasRole: false, feeCapBps: 0, treasury: "" };
      const [has, cap, treasury] = await Promise.all([
        rpc(() =>
          client.readContract({
            address: escrow,
            abi: missionEscrowAbi,
            functionName: "hasRole",
            args: [role, resolver],
          }),
        ),
        rpc(() => client.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "feeCapBps" })),
        rpc(() => client.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "treasury" })),
      ]);
      return { hasCode, resolverHasRole: has, feeCapBps: Number(cap), treasury: treasury.toLowerCase() };
    },
    rpcChainId: () => rpc(() => client.getChainId()),
    async heads() {
      const latest = Number(await rpc(() => client.getBlockNumber({ cacheTime: 0 })));
      const [confirmed, final] = await Promise.all([
        depthHead(latest, cfg.confirmations),
        depthHead(latest, cfg.finality),
      ]);
      return { latest, confirmed: Math.min(confirmed, latest), final: Math.min(final, confirmed, latest) };
    },
    async receipt(txHash) {
      let r;
      try {
        r = await rpc(() => client.getTransactionReceipt({ hash: txHash as Hex }));
      } catch (err) {
        if (err instanceof TransactionReceiptNotFoundError) return null;
        throw err;
      }
      const funded = parseEventLogs({ abi: missionEscrowAbi, logs: r.logs, eventName: "Funded", strict: true })
        .map((l) => toFunded(l))
        .filter((l): l is FundedLog => l !== null);
      const credited = parseEventLogs({
        abi: missionEscrowAbi,
        logs: r.logs.filter((l) => known.has(l.address.toLowerCase())),
        eventName: "Credited",
        strict: true,
      }).map((l) => ({ to: l.args.to.toLowerCase(), amount: l.args.amount }));
      return {
        txHash: r.transactionHash.toLowerCase(),
        status: r.status,
        blockNumber: Number(r.blockNumber),
        blockHash: r.blockHash.toLowerCase(),
        to: r.to?.toLowerCase() ?? null,
        funded,
        credited,
        gasSpentWei: r.gasUsed * (r.effectiveGasPrice ?? 0n),
      };
    },
    async knowsTransaction(txHash) {
      try {
        await rpc(() => client.getTransaction({ hash: txHash as Hex }));
        return true;
      } catch (err) {
        if (err instanceof TransactionNotFoundError) return false;
        throw err;
      }
    },
    async fundedLogs(fromBlock, toBlock, at) {
      const logs = await rpc(() =>
        client.getContractEvents({
          address: (at ?? escrow) as Address,
          abi: missionEscrowAbi,
          eventName: "Funded",
          fromBlock: BigInt(fromBlock),
          toBlock: BigInt(toBlock),
          strict: true,
        }),
      );
      return logs.map((l) => toFunded(l)).filter((l): l is FundedLog => l !== null);
    },
    async escrowLogs(at, fromBlock, toBlock) {
      const raw = await rpc(() =>
        client.getLogs({ address: at as Address, fromBlock: BigInt(fromBlock), toBlock: BigInt(toBlock) }),
      );
      const abi = abiOf(versionOf(at)) as typeof missionEscrowAbi;
      const decoded = parseEventLogs({ abi, logs: raw, strict: false });
      const funded: FundedLog[] = [];
      const events: EscrowEvent[] = [];
      for (const l of decoded) {
        if (l.transactionHash === null || l.logIndex === null || l.blockNumber === null || l.blockHash === null)
          continue; // pending
        if (l.eventName === "Funded") {
          const f = toFunded(l as Parameters<typeof toFunded>[0]);
          if (f) funded.push(f);
          continue;
        }
        if (SETTLEMENT_EVENTS.has(l.eventName)) continue;
        events.push({
          contract: l.address.toLowerCase(),
          name: l.eventName,
          args: jsonArgs(l.args),
          txHash: l.transactionHash.toLowerCase(),
          logIndex: l.logIndex,
          blockNumber: Number(l.blockNumber),
          blockHash: l.blockHash.toLowerCase(),
        });
      }
      return { funded, events };
    },
    async blockTime(blockNumber) {
      const b = await rpc(() => client.getBlock({ blockNumber: BigInt(blockNumber) }));
      return Number(b.timestamp);
    },
    async slotAmount(call) {
      const [, amount] = await rpc(() =>
        client.readContract({
          address: target(call),
          abi: missionEscrowAbi,
          functionName: "depositOf",
          args: [call.missionKey, call.funder as Address],
        }),
      );
      return amount;
    },
    async settledTx(call, fromBlock, maxBlocks = 500_000) {
      // Newest window first: a payout made outside this database (a restore from backup) is
      // most likely recent — after the deadline and the judging window, not near the deposit.
      const latest = Number(await rpc(() => client.getBlockNumber({ cacheTime: 0 })));
      const first = Math.max(fromBlock, latest - maxBlocks + 1);
      for (let to = latest; to >= first; to -= LOG_SPAN) {
        const range = { fromBlock: BigInt(Math.max(first, to - LOG_SPAN + 1)), toBlock: BigInt(to) };
        const args = { missionKey: call.missionKey, funder: call.funder as Address };
        const logs =
          call.kind !== "refund"
            ? await rpc(() =>
                client.getContractEvents({
                  address: target(call),
                  abi: missionEscrowAbi,
                  eventName: "Released",
                  args,
                  ...range,
                  strict: true,
                }),
              )
            : await rpc(() =>
                client.getContractEvents({
                  address: target(call),
                  abi: missionEscrowAbi,
                  eventName: "Refunded",
                  args,
                  ...range,
                  strict: true,
                }),
              );
        const hash = logs[0]?.transactionHash;
        if (hash) return hash.toLowerCase();
      }
      return null;
    },
    async estimate(call) {
      try {
        const gas = await client.estimateGas({
          account: resolver,
          to: target(call),
          data: callData(call, versionOf(call.escrow ?? cfg.escrow)),
          blockTag: "latest",
        });
        return { ok: true, gas: (gas * 12n) / 10n };
      } catch (err) {
        // Outcomes, not outages: only a transport failure is the RPC's fault.
        const revert = revertOf(err);
        if (revert !== null) return { ok: false, revert };
        if (isTransportError(err)) throw new RpcUnavailableError(err);
        if (err instanceof BaseError && err.walk((e) => e instanceof InsufficientFundsError))
          return { ok: false, revert: "insufficient_funds" };
        const msg = err instanceof BaseError ? err.shortMessage : String(err);
        return { ok: false, revert: `rejected:${msg.slice(0, 120)}` };
      }
    },
    async fees() {
      const [block, priority] = await Promise.all([
        rpc(() => client.getBlock({ blockTag: "latest" })),
        rpc(() => client.estimateMaxPriorityFeePerGas({ chain: null })),
      ]);
      return { baseFee: block.baseFeePerGas ?? 0n, priority };
    },
    balance: (address) => rpc(() => client.getBalance({ address: address as Address })),
    tokenBalance: (token, address, blockNumber) =>
      rpc(() =>
        client.readContract({
          address: token as Address,
          abi: ERC20_BALANCE_ABI,
          functionName: "balanceOf",
          args: [address as Address],
          ...(blockNumber === undefined ? {} : { blockNumber: BigInt(blockNumber) }),
        }),
      ),
    pendingNonce: () => rpc(() => client.getTransactionCount({ address: resolver, blockTag: "pending" })),
    async proposal(missionKey, funder, contract) {
      const [hash, executableAt] = await rpc(() =>
        client.readContract({
          address: (contract ?? escrow).toLowerCase() as Address,
          abi: missionEscrowAbi,
          functionName: "proposalOf",
          args: [missionKey, funder as Address],
        }),
      );
      return { hash: hash.toLowerCase(), executableAt: Number(executableAt) };
    },
    async chainTime() {
      const block = await rpc(() => client.getBlock({ blockTag: "latest" }));
      return Number(block.timestamp);
    },
    async cancelledTx(missionKey, funder, fromBlock, contract, maxBlocks = 500_000) {
      const latest = Number(await rpc(() => client.getBlockNumber({ cacheTime: 0 })));
      const first = Math.max(fromBlock, latest - maxBlocks + 1);
      for (let to = latest; to >= first; to -= LOG_SPAN) {
        const logs = await rpc(() =>
          client.getContractEvents({
            address: (contract ?? escrow).toLowerCase() as Address,
            abi: missionEscrowAbi,
            eventName: "ReleaseCancelled",
            args: { missionKey, funder: funder as Address },
            fromBlock: BigInt(Math.max(first, to - LOG_SPAN + 1)),
            toBlock: BigInt(to),
            strict: true,
          }),
        );
        const hash = logs[logs.length - 1]?.transactionHash;
        if (hash) return hash.toLowerCase();
      }
      return null;
    },
    async verifyRelease(contract, plan, signature) {
      // An EOA's signature verifies locally (no RPC); anything else may be a smart wallet
      // (ERC-1271, or ERC-6492 before deployment): the public client asks the chain.
      if (await verifyReleaseLocally(cfg.chainId, contract, plan, signature)) return true;
      return rpc(() =>
        client.verifyTypedData({
          ...releaseTypedData(cfg.chainId, contract, plan),
          address: plan.funder as Address,
          signature,
        }),
      ).catch((err: unknown) => {
        if (err instanceof RpcUnavailableError) throw err;
        return false; // the wallet's check reverted: not its signature
      });
    },
    async sign(call, p) {
      const raw = await signer()
        .signTransaction({
          type: "eip1559",
          chainId: cfg.chainId,
          to: target(call),
          data: callData(call, versionOf(call.escrow ?? cfg.escrow)),
          value: 0n,
          nonce: p.nonce,
          gas: p.gas,
          maxFeePerGas: p.maxFeePerGas,
          maxPriorityFeePerGas: p.maxPriorityFeePerGas,
        })
        .catch((err: unknown) => {
          if (err instanceof SignerUnavailableError) throw new RpcUnavailableError(err); // try later
          throw err;
        });
      return { raw, hash: keccak256(raw).toLowerCase() };
    },
    async sendRaw(raw) {
      try {
        await client.sendRawTransaction({ serializedTransaction: raw });
        return "sent";
      } catch (err) {
        const text = errorText(err);
        if (/already known|known transaction|already imported|transaction already exists/i.test(text)) return "known";
        if (/nonce too low|nonce has already been used|NonceTooLow/i.test(text)) return "nonce_too_low";
        if (/insufficient funds|InsufficientFunds/i.test(text)) return "insufficient_funds";
        if (/underpriced|replacement transaction|fee too low/i.test(text)) return "underpriced";
        throw new RpcUnavailableError(err);
      }
    },
  };
}

/** Blocks per eth_getLogs call: public Base RPCs cap ranges at a few thousand. */
const LOG_SPAN = 2_000;

/** Decoded event arguments as JSON: bigints as decimal strings, addresses and hashes lower-case. */
function jsonArgs(args: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!args || typeof args !== "object") return out;
  const conv = (v: unknown): unknown =>
    typeof v === "bigint"
      ? v.toString()
      : typeof v === "string"
        ? v.startsWith("0x")
          ? v.toLowerCase()
          : v
        : Array.isArray(v)
          ? v.map(conv)
          : v;
  for (const [k, v] of Object.entries(args)) if (!/^\d+$/.test(k)) out[k] = conv(v);
  return out;
}

const ERC20_BALANCE_ABI = [
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "a", type: "address" }],
    outputs: [{ name: "", type: "uint256" }],
  },
] as const;
