import {
  createPublicClient,
  encodeFunctionData,
  http,
  keccak256,
  parseEventLogs,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { BaseRailConfig, Erc8004Config } from "../../env";
import { identityRegistryUpgradeableAbi } from "../../lib/abi/erc8004-identity";
import { reputationRegistryUpgradeableAbi } from "../../lib/abi/erc8004-reputation";
import {
  estimateRefusal,
  RpcUnavailableError,
  sendRefusal,
  type Estimate,
  type SendResult,
} from "../../lib/base-chain";
import { isTransportError } from "../../lib/chain-errors";

import { RPC_TIMEOUT_MS } from "../../lib/base-chain";

// The reporter key's view of the ERC-8004 registries (docs/erc-8004.md): estimate, sign (nothing
// sent), send stored bytes, read receipts. Its own key, never the resolver's: the reference
// ReputationRegistry refuses feedback from an agent's owner or operator, and the resolver pays the
// agents this key rates.

/** One unsent call of the reporter key. */
export interface Call {
  to: string;
  data: Hex;
}
export interface Mined {
  status: "success" | "reverted";
  blockNumber: number;
  /** Registered(agentId) of a registration; NewFeedback(feedbackIndex) of a feedback. */
  agentId: bigint | null;
  feedbackIndex: number | null;
}
/** tag1 of every entry this server writes: a paid, accepted mission (docs/erc-8004.md "Feedback"). */
const FEEDBACK_TAG = "oabpPaidMission";
/** value 1, valueDecimals 0: the winner was paid for accepted work (binary, ERC-8004 §Reputation examples). */
const FEEDBACK_VALUE = 1n;
type Fees = { nonce: number; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

async function rpc<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (isTransportError(err)) throw new RpcUnavailableError(err);
    throw err;
  }
}

export function reporterChain(rail: BaseRailConfig, cfg: Erc8004Config) {
  const client = createPublicClient({ transport: http(rail.rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }) });
  const account = privateKeyToAccount(cfg.reporterKey.reveal() as Hex);
  const address = account.address.toLowerCase();
  const identity = cfg.identityRegistry as Address;
  return {
    chainId: rail.chainId,
    /** allocateNonce keys the shared nonce row by this address (docs/withdrawals.md "Exactly once"). */
    resolver: address,
    register: (agentUri: string): Call => ({
      to: identity,
      data: encodeFunctionData({ abi: identityRegistryUpgradeableAbi, functionName: "register", args: [agentUri] }),
    }),
    giveFeedback: (f: { agentId: bigint; tag2: string; endpoint: string; uri: string; hash: Hex }): Call => ({
      to: cfg.reputationRegistry,
      data: encodeFunctionData({
        abi: reputationRegistryUpgradeableAbi,
        functionName: "giveFeedback",
        args: [f.agentId, FEEDBACK_VALUE, 0, FEEDBACK_TAG, f.tag2, f.endpoint, f.uri, f.hash],
      }),
    }),
    /** The owner and the agentWallet of an ERC-8004 agent (lower-case); null when it does not exist. */
    holders: (agentId: bigint) => holdersOf(client, identity, agentId),
    async estimate(call: Call): Promise<Estimate> {
      try {
        const gas = await client.estimateGas({ account: account.address, to: call.to as Address, data: call.data });
        return { ok: true, gas: (gas * 12n) / 10n };
      } catch (err) {
        return { ok: false, revert: estimateRefusal(err) };
      }
    },
    async sign(call: Call, p: Fees): Promise<{ raw: Hex; hash: string }> {
      const raw = await account.signTransaction({
        type: "eip1559",
        chainId: rail.chainId,
        to: call.to as Address,
        data: call.data,
        value: 0n,
        ...p,
      });
      return { raw, hash: keccak256(raw).toLowerCase() };
    },
    sendRaw: (raw: Hex): Promise<SendResult> =>
      client.sendRawTransaction({ serializedTransaction: raw }).then(
        () => "sent" as const,
        (err: unknown) => sendRefusal(err),
      ),
    pendingNonce: () => rpc(() => client.getTransactionCount({ address: account.address, blockTag: "pending" })),
    minedNonce: () => rpc(() => client.getTransactionCount({ address: account.address, blockTag: "latest" })),
    receipt: (txHash: string) => receiptOf(client, identity, txHash),
  };
}
export type ReporterChain = ReturnType<typeof reporterChain>;

type Client = ReturnType<typeof createPublicClient>;

async function holdersOf(client: Client, identity: Address, agentId: bigint) {
  const read = (functionName: "ownerOf" | "getAgentWallet") =>
    rpc(() =>
      client.readContract({ address: identity, abi: identityRegistryUpgradeableAbi, functionName, args: [agentId] }),
    );
  try {
    const [owner, wallet] = await Promise.all([read("ownerOf"), read("getAgentWallet")]);
    return { owner: owner.toLowerCase(), wallet: wallet.toLowerCase() };
  } catch (err) {
    if (err instanceof RpcUnavailableError) throw err;
    return null; // ERC721NonexistentToken
  }
}

/** A mined write's status and what it created: Registered(agentId) or NewFeedback(feedbackIndex). */
async function receiptOf(client: Client, identity: Address, txHash: string): Promise<Mined | null> {
  const r = await rpc(() => client.getTransactionReceipt({ hash: txHash as Hex })).catch((err: unknown) => {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    throw err;
  });
  if (!r) return null;
  const logs = parseEventLogs({
    abi: [...identityRegistryUpgradeableAbi, ...reputationRegistryUpgradeableAbi],
    logs: r.logs,
    strict: false,
  });
  const registered = logs.find((l) => l.eventName === "Registered" && l.address.toLowerCase() === identity);
  const feedback = logs.find((l) => l.eventName === "NewFeedback");
  return {
    status: r.status,
    blockNumber: Number(r.blockNumber),
    agentId: registered?.eventName === "Registered" ? (registered.args.agentId ?? null) : null,
    feedbackIndex:
      feedback?.eventName === "NewFeedback" && feedback.args.feedbackIndex !== undefined
        ? Number(feedback.args.feedbackIndex)
        : null,
  };
}
