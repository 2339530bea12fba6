import { encodeFunctionData, erc20Abi, keccak256, type Address, type Hex } from "viem";
import { missionEscrowAbi } from "./abi/mission-escrow";
import {
  RpcUnavailableError,
  estimateRefusal,
  sendRefusal,
  type BaseChain,
  type EscrowCall,
  type Estimate,
  type SendResult,
  type TokenTransfer,
  type TxFees,
} from "./base-chain";
import { callData, rpc, toAddress, type Rail } from "./base-chain.rpc";
import { SignerUnavailableError, type ResolverSigner } from "./resolver-signer";
import { releaseTypedData, verifyReleaseLocally, type ReleasePlan } from "./release-typed-data";

/** Estimating, signing and sending a settlement transaction. */
export function payoutCalls(r: Rail, account: ResolverSigner | null) {
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
export function slotCalls(r: Rail) {
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

const transferData = (t: TokenTransfer) =>
  encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [toAddress(t.to), t.amount] });
