import {
  BaseError,
  decodeErrorResult,
  domainSeparator,
  encodeFunctionData,
  erc20Abi,
  parseAbi,
  type Account,
  type Address,
  type Chain,
  type Client,
  type Hex,
  type Transport,
  type TypedDataDomain,
} from "viem";
// Tree-shakable actions over a bare Client: the web board bundles only these.
import {
  estimateGas,
  getBlock,
  getChainId,
  readContract,
  sendTransaction,
  signTypedData,
  waitForTransactionReceipt,
} from "viem/actions";
import { OabpError } from "./errors.js";
import { gasWithHeadroom } from "./gas.js";

// One escrow deposit, the way every tool of the project makes it (docs/base-rail.md "Funding from the tools"):
// `fundUntil` with the refund-after the server asked for — never `fund()`, whose 365-day
// refund-after locks the funder in — sent with the gas headroom of gas.ts. With an EIP-2612 token
// and a v3 escrow, `fundUntilWithPermit` takes the allowance from a signature (no approve
// transaction); otherwise approve + fundUntil. Works over any viem client: the library and the CLI
// give it an HTTP RPC and a local key, the web board the browser wallet (EIP-1193 `custom`).

/** Reads and estimates (any viem client: a PublicClient, or a bare `createClient`). */
export type ReadClient = Client<Transport, Chain | undefined>;
/** Signs and sends as the funder (a WalletClient, or a bare `createClient` with an account). */
export type SignClient = Client<Transport, Chain | undefined, Account | undefined>;

export const escrowFundAbi = parseAbi([
  "function fundUntil(bytes32 missionKey, address token, uint256 amount, uint256 spamFee, uint256 refundAfter)",
  "function fundUntilWithPermit(bytes32 missionKey, address token, uint256 amount, uint256 spamFee, uint256 refundAfter, uint256 permitDeadline, uint8 v, bytes32 r, bytes32 s)",
  "function refundAfterOf(bytes32 missionKey, address funder) view returns (uint64)",
  "function fundUntil(bytes32 missionKey, address token, uint256 amount, uint256 spamFee, uint256 refundAfter, uint256 signedOnlyUntil)",
  "function fundUntilWithPermit(bytes32 missionKey, address token, uint256 amount, uint256 spamFee, uint256 refundAfter, uint256 signedOnlyUntil, uint256 permitDeadline, uint8 v, bytes32 r, bytes32 s)",
  "function version() pure returns (string)",
  // The refusals a funder can act on (contract v3/v4): named in the error the tools raise.
  "error GovernanceChangePending(uint64 since)",
  "error BadRefundAfter(uint256 refundAfter)",
  "error BadSignedOnlyUntil(uint256 signedOnlyUntil)",
  "error AlreadyFunded(bytes32 missionKey, address funder)",
  "error AlreadyReleased(bytes32 missionKey)",
]);

/** What a funder does about each refusal (docs/base-rail.md "Trust model (contract v4)"). */
const FUND_REFUSALS: Record<string, string> = {
  GovernanceChangePending:
    "a governance change of the escrow (resolver, guardian or admin) is pending: funding reopens once it takes effect or is cancelled",
  BadRefundAfter:
    "the refund-after time is in the past or more than 2 years ahead: use the mission's escrow.refund_after",
  BadSignedOnlyUntil: "the signed-only time is after the refund-after time: use the mission's escrow terms",
  AlreadyFunded: "this account already funded this mission key",
  AlreadyReleased: "this mission key was already released",
};

/** The escrow's custom error in a failed estimate, or undefined. */
function fundRefusal(err: unknown): { name: string; args: readonly unknown[] } | undefined {
  if (!(err instanceof BaseError)) return undefined;
  let data: Hex | undefined;
  err.walk((e) => {
    const d = (e as { data?: unknown }).data;
    if (typeof d === "string" && /^0x[0-9a-fA-F]{8,}$/.test(d)) data = d as Hex;
    return false;
  });
  if (!data) return undefined;
  try {
    const r = decodeErrorResult({ abi: escrowFundAbi, data });
    return { name: r.errorName, args: r.args ?? [] };
  } catch {
    return undefined;
  }
}

const permitTokenAbi = parseAbi([
  "function nonces(address owner) view returns (uint256)",
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function name() view returns (string)",
  "function version() view returns (string)",
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
]);

/** The deposit to make: a mission's `escrow` (refund_after ISO) or a top-up amendment's (unix seconds). */
export interface EscrowSlotTerms {
  contract: string;
  token: string;
  mission_key: string;
  amount: string;
  spam_fee: string;
  refund_after: string | number | null;
  /** Contract v4: the deposit's signed-only time (ISO or unix seconds; null/absent: 0). */
  signed_only_until?: string | number | null | undefined;
}

