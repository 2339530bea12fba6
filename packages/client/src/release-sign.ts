import type { Address, Hex, TypedDataDomain } from "viem";
import { OabpError } from "./errors.js";

// Funder-signed releases (docs/base-rail.md "Funding from the tools"; contract releaseSigned):
// on the base rail a creator_judges award carries, for every escrow slot the creator funded, the
// creator's EIP-712 signature over (missionKey, funder, recipients, amounts, fee). The server
// builds the typed data (POST /missions/{id}/award/typed-data, same body as the award); the
// signer signs each entry and the award carries them as `release_signatures`. A slot without a
// signature goes through the contract's delayed path instead. Shared by the library, the CLI and
// the web board (which signs with the wallet's eth_signTypedData_v4).

/** One entry of the typed-data answer, as the server sends it (amounts as base-10 strings). */
export interface ReleaseToSign {
  mission_key: string;
  funder: string;
  typed_data: {
    domain: TypedDataDomain & { chainId?: number | string | bigint };
    types: Record<string, { name: string; type: string }[]>;
    primaryType: string;
    message: {
      missionKey: string;
      funder: string;
      recipients: string[];
      amounts: (string | number)[];
      fee: string | number;
      /** Contract v4: the slot's token, its funding nonce and the signature's deadline (base-10). */
      token?: string;
      fundingNonce?: string | number;
      deadline?: string | number;
    };
  };
}

export interface ReleaseTypedDataAnswer {
  releases: ReleaseToSign[];
}

/** The typed data with numbers as bigint and chainId as a number, as viem's signTypedData wants it. */
export function releaseTypedData(r: ReleaseToSign) {
  const { domain, types, message } = r.typed_data;
  const { EIP712Domain: _omit, ...rest } = types;
  return {
    domain: { ...domain, chainId: domain.chainId === undefined ? undefined : Number(domain.chainId) },
    types: rest,
    primaryType: "Release" as const,
    message: {
      missionKey: message.missionKey as Hex,
      funder: message.funder as Address,
      recipients: message.recipients as Address[],
      amounts: message.amounts.map((a) => BigInt(a)),
      fee: BigInt(message.fee),
      ...(message.token !== undefined && {
        token: message.token as Address,
        fundingNonce: BigInt(message.fundingNonce ?? 0),
        deadline: BigInt(message.deadline ?? 0),
      }),
    },
  };
}

export type TypedDataSigner = (td: ReturnType<typeof releaseTypedData>) => Promise<Hex>;

/**
 * Signs every release the server listed with `sign` (the funder's key or wallet); refuses entries
 * whose funder is not `signer` (a wrong wallet account would only earn a 422 later).
 */
export async function signReleases(
  releases: ReleaseToSign[],
  signer: string,
  sign: TypedDataSigner,
): Promise<Record<string, Hex>> {
  const out: Record<string, Hex> = {};
  for (const r of releases) {
    if (r.funder.toLowerCase() !== signer.toLowerCase())
      throw new OabpError(
        0,
        "WRONG_SIGNER",
        `the release of slot ${r.mission_key} needs the funder ${r.funder}'s signature; this account is ${signer}`,
      );
    out[r.mission_key] = await sign(releaseTypedData(r));
  }
  return out;
}
