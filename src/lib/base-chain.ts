import {
  BaseError,
  InsufficientFundsError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  createPublicClient,
  erc20Abi,
  encodeFunctionData,
  http,
  isAddress,
  keccak256,
  parseEventLogs,
  type Address,
  type Hex,
  type Log,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import type { BaseRailConfig, ChainDepth } from "../env";
import { missionEscrowAbi } from "./abi/mission-escrow";
import { missionEscrowV3Abi } from "./abi/mission-escrow-v3";
import { missionEscrowV2Abi } from "./abi/mission-escrow-v2";
import { errorText, isTransportError, revertOf } from "./chain-errors";
import { processMetrics } from "./metrics";
import { createRelayer, type Relayer } from "./relayer";
import { localSigner, remoteSigner, SignerUnavailableError, type ResolverSigner } from "./resolver-signer";
import { movementsOf, type SlotMovement } from "./escrow-movements";
import { releaseTypedData, verifyReleaseLocally, type ReleasePlan, type SlotInstance } from "./release-typed-data";

// The base rail's chain port (docs/style.md "Chain behind a port"): every RPC call of the escrow
// watcher and the settlement worker goes through here, so the rest of the code sees plain data
// and three failure kinds (unreachable RPC, revert, not found) rather than viem's error zoo.

/** Timeout of one JSON-RPC request of the base rail. */
export const RPC_TIMEOUT_MS = 10_000;
const ZERO_HASH = `0x${"0".repeat(64)}` as const;

/** A MissionEscrow version the server calls (docs/base-rail.md "Migrating to a new escrow"). */
type EscrowVersion = "2" | "3" | "4";

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
  /** Releases and refunds of the followed contracts in this receipt, with their payees (escrow-movements.ts; absent from test fakes). */
  movements?: SlotMovement[];
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
  version: EscrowVersion;
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
const SETTLEMENT_EVENTS = new Set(["Funded", "Released", "Refunded", "Paid"]);

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
  /** Sends what payers signed (OABP_RELAYER_KEY; docs/payments.md); null or absent: off. */
  readonly relayer?: Relayer | null;
  /** The MissionEscrow version of a followed contract (default: the configured one's); how its payouts are called. */
  versionOf(address?: string | null): EscrowVersion;
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
  ): Promise<{ funded: FundedLog[]; events: EscrowEvent[]; movements: SlotMovement[] }>;
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
  cancelledTx(slot: {
    missionKey: Hex;
    funder: string;
    /** From the deposit's block, over at most `maxBlocks` (default 500 000). */
    fromBlock: number;
    /** The contract holding the slot; default the configured one. */
    contract?: string | undefined;
    maxBlocks?: number;
  }): Promise<string | null>;
  /**
   * A v4 slot's instance as the contract holds it now (slotOf, depositOf) and the deadline a
   * release signature carries (the slot's refund-after; docs/decisions/base-rail.md "Contract v4"); null when
   * the slot is empty or its contract is not v4.
   */
  slotInstance(missionKey: Hex, funder: string, contract?: string): Promise<SlotInstance | null>;
  /** Does `signature` carry the funder's consent to this release on `escrow` (EOA, or ERC-1271 through the RPC)? */
  verifyRelease(escrow: string, plan: ReleasePlan, signature: Hex): Promise<boolean>;
  sign(
    call: EscrowCall,
    p: { nonce: number; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  ): Promise<{ raw: Hex; hash: string }>;
  sendRaw(raw: Hex): Promise<SendResult>;
  /** Gas for an ERC-20 transfer from the resolver key (a withdrawal, docs/withdrawals.md). */
  estimateTransfer(t: TokenTransfer): Promise<Estimate>;
  /** Signs an ERC-20 transfer from the resolver key; nothing is sent. */
  signTransfer(t: TokenTransfer, p: TxFees): Promise<{ raw: Hex; hash: string }>;
  /** The resolver's mined transaction count: a nonce below it is spent. */
  minedNonce(): Promise<number>;
}