/** How the allowance is given: "auto" = permit when token and escrow support it, else approve. */
export type PermitMode = "auto" | "permit" | "approve";

export type FundStep = { step: "approve"; tx_hash: Hex } | { step: "permit" } | { step: "fund"; tx_hash: Hex };

/** The refund-after of the terms in unix seconds; the server states it for every fundUntil deposit. */
export function refundAfterSeconds(t: Pick<EscrowSlotTerms, "refund_after">): bigint {
  const r = t.refund_after;
  if (typeof r === "number") return BigInt(r);
  const ms = r === null ? Number.NaN : Date.parse(r);
  if (Number.isNaN(ms))
    throw new OabpError(
      0,
      "NO_REFUND_AFTER",
      "the server gave no escrow.refund_after for this deposit: fundUntil needs it (upgrade the server)",
    );
  return BigInt(Math.floor(ms / 1000));
}

/** A fund call ready to send: the node's estimate and the gas it is sent with (estimate + headroom). */
export interface PreparedFund {
  to: Address;
  data: Hex;
  estimate: bigint;
  gas: bigint;
}

/** Estimates `data` from `from` and adds the headroom of gas.ts (capped by the block gas limit). */
export async function prepareFund(pub: ReadClient, from: Address, to: Address, data: Hex): Promise<PreparedFund> {
  const [estimate, block] = await Promise.all([
    estimateGas(pub, { account: from, to, data }).catch((err: unknown) => {
      const refusal = fundRefusal(err);
      if (!refusal) throw err;
      throw new OabpError(
        0,
        "FUND_REFUSED",
        `the escrow refuses this deposit (${refusal.name}): ${FUND_REFUSALS[refusal.name] ?? "see the contract's error"}`,
        { reason: refusal.name, args: refusal.args.map(String) },
      );
    }),
    getBlock(pub, { blockTag: "latest" }),
  ]);
  return { to, data, estimate, gas: gasWithHeadroom(estimate, block.gasLimit) };
}

/** Sends a prepared call with its padded gas (or `gas` to override, e.g. a test of the exact estimate). */
export async function sendPrepared(wallet: SignClient, p: PreparedFund, gas: bigint = p.gas): Promise<Hex> {
  // chain null: no chain to assert (the board's bare client); the wallet's own chain was checked before.
  return sendTransaction(wallet, {
    account: wallet.account!,
    chain: wallet.chain ?? null,
    to: p.to,
    data: p.data,
    gas,
  });
}

/** EIP-712 domain of the token's EIP-2612 permit, or undefined when it has none we can reproduce. */
export async function permitDomain(pub: ReadClient, token: Address): Promise<TypedDataDomain | undefined> {
  const chainId = pub.chain?.id ?? (await getChainId(pub));
  let domain: TypedDataDomain;
  try {
    const d = await readContract(pub, { address: token, abi: permitTokenAbi, functionName: "eip712Domain" });
    domain = { name: d[1], version: d[2], chainId: Number(d[3]), verifyingContract: d[4] };
  } catch {
    // ERC-5267 is recent; USDC (FiatToken v2) has name() and version() instead.
    try {
      const name = await readContract(pub, { address: token, abi: permitTokenAbi, functionName: "name" });
      const version = await readContract(pub, {
        address: token,
        abi: permitTokenAbi,
        functionName: "version",
      }).catch(() => "1");
      domain = { name, version, chainId, verifyingContract: token };
    } catch {
      return undefined;
    }
  }
  try {
    const [separator] = await Promise.all([
      readContract(pub, { address: token, abi: permitTokenAbi, functionName: "DOMAIN_SEPARATOR" }),
      readContract(pub, { address: token, abi: permitTokenAbi, functionName: "nonces", args: [token] }),
    ]);
    return separator.toLowerCase() === domainSeparator({ domain }).toLowerCase() ? domain : undefined;
  } catch {
    return undefined;
  }
}

/** r, s, v of a 65-byte signature (v as 27/28); by hand, so the board's bundle has no curve library. */
function splitSignature(sig: Hex): { r: Hex; s: Hex; v: number } {
  if (!/^0x[0-9a-fA-F]{130}$/.test(sig)) throw new OabpError(0, "BAD_SIGNATURE", "a permit signature is 65 bytes");
  const v = Number.parseInt(sig.slice(130, 132), 16);
  return { r: `0x${sig.slice(2, 66)}`, s: `0x${sig.slice(66, 130)}`, v: v < 27 ? v + 27 : v };
}

/** The escrow's contract version ("2" when it predates version()). */
export async function escrowVersion(pub: ReadClient, escrow: Address): Promise<number> {
  const v = await readContract(pub, { address: escrow, abi: escrowFundAbi, functionName: "version" }).catch(() => "2");
  return Number.parseInt(v, 10) || 2;
}

