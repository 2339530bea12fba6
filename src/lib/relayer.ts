import {
  BaseError,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  defineChain,
  encodeFunctionData,
  getAddress,
  http,
  isHex,
  parseAbi,
  parseSignature,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { findRevertData, revertOf } from "./chain-errors";
import { missionEscrowAbi } from "./abi/mission-escrow";

// The relayer (docs/payments.md): a hot key holding only gas money that sends what a payer signed
// (EIP-3009 authorizations) so the payer needs no gas of its own. It never holds tokens: an
// `exact` payment moves from the payer to the treasury, a funding authorization from the funder
// to the escrow. Its nonces are its own (the node's pending count), apart from the resolver's.

const EIP3009_ABI = parseAbi([
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "function balanceOf(address owner) view returns (uint256)",
  "function name() view returns (string)",
  "function version() view returns (string)",
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "error AuthorizationNotYetValid()",
  "error AuthorizationExpired()",
  "error AuthorizationUsedAlready()",
  "error InvalidAuthorizationSignature()",
  "error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)",
]);

/** How far back a used authorization's transaction is searched (an x402 payment lives minutes, not days). */
const LOOKBACK_BLOCKS = 10_000n;

/** An EIP-3009 authorization as signed (x402 `exact` on EVM: `payload.authorization`). */
interface Authorization {
  from: string;
  to: string;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: string;
}

/** The terms of a contract v4 `fundWithAuthorization` call (contracts/MissionEscrow.sol). */
interface FundingAuthorization {
  escrow: string;
  missionKey: string;
  token: string;
  amount: bigint;
  spamFee: bigint;
  refundAfter: bigint;
  signedOnlyUntil: bigint;
  from: string;
  validAfter: bigint;
  validBefore: bigint;
  salt: string;
  signature: string;
}

/** A relayed call: mined (with its status), or refused before sending (the named revert). */
type RelayResult = { ok: true; txHash: Hex; status: "success" | "reverted" } | { ok: false; revert: string };

export interface Relayer {
  /** lower-case 0x address of the relayer key. */
  readonly address: string;
  /** `token.transferWithAuthorization(auth, signature)`: simulated first, then sent and awaited. */
  transferWithAuthorization(token: string, auth: Authorization, signature: string): Promise<RelayResult>;
  /** `escrow.fundWithAuthorization(…)` (contract v4): simulated first, then sent and awaited. */
  fundWithAuthorization(f: FundingAuthorization): Promise<RelayResult>;
  /** Has the token consumed this authorization nonce of `from` (EIP-3009 `authorizationState`)? */
  authorizationUsed(token: string, from: string, nonce: string): Promise<boolean>;
  tokenBalance(token: string, owner: string): Promise<bigint>;
  /** The transaction that used this authorization (its AuthorizationUsed log in the last 10 000 blocks), or null. */
  authorizationTx(token: string, from: string, nonce: string): Promise<Hex | null>;
  /** The token's EIP-712 domain name and version (ERC-5267 `eip712Domain`, else `name()` / `version()` as USDC has them). */
  tokenDomain(token: string): Promise<{ name: string; version: string }>;
  /** The transaction's status, or null while it is not mined (or unknown to the node). */
  receiptStatus(txHash: string): Promise<"success" | "reverted" | null>;
}

/** A revert's name, decoded with the token's EIP-3009 errors as well as the escrow's; null: not a revert. */
function namedRevert(err: unknown): string | null {
  const data = err instanceof BaseError ? findRevertData(err) : undefined;
  if (data)
    try {
      return decodeErrorResult({ abi: [...EIP3009_ABI, ...missionEscrowAbi], data }).errorName;
    } catch {
      // not one of ours: the generic decoding below names it
    }
  return revertOf(err);
}

/** A 0x hex string (a nonce, salt, signature or key), or an error: what reaches the chain is checked once here. */
export function hexOf(value: string): Hex {
  if (!isHex(value)) throw new Error(`not a 0x hex string: ${value.slice(0, 12)}`);
  return value;
}

type Client = PublicClient<Transport, Chain>;

export function createRelayer(cfg: { rpcUrl: string; chainId: number; key: string; timeoutMs: number }): Relayer {
  // No viem nonceManager: it is one per process keyed by address and chain, so it runs ahead of a
  // node that dropped a transaction (or of another chain with the same id, as in tests) and every
  // later send waits forever behind the gap. Each send takes the node's pending count instead, one
  // send at a time in this process; another process's send at the same moment fails the loser's
  // call, which its caller retries (docs/payments.md "Exactly once").
  const account = privateKeyToAccount(hexOf(cfg.key));
  let sending: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(send: () => Promise<T>): Promise<T> => {
    const next = sending.then(send, send);
    sending = next.catch(() => undefined);
    return next;
  };
  const transport = http(cfg.rpcUrl, { timeout: cfg.timeoutMs, retryCount: 0 });
  const chain = defineChain({
    id: cfg.chainId,
    name: `eip155:${cfg.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [cfg.rpcUrl] } },
  });
  const client: Client = createPublicClient({ chain, transport, pollingInterval: 250 });
  const wallet = createWalletClient({ chain, transport, account });

  /** Simulates (a revert is an outcome, never sent), then signs, sends and waits for the receipt (bounded). */
  async function relay(to: string, data: Hex): Promise<RelayResult> {
    const target = getAddress(to);
    try {
      await client.call({ account: account.address, to: target, data });
    } catch (err) {
      const revert = namedRevert(err);
      if (revert !== null) return { ok: false, revert };
      throw err;
    }
    let txHash: Hex;
    try {
      txHash = await oneAtATime(() => wallet.sendTransaction({ to: target, data }));
    } catch (err) {
      // Mined by someone else between the simulation and the send: the estimate reverts now.
      const revert = namedRevert(err);
      if (revert !== null) return { ok: false, revert };
      throw err;
    }
    const receipt = await client.waitForTransactionReceipt({ hash: txHash, timeout: 60_000 });
    return { ok: true, txHash, status: receipt.status };
  }

  return { address: account.address.toLowerCase(), ...relayCalls(relay), ...tokenReads(client) };
}

function relayCalls(
  relay: (to: string, data: Hex) => Promise<RelayResult>,
): Pick<Relayer, "transferWithAuthorization" | "fundWithAuthorization"> {
  return {
    transferWithAuthorization(token, auth, signature) {
      const { v, r, s } = parseSignature(hexOf(signature));
      const data = encodeFunctionData({
        abi: EIP3009_ABI,
        functionName: "transferWithAuthorization",
        args: [
          getAddress(auth.from),
          getAddress(auth.to),
          auth.value,
          auth.validAfter,
          auth.validBefore,
          hexOf(auth.nonce),
          Number(v),
          r,
          s,
        ],
      });
      return relay(token, data);
    },
    fundWithAuthorization(f) {
      const { v, r, s } = parseSignature(hexOf(f.signature));
      const auth = {
        from: getAddress(f.from),
        validAfter: f.validAfter,
        validBefore: f.validBefore,
        salt: hexOf(f.salt),
      };
      const data = encodeFunctionData({
        abi: missionEscrowAbi,
        functionName: "fundWithAuthorization",
        args: [
          hexOf(f.missionKey),
          getAddress(f.token),
          f.amount,
          f.spamFee,
          f.refundAfter,
          f.signedOnlyUntil,
          { ...auth, v: Number(v), r, s },
        ],
      });
      return relay(f.escrow, data);
    },
  };
}

function tokenReads(client: Client): Omit<Relayer, "address" | "transferWithAuthorization" | "fundWithAuthorization"> {
  const token = (address: string) => ({ address: getAddress(address), abi: EIP3009_ABI }) as const;
  return {
    authorizationUsed: (t, from, nonce) =>
      client.readContract({ ...token(t), functionName: "authorizationState", args: [getAddress(from), hexOf(nonce)] }),
    tokenBalance: (t, owner) =>
      client.readContract({ ...token(t), functionName: "balanceOf", args: [getAddress(owner)] }),
    async authorizationTx(t, from, nonce) {
      const latest = await client.getBlockNumber();
      const logs = await client.getContractEvents({
        ...token(t),
        eventName: "AuthorizationUsed",
        args: { authorizer: getAddress(from), nonce: hexOf(nonce) },
        fromBlock: latest > LOOKBACK_BLOCKS ? latest - LOOKBACK_BLOCKS : 0n,
        toBlock: latest,
      });
      return logs[0]?.transactionHash ?? null;
    },
    async tokenDomain(t) {
      try {
        const [, name, version] = await client.readContract({ ...token(t), functionName: "eip712Domain" });
        return { name, version };
      } catch (err) {
        if (namedRevert(err) === null) throw err; // an outage, not a token without ERC-5267
        const [name, version] = await Promise.all([
          client.readContract({ ...token(t), functionName: "name" }),
          client.readContract({ ...token(t), functionName: "version" }),
        ]);
        return { name, version };
      }
    },
    async receiptStatus(txHash) {
      const r = await client.getTransactionReceipt({ hash: hexOf(txHash) }).catch(() => null);
      return r ? r.status : null;
    },
  };
}
