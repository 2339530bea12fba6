import { numberToHex, type Hex, type TransactionSerializableEIP1559 } from "viem";
import { privateKeyToAccount } from "viem/accounts";

// How the settlement worker signs (docs/base-rail.md "Resolver signer"): through `ResolverSigner`
// only, so the resolver key can live outside this process. Two implementations:
//  - local: a private key in memory (OABP_RESOLVER_KEY / _FILE), for development and small setups;
//  - remote: JSON-RPC `eth_signTransaction` to a signer service (OABP_RESOLVER_SIGNER_URL, the
//    address in OABP_RESOLVER_ADDRESS) — web3signer, Clef, or a KMS/HSM-backed signer speaking the
//    same method. The worker then holds no key at all; the signer enforces its own policy.

/** The signer service did not answer (down, timeout, 5xx): the chain port treats it as an outage. */
export class SignerUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`resolver signer unavailable: ${cause instanceof Error ? cause.message.split("\n")[0] : String(cause)}`);
    this.name = "SignerUnavailableError";
  }
}

export interface ResolverSigner {
  /** lower-case 0x address of the resolver. */
  readonly address: string;
  readonly kind: "local" | "remote";
  /** An EIP-1559 transaction from `address`, signed; the raw serialized bytes. */
  signTransaction(tx: TransactionSerializableEIP1559 & { chainId: number }): Promise<Hex>;
}

export function localSigner(privateKey: Hex): ResolverSigner {
  const account = privateKeyToAccount(privateKey);
  return {
    address: account.address.toLowerCase(),
    kind: "local",
    signTransaction: (tx) => account.signTransaction(tx),
  };
}

/** A JSON-RPC signer that answers `eth_signTransaction` (web3signer, Clef, anvil's unlocked accounts). */
export function remoteSigner(url: string, address: string, opts: { timeoutMs?: number } = {}): ResolverSigner {
  const from = address.toLowerCase();
  let id = 0;
  return {
    address: from,
    kind: "remote",
    async signTransaction(tx) {
      const body = {
        jsonrpc: "2.0",
        id: ++id,
        method: "eth_signTransaction",
        params: [
          {
            from,
            to: tx.to,
            data: tx.data ?? "0x",
            value: numberToHex(tx.value ?? 0n),
            gas: numberToHex(tx.gas!),
            nonce: numberToHex(tx.nonce!),
            maxFeePerGas: numberToHex(tx.maxFeePerGas!),
            maxPriorityFeePerGas: numberToHex(tx.maxPriorityFeePerGas!),
            chainId: numberToHex(tx.chainId),
            type: "0x2",
          },
        ],
      };
      let res: Response;
      try {
        res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        });
      } catch (err) {
        throw new SignerUnavailableError(err); // the signer is down: the payout waits, nothing moves
      }
      if (!res.ok) throw new SignerUnavailableError(new Error(`signer answered HTTP ${res.status}`));
      const json = (await res.json().catch(() => null)) as {
        result?: Hex | { raw?: Hex };
        error?: { message?: string };
      } | null;
      if (!json || json.error || !json.result)
        throw new Error(`remote signer refused eth_signTransaction: ${json?.error?.message ?? "no result"}`);
      // web3signer and anvil answer the raw bytes; Clef answers { raw, tx }.
      const raw = typeof json.result === "string" ? json.result : json.result.raw;
      if (!raw || !/^0x[0-9a-fA-F]+$/.test(raw)) throw new Error("remote signer answered no raw transaction");
      return raw;
    },
  };
}
