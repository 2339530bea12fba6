import { parseAbi, parseAbiParameters, parseSignature, type Address, type Hex, type PublicClient } from "viem";
import type { HDAccount, PrivateKeyAccount } from "viem/accounts";

// The holder's signatures TestUSDC (contracts/TestUSDC.sol) accepts, as a wallet makes them:
// an EIP-2612 permit and an EIP-3009 receiveWithAuthorization, both under the token's EIP-712
// domain ("Test USD Coin", version 1). The escrow tests fund with them.

type Signer = PrivateKeyAccount | HDAccount;
/** A signature whole (as the server's routes take it) and split for the contracts' (v, r, s) parameters. */
export interface Vrs {
  signature: Hex;
  v: number;
  r: Hex;
  s: Hex;
}

/** What every signature grants: `value` of the token at `token` on chain `chainId`. */
interface Grant {
  chainId: number;
  token: Address;
  value: bigint;
}

const domain = (chainId: number, token: Address) =>
  ({ name: "Test USD Coin", version: "1", chainId, verifyingContract: token }) as const;

const split = (signature: Hex): Vrs => {
  const { r, s, v, yParity } = parseSignature(signature);
  return { signature, v: Number(v ?? BigInt(yParity + 27)), r, s };
};

/**
 * `signer`'s EIP-2612 permit letting `spender` take `value` of `token` from `owner` (the signer's own
 * address unless a forged one is wanted).
 */
export async function signUsdcPermit(
  signer: Signer,
  p: Grant & { owner?: Address; spender: Address; nonce: bigint; deadline: bigint },
): Promise<Vrs> {
  return split(
    await signer.signTypedData({
      domain: domain(p.chainId, p.token),
      types: {
        Permit: parseAbiParameters("address owner, address spender, uint256 value, uint256 nonce, uint256 deadline"),
      },
      primaryType: "Permit",
      message: {
        owner: p.owner ?? signer.address,
        spender: p.spender,
        value: p.value,
        nonce: p.nonce,
        deadline: p.deadline,
      },
    }),
  );
}

/**
 * `signer`'s EIP-3009 authorization for `to` to receive `value` of `token` from `from` (the
 * signer's own address unless a forged one is wanted), valid from `validAfter` (0 unless given).
 */
export async function signReceiveAuthorization(
  signer: Signer,
  p: Grant & { from?: Address; to: Address; validAfter?: bigint; validBefore: bigint; nonce: Hex },
): Promise<Vrs> {
  return split(
    await signer.signTypedData({
      domain: domain(p.chainId, p.token),
      types: {
        ReceiveWithAuthorization: parseAbiParameters(
          "address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce",
        ),
      },
      primaryType: "ReceiveWithAuthorization",
      message: {
        from: p.from ?? signer.address,
        to: p.to,
        value: p.value,
        validAfter: p.validAfter ?? 0n,
        validBefore: p.validBefore,
        nonce: p.nonce,
      },
    }),
  );
}

/** Whether the token has spent `authorizer`'s EIP-3009 nonce (its authorizationState). */
export function authorizationUsed(client: PublicClient, token: Address, authorizer: Address, nonce: Hex) {
  return client.readContract({
    address: token,
    abi: parseAbi(["function authorizationState(address authorizer, bytes32 nonce) view returns (bool)"]),
    functionName: "authorizationState",
    args: [authorizer, nonce],
  });
}
