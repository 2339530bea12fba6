import { createECDH } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { keccak256 } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { z } from "zod";

// AIP-3 §2 / §10.2: one secp256k1 key signs reputation attestations (EIP-191 personal_sign) and
// §10 settlement receipts; its address is published in the manifest as `issuer_address`. It is
// apart from the ed25519 receipt keys of AIP-1 §6.1 (a different curve and a different document).

export interface AttestationSigner {
  /** Lowercase 0x address of the key. */
  address: string;
  account: PrivateKeyAccount;
}

const ATTESTATION_KEY_FILE = "attestation-key.json";
const KeyFile = z.object({
  private_key: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  address: z.string(),
  created_at: z.string(),
});

/**
 * The address from Node's own secp256k1 (OpenSSL), so a start builds no curve tables: viem's
 * account (noble, whose first multiplication precomputes them: ≈ 5–7 % of a start's CPU profile)
 * is made on the first signature (docs/operations.md "Start time").
 */
export function signerFrom(privateKey: `0x${string}`): AttestationSigner {
  const ecdh = createECDH("secp256k1");
  ecdh.setPrivateKey(Buffer.from(privateKey.slice(2), "hex"));
  const address = `0x${keccak256(ecdh.getPublicKey().subarray(1)).slice(-40)}`;
  let account: PrivateKeyAccount | undefined;
  return {
    address,
    get account() {
      return (account ??= privateKeyToAccount(privateKey));
    },
  };
}

/** A fresh in-memory signer (tests, a second test server). */
export const generateSigner = (): AttestationSigner => signerFrom(generatePrivateKey());

/** <data dir>/attestation-key.json (mode 0600), created on first start; written atomically. */
export function loadOrCreateAttestationKey(
  dataDir: string,
  now: Date,
): { signer: AttestationSigner; created: boolean; file: string } {
  const file = path.resolve(dataDir, ATTESTATION_KEY_FILE);
  const created = !existsSync(file);
  if (created) {
    mkdirSync(dataDir, { recursive: true });
    const key = generatePrivateKey();
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(
      tmp,
      `${JSON.stringify({ private_key: key, address: signerFrom(key).address, created_at: now.toISOString() }, null, 2)}\n`,
      { mode: 0o600 },
    );
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  }
  const rec = KeyFile.parse(JSON.parse(readFileSync(file, "utf8")));
  const signer = signerFrom(rec.private_key as `0x${string}`);
  if (signer.address !== rec.address.toLowerCase()) throw new Error(`${file}: private_key does not match address`);
  return { signer, created, file };
}
