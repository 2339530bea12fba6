import {
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  parseEventLogs,
  type Hex,
  type Log,
  type TransactionReceipt,
} from "viem";
import type { ChainDepth } from "../env";
import { missionEscrowAbi } from "./abi/mission-escrow";
import type { BaseChain, EscrowCall, EscrowEvent, FundedLog, TxReceipt } from "./base-chain";
import { abiOf, rpc, toAddress, type Rail } from "./base-chain.rpc";
import { movementsOf, type SlotMovement } from "./escrow-movements";

const ZERO_HASH = `0x${"0".repeat(64)}` as const;

/** Funding and settlement logs, handled by the deposit watcher and the settlement worker, not indexed as events. */
const SETTLEMENT_EVENTS = new Set(["Funded", "Released", "Refunded", "Paid"]);

/** The contract's own state, the heads, balances and the chain's clock. */
export function stateReads(r: Rail) {
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
export function receiptReads(r: Rail) {
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
export function logReads(r: Rail) {
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