export interface FundSlotOptions {
  pub: ReadClient;
  /** Has the funder's account (a local key, or the browser wallet's address over EIP-1193). */
  wallet: SignClient;
  terms: EscrowSlotTerms;
  permit?: PermitMode;
  onStep?: (s: FundStep) => void;
  /** Seconds a permit signature stays valid (default 3600). */
  permitTtl?: number;
}

export interface FundSlotResult {
  tx_hash: Hex;
  method: "permit" | "approve";
  refund_after: bigint;
  estimate: bigint;
  gas: bigint;
}

/** Makes one deposit: permit or approve, then fundUntil(…, refund_after) with gas headroom; waits until mined. */
export async function fundSlot(o: FundSlotOptions): Promise<FundSlotResult> {
  const { pub, wallet, terms } = o;
  const account = wallet.account;
  if (!account) throw new OabpError(0, "NO_ACCOUNT", "funding needs the funder's account");
  const from = account.address;
  const escrow = terms.contract as Address;
  const token = terms.token as Address;
  const key = terms.mission_key as Hex;
  const amount = BigInt(terms.amount);
  const spamFee = BigInt(terms.spam_fee);
  const total = amount + spamFee;
  const refundAfter = refundAfterSeconds(terms);
  // Contract v4 takes the signed-only time as fundUntil's last argument (docs/base-rail.md "Trust model (contract v4)").
  const v4 = (await escrowVersion(pub, escrow)) >= 4;
  const signedOnlyUntil =
    terms.signed_only_until == null
      ? 0n
      : typeof terms.signed_only_until === "number"
        ? BigInt(terms.signed_only_until)
        : BigInt(Math.ceil(Date.parse(terms.signed_only_until) / 1000));
  const mined = async (hash: Hex) => {
    const r = await waitForTransactionReceipt(pub, { hash, timeout: 300_000 });
    if (r.status !== "success") throw new OabpError(0, "TX_REVERTED", `transaction ${hash} reverted`);
  };

  const mode = o.permit ?? "auto";
  let domain: TypedDataDomain | undefined;
  if (mode !== "approve") {
    domain = (await escrowVersion(pub, escrow)) >= 3 ? await permitDomain(pub, token) : undefined;
    if (!domain && mode === "permit")
      throw new OabpError(
        0,
        "PERMIT_UNSUPPORTED",
        `no permit funding here: the escrow needs fundUntilWithPermit (contract v3) and the token EIP-2612`,
      );
  }

  let data: Hex;
  if (domain) {
    const [nonce, block] = await Promise.all([
      readContract(pub, { address: token, abi: permitTokenAbi, functionName: "nonces", args: [from] }),
      getBlock(pub, { blockTag: "latest" }),
    ]);
    const deadline = block.timestamp + BigInt(o.permitTtl ?? 3600);
    o.onStep?.({ step: "permit" });
    const signature = await signTypedData(wallet, {
      account,
      domain,
      types: {
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
        ],
      },
      primaryType: "Permit",
      message: { owner: from, spender: escrow, value: total, nonce, deadline },
    });
    const { r, s, v } = splitSignature(signature);
    data = v4
      ? encodeFunctionData({
          abi: escrowFundAbi,
          functionName: "fundUntilWithPermit",
          args: [key, token, amount, spamFee, refundAfter, signedOnlyUntil, deadline, v, r, s],
        })
      : encodeFunctionData({
          abi: escrowFundAbi,
          functionName: "fundUntilWithPermit",
          args: [key, token, amount, spamFee, refundAfter, deadline, v, r, s],
        });
  } else {
    const allowance = await readContract(pub, {
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [from, escrow],
    });
    if (allowance < total) {
      const approve = await prepareFund(
        pub,
        from,
        token,
        encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [escrow, total] }),
      );
      const hash = await sendPrepared(wallet, approve);
      o.onStep?.({ step: "approve", tx_hash: hash });
      await mined(hash);
    }
    data = v4
      ? encodeFunctionData({
          abi: escrowFundAbi,
          functionName: "fundUntil",
          args: [key, token, amount, spamFee, refundAfter, signedOnlyUntil],
        })
      : encodeFunctionData({
          abi: escrowFundAbi,
          functionName: "fundUntil",
          args: [key, token, amount, spamFee, refundAfter],
        });
  }
  const prepared = await prepareFund(pub, from, escrow, data);
  const hash = await sendPrepared(wallet, prepared);
  o.onStep?.({ step: "fund", tx_hash: hash });
  await mined(hash);
  return {
    tx_hash: hash,
    method: domain ? "permit" : "approve",
    refund_after: refundAfter,
    estimate: prepared.estimate,
    gas: prepared.gas,
  };
}
