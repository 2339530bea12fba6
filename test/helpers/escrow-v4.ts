import { type Address, type Hex } from "viem";
import type { HDAccount } from "viem/accounts";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { signReleaseV4With, type EscrowChain, type ReleaseTerms } from "./escrow-chain";
import { contractAs, useV3Chain } from "./escrow-v3";

// Shared set-up of the contract v4 tests in test/chain/ (contracts/MissionEscrow.sol): the v3 set-up
// (one anvil, an evm snapshot around each test) with v4 deployed, its ABI and its signed release.

export type EscrowV4 = ReturnType<typeof escrowV4As>;
export const escrowV4As = (chain: EscrowChain, account: HDAccount, address: Address = chain.escrow) =>
  contractAs(missionEscrowAbi, chain, account, address);

export function useV4Chain(ready: (chain: EscrowChain) => Promise<void> | void): void {
  useV3Chain(ready, { version: "4" });
}

/** `funder`'s v4 signature over `terms` for its slot as it is now on chain (token and funding nonce read). */
export async function signSlotRelease(
  chain: EscrowChain,
  funder: HDAccount,
  terms: ReleaseTerms & { deadline: bigint },
  over: { token?: Address; fundingNonce?: bigint; escrow?: Address } = {},
): Promise<Hex> {
  const escrow = over.escrow ?? chain.escrow;
  const address = terms.funder ?? funder.address;
  const [fundingNonce] = await chain.anvil.publicClient.readContract({
    address: escrow,
    abi: missionEscrowAbi,
    functionName: "slotOf",
    args: [terms.missionKey, address],
  });
  const [token] = await chain.anvil.publicClient.readContract({
    address: escrow,
    abi: missionEscrowAbi,
    functionName: "depositOf",
    args: [terms.missionKey, address],
  });
  return signReleaseV4With(
    funder,
    { chainId: chain.anvil.chainId, escrow },
    {
      ...terms,
      funder: address,
      token: over.token ?? token,
      fundingNonce: over.fundingNonce ?? BigInt(fundingNonce),
    },
  );
}