/** An ERC-20 transfer of `amount` base units of `token` from the resolver key to `to`. */
interface TokenTransfer {
  token: string;
  to: string;
  amount: bigint;
}
type TxFees = { nonce: number; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

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

/** The ABI a contract version is called with: a retired v2 or v3 contract keeps its own calls. */
const abiOf = (version: string | undefined) =>
  version === "2" ? missionEscrowV2Abi : version === "3" ? missionEscrowV3Abi : missionEscrowAbi;

function callData(call: EscrowCall, version?: string): Hex {
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
function signerOf(cfg: BaseRailConfig): ResolverSigner | null {
  if (cfg.signerUrl) {
    if (!cfg.resolverAddress) throw new Error("OABP_RESOLVER_SIGNER_URL needs OABP_RESOLVER_ADDRESS");
    return remoteSigner(cfg.signerUrl, cfg.resolverAddress, { timeoutMs: RPC_TIMEOUT_MS });
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

/** What the parts of the port share: the configuration, one client, the followed contracts. */
interface Rail {
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

function railOf(cfg: BaseRailConfig, account: ResolverSigner | null): Rail {
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

/** The contract's own state, the heads, balances and the chain's clock. */
function stateReads(r: Rail) {
  const { cfg, client, escrow, resolver } = r;
  async function depthHead(latest: number, d: ChainDepth): Promise<number> {
    if (d.kind === "blocks") return latest - (d.blocks - 1);
    const block = await rpc(() => client.getBlock({ blockTag: d.tag }));
    return Number(block.number);
  }
  return {
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
    async blockTime(blockNumber: number) {
      const b = await rpc(() => client.getBlock({ blockNumber: BigInt(blockNumber) }));
      return Number(b.timestamp);
    },
    async chainTime() {
      const block = await rpc(() => client.getBlock({ blockTag: "latest" }));
      return Number(block.timestamp);
    },
    balance: (address: string) => rpc(() => client.getBalance({ address: toAddress(address) })),
    tokenBalance: (token: string, address: string, blockNumber?: number) =>
      rpc(() =>
        client.readContract({
          address: toAddress(token),
          abi: ERC20_BALANCE_ABI,
          functionName: "balanceOf",
          args: [toAddress(address)],
          ...(blockNumber === undefined ? {} : { blockNumber: BigInt(blockNumber) }),
        }),
      ),
    pendingNonce: () => rpc(() => client.getTransactionCount({ address: resolver, blockTag: "pending" })),
  } satisfies Partial<BaseChain>;
}

/** Receipts and transactions by hash, and the escrow's slots and proposals. */
function receiptReads(r: Rail) {
  const { client, escrow } = r;
  const known = new Set(r.contracts.map((c) => c.address));
  return {
    async receipt(txHash: string): Promise<TxReceipt | null> {
      const got = await rpc(() => client.getTransactionReceipt({ hash: txHash as Hex })).catch((err: unknown) =>
        err instanceof TransactionReceiptNotFoundError ? null : Promise.reject(err),
      );
      return got === null ? null : receiptOf(got, known);
    },
    async knowsTransaction(txHash: string) {
      return rpc(() => client.getTransaction({ hash: txHash as Hex })).then(
        () => true,
        (err: unknown) => (err instanceof TransactionNotFoundError ? false : Promise.reject(err)),
      );
    },
    async slotAmount(call: EscrowCall) {
      const [, amount] = await rpc(() =>
        client.readContract({
          address: r.target(call),
          abi: missionEscrowAbi,
          functionName: "depositOf",
          args: [call.missionKey, toAddress(call.funder)],
        }),
      );
      return amount;
    },
    async proposal(missionKey: Hex, funder: string, contract?: string) {
      const [hash, executableAt] = await rpc(() =>
        client.readContract({
          address: toAddress(contract ?? escrow),
          abi: missionEscrowAbi,
          functionName: "proposalOf",
          args: [missionKey, toAddress(funder)],
        }),
      );
      const address = toAddress(contract ?? escrow);
      if (hash !== ZERO_HASH && (r.versionOf(address) ?? r.cfg.escrowVersion ?? "4") === "4") {
        // v4: a proposal of an earlier resolver epoch cannot execute and may be replaced — none.
        const [, , live] = await rpc(() =>
          client.readContract({
            address,
            abi: missionEscrowAbi,
            functionName: "proposalEpochOf",
            args: [missionKey, toAddress(funder)],
          }),
        );
        if (!live) return { hash: ZERO_HASH, executableAt: 0 };
      }
      return { hash: hash.toLowerCase(), executableAt: Number(executableAt) };
    },
  } satisfies Partial<BaseChain>;
}

/** A receipt as plain data: its Funded logs (any emitter) and the Credited logs of the followed contracts. */
function receiptOf(r: TransactionReceipt, known: Set<string>): TxReceipt {
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
    movements: movementsOf(r.logs, known),
    gasSpentWei: r.gasUsed * (r.effectiveGasPrice ?? 0n),
  };
}

/** eth_getLogs reads: funding logs, every escrow event, and the bounded searches for a slot's settlement. */
function logReads(r: Rail) {
  const { client, escrow } = r;
  return {
    async fundedLogs(fromBlock: number, toBlock: number, at?: string) {
      const logs = await rpc(() =>
        client.getContractEvents({
          address: toAddress(at ?? escrow),
          abi: missionEscrowAbi,
          eventName: "Funded",
          fromBlock: BigInt(fromBlock),
          toBlock: BigInt(toBlock),
          strict: true,
        }),
      );
      return logs.map((l) => toFunded(l)).filter((l): l is FundedLog => l !== null);
    },
    async escrowLogs(at: string, fromBlock: number, toBlock: number) {
      const raw = await rpc(() =>
        client.getLogs({ address: toAddress(at), fromBlock: BigInt(fromBlock), toBlock: BigInt(toBlock) }),
      );
      return splitEscrowLogs(abiOf(r.versionOf(at)) as typeof missionEscrowAbi, raw);
    },
    // Newest window first: a payout made outside this database (a restore from backup) is
    // most likely recent — after the deadline and the judging window, not near the deposit.
    settledTx: (call: EscrowCall, fromBlock: number, maxBlocks = 500_000) =>
      newestFirst(r, { fromBlock, maxBlocks }, async (range) => {
        const args = { missionKey: call.missionKey, funder: toAddress(call.funder) };
        const address = r.target(call);
        const logs =
          call.kind !== "refund"
            ? await rpc(() =>
                client.getContractEvents({
                  address,
                  abi: missionEscrowAbi,
                  eventName: "Released",
                  args,
                  ...range,
                  strict: true,
                }),
              )
            : await rpc(() =>
                client.getContractEvents({
                  address,
                  abi: missionEscrowAbi,
                  eventName: "Refunded",
                  args,
                  ...range,
                  strict: true,
                }),
              );
        return logs[0]?.transactionHash;
      }),
    cancelledTx: (slot: Parameters<BaseChain["cancelledTx"]>[0]) =>
      newestFirst(r, { fromBlock: slot.fromBlock, maxBlocks: slot.maxBlocks ?? 500_000 }, async (range) => {
        const logs = await rpc(() =>
          client.getContractEvents({
            address: toAddress(slot.contract ?? escrow),
            abi: missionEscrowAbi,
            eventName: "ReleaseCancelled",
            args: { missionKey: slot.missionKey, funder: toAddress(slot.funder) },
            ...range,
            strict: true,
          }),
        );
        return logs[logs.length - 1]?.transactionHash;
      }),
  } satisfies Partial<BaseChain>;
}

/**
 * Searches [fromBlock, head] in LOG_SPAN windows, newest first, over at most `maxBlocks`: the first
 * transaction hash `search` finds in a window, lower-case, or null.
 */
async function newestFirst(
  r: Rail,
  bounds: { fromBlock: number; maxBlocks: number },
  search: (range: { fromBlock: bigint; toBlock: bigint }) => Promise<string | null | undefined>,
): Promise<string | null> {
  const latest = Number(await rpc(() => r.client.getBlockNumber({ cacheTime: 0 })));
  const first = Math.max(bounds.fromBlock, latest - bounds.maxBlocks + 1);
  for (let to = latest; to >= first; to -= LOG_SPAN) {
    const hash = await search({ fromBlock: BigInt(Math.max(first, to - LOG_SPAN + 1)), toBlock: BigInt(to) });
    if (hash) return hash.toLowerCase();
  }
  return null;
}

/** Funded logs apart, settlement logs dropped, every other event JSON-safe; pending logs skipped. */
function splitEscrowLogs(
  abi: typeof missionEscrowAbi,
  raw: Log[],
): { funded: FundedLog[]; events: EscrowEvent[]; movements: SlotMovement[] } {
  const decoded = parseEventLogs({ abi, logs: raw, strict: false });
  const funded: FundedLog[] = [];
  const events: EscrowEvent[] = [];
  for (const l of decoded) {
    if (l.transactionHash === null || l.logIndex === null || l.blockNumber === null || l.blockHash === null) continue; // pending
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
  // A retired v2 contract's settlement logs have other topics: judged by the v3 shape only.
  return { funded, events, movements: abi === missionEscrowAbi ? movementsOf(raw) : [] };
}

/** Estimating, signing and sending a settlement transaction. */
function payoutCalls(r: Rail, account: ResolverSigner | null) {
  const { cfg, client, resolver } = r;
  const signer = (): ResolverSigner => {
    if (!account)
      throw new Error(
        "this process holds no resolver key (OABP_RESOLVER_ADDRESS only): settlement runs in `npm run worker`",
      );
    return account;
  };
  const versionOf = (call: EscrowCall) => r.versionOf(call.escrow ?? cfg.escrow) ?? cfg.escrowVersion ?? "4";
  const dataOf = (call: EscrowCall) => callData(call, versionOf(call));
  const signTo = async (to: Address, data: Hex, p: TxFees) => {
    const raw = await signer()
      .signTransaction({ type: "eip1559", chainId: cfg.chainId, to, data, value: 0n, ...p })
      .catch((err: unknown) => {
        if (err instanceof SignerUnavailableError) throw new RpcUnavailableError(err); // try later
        throw err;
      });
    return { raw, hash: keccak256(raw).toLowerCase() };
  };
  /** A v4 signed release names its deadline: the slot's refund-after, read once from the chain. */
  const withDeadline = async (call: EscrowCall): Promise<EscrowCall> => {
    if (call.kind !== "releaseSigned" || call.slot || versionOf(call) !== "4") return call;
    const refundAfter = await rpc(() =>
      client.readContract({
        address: r.target(call),
        abi: missionEscrowAbi,
        functionName: "refundAfterOf",
        args: [call.missionKey, toAddress(call.funder)],
      }),
    );
    return { ...call, slot: { token: "", fundingNonce: 0n, deadline: refundAfter } };
  };
  return {
    async estimate(call0: EscrowCall): Promise<Estimate> {
      const call = await withDeadline(call0);
      try {
        const gas = await client.estimateGas({
          account: resolver,
          to: r.target(call),
          data: dataOf(call),
          blockTag: "latest",
        });
        return { ok: true, gas: (gas * 12n) / 10n };
      } catch (err) {
        return { ok: false, revert: estimateRefusal(err) };
      }
    },
    async fees() {
      const [block, priority] = await Promise.all([
        rpc(() => client.getBlock({ blockTag: "latest" })),
        rpc(() => client.estimateMaxPriorityFeePerGas({ chain: null })),
      ]);
      return { baseFee: block.baseFeePerGas ?? 0n, priority };
    },
    async sign(call0: EscrowCall, p: TxFees) {
      const call = await withDeadline(call0);
      return signTo(r.target(call), dataOf(call), p);
    },
    async estimateTransfer(t: TokenTransfer): Promise<Estimate> {
      try {
        const gas = await client.estimateGas({ account: resolver, to: toAddress(t.token), data: transferData(t) });
        return { ok: true, gas: (gas * 12n) / 10n };
      } catch (err) {
        return { ok: false, revert: estimateRefusal(err) };
      }
    },
    signTransfer: (t: TokenTransfer, p: TxFees) => signTo(toAddress(t.token), transferData(t), p),
    minedNonce: () => rpc(() => client.getTransactionCount({ address: resolver, blockTag: "latest" })),
    async sendRaw(raw: Hex): Promise<SendResult> {
      return client.sendRawTransaction({ serializedTransaction: raw }).then(
        () => "sent" as const,
        (err: unknown) => sendRefusal(err),
      );
    },
  } satisfies Partial<BaseChain>;
}

/** A slot's v4 instance (token, funding nonce, deadline) and a funder's release signature checked. */
function slotCalls(r: Rail) {
  const { cfg, client } = r;
  return {
    async slotInstance(missionKey: Hex, funder: string, contract?: string) {
      const address = toAddress(contract ?? cfg.escrow);
      if ((r.versionOf(address) ?? cfg.escrowVersion ?? "4") !== "4") return null;
      const args = [missionKey, toAddress(funder)] as const;
      const [[nonce], [token, amount], refundAfter] = await Promise.all([
        rpc(() => client.readContract({ address, abi: missionEscrowAbi, functionName: "slotOf", args })),
        rpc(() => client.readContract({ address, abi: missionEscrowAbi, functionName: "depositOf", args })),
        rpc(() => client.readContract({ address, abi: missionEscrowAbi, functionName: "refundAfterOf", args })),
      ]);
      if (amount === 0n) return null;
      return { token: token.toLowerCase(), fundingNonce: BigInt(nonce), deadline: BigInt(refundAfter) };
    },
    async verifyRelease(contract: string, plan: ReleasePlan, signature: Hex) {
      // An EOA's signature verifies locally (no RPC); anything else may be a smart wallet
      // (ERC-1271, or ERC-6492 before deployment): the public client asks the chain.
      if (await verifyReleaseLocally(cfg.chainId, contract, plan, signature)) return true;
      return rpc(() =>
        client.verifyTypedData({
          ...releaseTypedData(cfg.chainId, contract, plan),
          address: toAddress(plan.funder),
          signature,
        } as unknown as Parameters<typeof client.verifyTypedData>[0]),
      ).catch((err: unknown) => {
        if (err instanceof RpcUnavailableError) throw err;
        return false; // the wallet's check reverted: not its signature
      });
    },
  } satisfies Partial<BaseChain>;
}

/**
 * Why the node would not estimate a payout — outcomes, not outages: only a transport failure is
 * the RPC's fault (thrown as RpcUnavailableError).
 */
export function estimateRefusal(err: unknown): string {
  const revert = revertOf(err);
  if (revert !== null) return revert;
  if (isTransportError(err)) throw new RpcUnavailableError(err);
  if (err instanceof BaseError && err.walk((e) => e instanceof InsufficientFundsError)) return "insufficient_funds";
  const msg = err instanceof BaseError ? err.shortMessage : String(err);
  return `rejected:${msg.slice(0, 120)}`;
}

const transferData = (t: TokenTransfer) =>
  encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [toAddress(t.to), t.amount] });

/** A refused raw transaction's outcome; anything unrecognised is the RPC's failure. */
export function sendRefusal(err: unknown): SendResult {
  const text = errorText(err);
  if (/already known|known transaction|already imported|transaction already exists/i.test(text)) return "known";
  if (/nonce too low|nonce has already been used|NonceTooLow/i.test(text)) return "nonce_too_low";
  if (/insufficient funds|InsufficientFunds/i.test(text)) return "insufficient_funds";
  if (/underpriced|replacement transaction|fee too low/i.test(text)) return "underpriced";
  throw new RpcUnavailableError(err);
}

/**
 * An address as viem's type, lower-case; anything else is a bug upstream (addresses come from the
 * configuration, which validates them, and from logs).
 */
function toAddress(text: string): Address {
  const a = text.toLowerCase();
  if (!isAddress(a, { strict: false })) throw new Error(`not an address: ${JSON.stringify(text.slice(0, 64))}`);
  return a;
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
