import { encodeAbiParameters, keccak256, verifyTypedData, type Address, type Hex } from "viem";

// The two release paths of MissionEscrow v3 and v4 (docs/base-rail.md "Release paths"), pure
// parts: the funder's EIP-712 consent (path 1, releaseSigned) and the hash a delayed proposal is
// stored under (path 2, proposeRelease / proposalOf). A v4 consent also binds the slot instance:
// its token, its funding nonce and a deadline (docs/base-rail.md "Trust model (contract v4)").

/** The slot instance a v4 signature binds (slotOf / depositOf on chain) and the signature's deadline. */
export interface SlotInstance {
  token: string;
  fundingNonce: bigint;
  /** Unix seconds; the server uses the slot's refund-after (docs/decisions/base-rail.md "Contract v4"). */
  deadline: bigint;
}

export interface ReleasePlan {
  missionKey: Hex;
  funder: string;
  recipients: string[];
  amounts: bigint[];
  fee: bigint;
  /** Present for a slot of a v4 contract: the typed data is v4's. */
  slot?: SlotInstance | undefined;
}

const RELEASE_TYPES = {
  Release: [
    { name: "missionKey", type: "bytes32" },
    { name: "funder", type: "address" },
    { name: "recipients", type: "address[]" },
    { name: "amounts", type: "uint256[]" },
    { name: "fee", type: "uint256" },
  ],
} as const;

/** Contract v4's Release: v3's fields plus the slot's token, its funding nonce and a deadline. */
const RELEASE_TYPES_V4 = {
  Release: [
    { name: "missionKey", type: "bytes32" },
    { name: "funder", type: "address" },
    { name: "token", type: "address" },
    { name: "fundingNonce", type: "uint256" },
    { name: "recipients", type: "address[]" },
    { name: "amounts", type: "uint256[]" },
    { name: "fee", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

const releaseDomain = (chainId: number, escrow: string, version: "3" | "4" = "3") => ({
  name: "MissionEscrow" as const,
  version,
  chainId,
  verifyingContract: escrow as Address,
});

/** viem typed data of a release (signTypedData / verifyTypedData input): v4's when the plan names its slot instance. */
export function releaseTypedData(chainId: number, escrow: string, p: ReleasePlan) {
  const base = {
    missionKey: p.missionKey,
    funder: p.funder as Address,
    recipients: p.recipients as Address[],
    amounts: p.amounts,
    fee: p.fee,
  };
  if (p.slot)
    return {
      domain: releaseDomain(chainId, escrow, "4"),
      types: RELEASE_TYPES_V4,
      primaryType: "Release" as const,
      message: {
        ...base,
        token: p.slot.token as Address,
        fundingNonce: p.slot.fundingNonce,
        deadline: p.slot.deadline,
      },
    };
  return {
    domain: releaseDomain(chainId, escrow),
    types: RELEASE_TYPES,
    primaryType: "Release" as const,
    message: base,
  };
}

/** The same, with numbers as base-10 strings (the wire form of POST /missions/{id}/award/typed-data). */
export function releaseTypedDataWire(chainId: number, escrow: string, p: ReleasePlan) {
  const t = releaseTypedData(chainId, escrow, p);
  const message = {
    missionKey: p.missionKey,
    funder: p.funder,
    recipients: p.recipients,
    amounts: p.amounts.map(String),
    fee: p.fee.toString(),
  };
  return {
    domain: t.domain,
    primaryType: t.primaryType,
    types: { Release: (p.slot ? RELEASE_TYPES_V4 : RELEASE_TYPES).Release.map((f) => ({ ...f })) },
    message: p.slot
      ? {
          ...message,
          token: p.slot.token,
          fundingNonce: p.slot.fundingNonce.toString(),
          deadline: p.slot.deadline.toString(),
        }
      : message,
  };
}

/** An EOA's signature over the plan (local ecrecover; smart wallets need the chain: BaseChain.verifyRelease). */
export function verifyReleaseLocally(
  chainId: number,
  escrow: string,
  p: ReleasePlan,
  signature: Hex,
): Promise<boolean> {
  // The v3 and v4 shapes are one union; viem's overloads want one literal type: checked at runtime.
  const params = { ...releaseTypedData(chainId, escrow, p), address: p.funder as Address, signature };
  return verifyTypedData(params as unknown as Parameters<typeof verifyTypedData>[0]).catch(() => false);
}

/** keccak256(abi.encode(recipients, amounts, fee)): what proposalOf(key, funder) holds for this plan. */
export function proposalHashOf(p: Pick<ReleasePlan, "recipients" | "amounts" | "fee">): string {
  return keccak256(
    encodeAbiParameters(
      [{ type: "address[]" }, { type: "uint256[]" }, { type: "uint256" }],
      [p.recipients as Address[], p.amounts, p.fee],
    ),
  ).toLowerCase();
}
