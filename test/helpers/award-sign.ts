import type { Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { TestApp } from "./app";

// The creator's side of a signed award (docs/base-rail.md "Release paths"), as the board, the client
// and the CLI do it: fetch the typed data of the award, sign each release, post the award with them.

export interface TypedRelease {
  mission_key: string;
  funder: string;
  typed_data: {
    domain: { name: string; version: string; chainId: number; verifyingContract: string };
    types: { Release: { name: string; type: string }[] };
    primaryType: "Release";
    message: {
      missionKey: string;
      funder: string;
      recipients: string[];
      amounts: string[];
      fee: string;
      /** Contract v4: the slot's token, funding nonce and the signature's deadline. */
      token?: string;
      fundingNonce?: string;
      deadline?: string;
    };
  };
}

/** Signs one typed release with the types the server sent (v3 or v4; numbers as bigint, as viem needs them). */
export function signTyped(account: PrivateKeyAccount, r: TypedRelease): Promise<Hex> {
  const { domain, message, types } = r.typed_data;
  return account.signTypedData({
    domain: { ...domain, verifyingContract: domain.verifyingContract as Hex },
    types: { Release: types.Release },
    primaryType: "Release",
    message: {
      ...message,
      amounts: message.amounts.map(BigInt),
      fee: BigInt(message.fee),
      ...(message.fundingNonce !== undefined && { fundingNonce: BigInt(message.fundingNonce) }),
      ...(message.deadline !== undefined && { deadline: BigInt(message.deadline) }),
    },
  });
}

/** POST /missions/{id}/award with the creator's signature on every release it can sign. */
export async function signedAward(
  t: TestApp,
  creator: { token: string; account: PrivateKeyAccount },
  missionId: string,
  body: { winners: { submission_id: string; share_bps?: number }[] },
) {
  const typed = await t.call("POST", `/missions/${missionId}/award/typed-data`, { token: creator.token, body });
  if (typed.status !== 200) throw new Error(`typed-data failed: ${typed.status} ${typed.text}`);
  const releases = typed.body.releases as TypedRelease[];
  const release_signatures = Object.fromEntries(
    await Promise.all(releases.map(async (r) => [r.mission_key, await signTyped(creator.account, r)] as const)),
  );
  const award = await t.call("POST", `/missions/${missionId}/award`, {
    token: creator.token,
    body: { ...body, release_signatures },
  });
  return { typed: releases, award };
}
