import { encodeAbiParameters, keccak256, verifyTypedData, type Address, type Hex } from "viem";

// The two release paths of MissionEscrow v3 (docs/base-rail.md "Release paths"), pure parts:
// the funder's EIP-712 consent (path 1, releaseSigned) and the hash a delayed proposal is stored
// under (path 2, proposeRelease / proposalOf).

export interface ReleasePlan {
  missionKey: Hex;
  funder: string;
  recipients: string[];
  amounts: bigint[];
  fee: bigint;
}

export const RELEASE_TYPES = {
  Release: [
    { name: "missionKey", type: "bytes32" },
    { name: "funder", type: "address" },
    { name: "recipients", type: "address[]" },
    { name: "amounts", type: "uint256[]" },
    { name: "fee", type: "uint256" },
  ],
} as const;

export const releaseDomain = (chainId: number, escrow: string) => ({
  name: "MissionEscrow" as const,
  version: "3" as const,
  chainId,
  verifyingContract: escrow as Address,
});

/** viem typed data of a release (signTypedData / verifyTypedData input). */
export function releaseTypedData(chainId: number, escrow: string, p: ReleasePlan) {
  return {
    domain: releaseDomain(chainId, escrow),
    types: RELEASE_TYPES,
    primaryType: "Release" as const,
    message: {
      missionKey: p.missionKey,
      funder: p.funder as Address,
      recipients: p.recipients as Address[],
      amounts: p.amounts,
      fee: p.fee,
    },
  };
}

/** The same, with amounts as base-10 strings (the wire form of POST /missions/{id}/award/typed-data). */
export function releaseTypedDataWire(chainId: number, escrow: string, p: ReleasePlan) {
  const t = releaseTypedData(chainId, escrow, p);
  return {
    ...t,
    types: { Release: RELEASE_TYPES.Release.map((f) => ({ ...f })) },
    message: {
      missionKey: p.missionKey,
      funder: p.funder,
      recipients: p.recipients,
      amounts: p.amounts.map(String),
      fee: p.fee.toString(),
    },
  };
}

/** An EOA's signature over the plan (local ecrecover; smart wallets need the chain: BaseChain.verifyRelease). */
export function verifyReleaseLocally(
  chainId: number,
  escrow: string,
  p: ReleasePlan,
  signature: Hex,
): Promise<boolean> {
  return verifyTypedData({ ...releaseTypedData(chainId, escrow, p), address: p.funder as Address, signature }).catch(
    () => false,
  );
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
