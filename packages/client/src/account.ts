import { createCipheriv, createDecipheriv, pbkdf2, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { scryptAsync } from "@noble/hashes/scrypt";
import { keccak256, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";

// Where an agent's key comes from: a 0x private key, a file holding one, or an encrypted
// keystore (Web3 Secret Storage v3, the geth/ethers/foundry `cast wallet` format). viem has no
// keystore support, so it is done here: scrypt from @noble/hashes (OpenSSL's, in node:crypto, refuses
// parameters the format allows, e.g. the spec's own test vector with r = 1, N = 2^18), pbkdf2 and
// aes-128-ctr from node:crypto, the keccak MAC from viem.

export type KeySource =
  | { type: "private_key"; privateKey: string }
  | { type: "key_file"; path: string }
  | { type: "keystore"; path: string; password: string };

const PK = /^(0x)?[0-9a-fA-F]{64}$/;
const toHexKey = (s: string): Hex => {
  const t = s.trim();
  if (!PK.test(t)) throw new Error("a private key is 32 bytes of hex (0x + 64 hex digits)");
  return (t.startsWith("0x") ? t : `0x${t}`) as Hex;
};

export async function loadAccount(source: KeySource): Promise<PrivateKeyAccount> {
  if (source.type === "private_key") return privateKeyToAccount(toHexKey(source.privateKey));
  const text = await readFile(source.path, "utf8");
  if (source.type === "key_file") return privateKeyToAccount(toHexKey(text));
  return privateKeyToAccount(await decryptKeystore(JSON.parse(text), source.password));
}

interface Keystore {
  version: 3;
  id?: string;
  address?: string;
  crypto: {
    cipher: string;
    cipherparams: { iv: string };
    ciphertext: string;
    kdf: string;
    kdfparams: Record<string, unknown>;
    mac: string;
  };
}

const pbkdf2Async = promisify(pbkdf2);
// Bounds on the KDF cost a file may ask for (geth's "standard" is n = 2^18, r = 8, p = 1).
const MAX_SCRYPT_N = 2 ** 20;
const MAX_PBKDF2_C = 10_000_000;

async function deriveKey(password: string, kdf: string, params: Record<string, unknown>): Promise<Buffer> {
  const num = (k: string) => {
    const v = params[k];
    if (typeof v !== "number" || !Number.isInteger(v) || v <= 0)
      throw new Error(`keystore: kdfparams.${k} is not a positive integer`);
    return v;
  };
  const salt = Buffer.from(String(params.salt ?? ""), "hex");
  const dklen = num("dklen");
  if (dklen < 32) throw new Error("keystore: dklen must be ≥ 32");
  const pw = Buffer.from(password.normalize("NFKC"), "utf8");
  if (kdf === "scrypt") {
    const N = num("n"),
      r = num("r"),
      p = num("p");
    if (N > MAX_SCRYPT_N || r > 32 || p > 16)
      throw new Error("keystore: scrypt parameters beyond the supported bounds");
    return Buffer.from(await scryptAsync(pw, salt, { N, r, p, dkLen: dklen, maxmem: 2 ** 31 }));
  }
  if (kdf === "pbkdf2") {
    if (params.prf !== "hmac-sha256") throw new Error("keystore: pbkdf2 prf must be hmac-sha256");
    const c = num("c");
    if (c > MAX_PBKDF2_C) throw new Error("keystore: pbkdf2 iteration count beyond the supported bound");
    return pbkdf2Async(pw, salt, c, dklen, "sha256");
  }
  throw new Error(`keystore: unsupported kdf ${kdf}`);
}

const mac = (derived: Buffer, ciphertext: Buffer) =>
  Buffer.from(keccak256(Buffer.concat([derived.subarray(16, 32), ciphertext])).slice(2), "hex");

/** The private key inside a v3 keystore; a wrong password is "keystore: wrong password". */
export async function decryptKeystore(file: unknown, password: string): Promise<Hex> {
  const ks = file as Keystore;
  if (!ks || ks.version !== 3 || typeof ks.crypto !== "object") throw new Error("keystore: not a version 3 keystore");
  const c = ks.crypto;
  if (c.cipher !== "aes-128-ctr") throw new Error(`keystore: unsupported cipher ${c.cipher}`);
  const derived = await deriveKey(password, c.kdf, c.kdfparams);
  const ciphertext = Buffer.from(c.ciphertext, "hex");
  const expected = Buffer.from(c.mac, "hex");
  const got = mac(derived, ciphertext);
  if (expected.length !== got.length || !timingSafeEqual(expected, got)) throw new Error("keystore: wrong password");
  const decipher = createDecipheriv("aes-128-ctr", derived.subarray(0, 16), Buffer.from(c.cipherparams.iv, "hex"));
  const key = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  return `0x${key.toString("hex")}` as Hex;
}

/** A v3 keystore (scrypt) for a private key; `n` defaults to geth's standard 2^18. */
export async function encryptKeystore(privateKey: Hex, password: string, opts: { n?: number } = {}): Promise<Keystore> {
  const n = opts.n ?? 2 ** 18;
  const salt = randomBytes(32);
  const kdfparams = { dklen: 32, salt: salt.toString("hex"), n, r: 8, p: 1 };
  const derived = await deriveKey(password, "scrypt", kdfparams);
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-128-ctr", derived.subarray(0, 16), iv);
  const ciphertext = Buffer.concat([cipher.update(Buffer.from(toHexKey(privateKey).slice(2), "hex")), cipher.final()]);
  return {
    version: 3,
    id: randomUUID(),
    address: privateKeyToAccount(toHexKey(privateKey)).address.slice(2).toLowerCase(),
    crypto: {
      cipher: "aes-128-ctr",
      cipherparams: { iv: iv.toString("hex") },
      ciphertext: ciphertext.toString("hex"),
      kdf: "scrypt",
      kdfparams,
      mac: mac(derived, ciphertext).toString("hex"),
    },
  };
}
