import { BaseError, InsufficientFundsError, type Hex } from "viem";
import { errorText, isTransportError, revertOf } from "./chain-errors";
import type { Relayer } from "./relayer";
import type { SlotMovement } from "./escrow-movements";
import type { ReleasePlan, SlotInstance } from "./release-typed-data";

// The base rail's chain port (docs/style.md "Chain behind a port"): every RPC call of the escrow
// watcher and the settlement worker goes through here, so the rest of the code sees plain data
// and three failure kinds (unreachable RPC, revert, not found) rather than viem's error zoo.
// This file is the port (its types and refusal decoders); `createBaseChain` (base-chain.viem.ts)
// builds it over one viem client from its reads (base-chain.reads.ts) and its signed calls
// (base-chain.sends.ts), which share the helpers of base-chain.rpc.ts.

/** Timeout of one JSON-RPC request of the base rail. */
export const RPC_TIMEOUT_MS = 10_000;

/** A MissionEscrow version the server calls (docs/base-rail.md "Migrating to a new escrow"). */
export type EscrowVersion = "2" | "3" | "4";

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
export interface TokenTransfer {
  token: string;
  to: string;
  amount: bigint;
}
export type TxFees = { nonce: number; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

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

/** A refused raw transaction's outcome; anything unrecognised is the RPC's failure. */
export function sendRefusal(err: unknown): SendResult {
  const text = errorText(err);
  if (/already known|known transaction|already imported|transaction already exists/i.test(text)) return "known";
  if (/nonce too low|nonce has already been used|NonceTooLow/i.test(text)) return "nonce_too_low";
  if (/insufficient funds|InsufficientFunds/i.test(text)) return "insufficient_funds";
  if (/underpriced|replacement transaction|fee too low/i.test(text)) return "underpriced";
  throw new RpcUnavailableError(err);
}
