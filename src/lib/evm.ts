import {
  createPublicClient, encodeAbiParameters, http, keccak256, parseAbiParameters, recoverAddress,
  recoverMessageAddress, verifyMessage, type Hex,
} from "viem";

// The narrow chain port (style.md "Chain behind a port"): only lib/evm imports viem clients.
export interface EvmPort {
  /** EIP-191 personal_sign check; with an RPC, ERC-1271 / ERC-6492 smart accounts verify too. */
  verifyPersonalSign(address: string, message: string, signature: string): Promise<boolean>;
}

export function createEvmPort(rpcUrl: string | undefined): EvmPort {
  const client = rpcUrl ? createPublicClient({ transport: http(rpcUrl, { timeout: 10_000, retryCount: 1 }) }) : undefined;
  return {
    async verifyPersonalSign(address, message, signature) {
      if (!/^0x[0-9a-fA-F]+$/.test(signature)) return false;
      try {
        if (client) return await client.verifyMessage({ address: address as Hex, message, signature: signature as Hex });
        return await verifyMessage({ address: address as Hex, message, signature: signature as Hex });
      } catch {
        return false;
      }
    },
  };
}

/** AIP-1 §1.4: keccak256(abi.encode(string api_key, address evm_address, string issued_at)). */
export function registryAttestationHash(apiKey: string, evmAddress: string, issuedAt: string): Hex {
  return keccak256(encodeAbiParameters(parseAbiParameters("string, address, string"), [apiKey, evmAddress as Hex, issuedAt]));
}

/**
 * Recovers the signers of an attestation hash, read both as a raw ECDSA signature over the hash
 * and as an EIP-191 personal_sign of the 32 hash bytes (both are accepted; README documents it).
 */
export async function recoverAttestationSigners(hash: Hex, signature: string): Promise<string[]> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return [];
  const out: string[] = [];
  for (const recover of [
    () => recoverAddress({ hash, signature: signature as Hex }),
    () => recoverMessageAddress({ message: { raw: hash }, signature: signature as Hex }),
  ]) {
    try {
      out.push((await recover()).toLowerCase());
    } catch {
      /* not a valid signature in this reading */
    }
  }
  return out;
}
