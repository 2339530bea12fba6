import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

// Receipt signing keys (AIP-1 §6.1, §9 receipt_signing_keys). One active key signs; retired keys
// stay listed in the manifest (with valid_until) so receipts they signed keep verifying, and lose
// their private half at rotation — nothing signs with them again.

export const ReceiptKeyRecordSchema = z.object({
  key_id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
  alg: z.literal("ed25519"),
  /** Raw 32-byte public key, base64url. */
  public_key: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** Raw 32-byte private seed, base64url; present only on the active key. */
  private_key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .optional(),
  valid_from: z.string().datetime({ offset: true }),
  valid_until: z.string().datetime({ offset: true }).nullable().default(null),
});
export type ReceiptKeyRecord = z.infer<typeof ReceiptKeyRecordSchema>;
const ReceiptKeyFileSchema = z.object({ keys: z.array(ReceiptKeyRecordSchema).min(1) });

/** What the manifest publishes for one key. */
export interface PublicReceiptKey {
  key_id: string;
  alg: "ed25519";
  public_key: string;
  valid_from: string;
  valid_until: string | null;
}

export interface ReceiptKeyring {
  active: { keyId: string; privateKey: KeyObject };
  /** Every key, active first, without private material. */
  published: PublicReceiptKey[];
}

const KEY_FILE = "receipt-keys.json";
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

export function privateKeyFromSeed(seed: string): KeyObject {
  const raw = Buffer.from(seed, "base64url");
  if (raw.length !== 32) throw new Error("an ed25519 seed is 32 bytes");
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, raw]), format: "der", type: "pkcs8" });
}

const rawPublicKey = (key: KeyObject): string => createPublicKey(key).export({ format: "jwk" }).x!;

/** A fresh record; its id names the month (receipt-key-2026-11), suffixed if already taken. */
export function newKeyRecord(now: Date, taken: string[] = []): ReceiptKeyRecord {
  const { privateKey } = generateKeyPairSync("ed25519");
  const base = `receipt-key-${now.toISOString().slice(0, 7)}`;
  let keyId = base;
  for (let n = 2; taken.includes(keyId); n++) keyId = `${base}-${n}`;
  return {
    key_id: keyId,
    alg: "ed25519",
    public_key: rawPublicKey(privateKey),
    private_key: privateKey.export({ format: "jwk" }).d!,
    valid_from: now.toISOString(),
    valid_until: null,
  };
}

/** Checks the records (exactly one active key, with its private seed matching its public key). */
export function keyringFrom(records: ReceiptKeyRecord[]): ReceiptKeyring {
  const ids = new Set(records.map((r) => r.key_id));
  if (ids.size !== records.length) throw new Error("receipt key ids must be unique");
  const active = records.filter((r) => r.valid_until === null);
  if (active.length !== 1 || !active[0]!.private_key)
    throw new Error("exactly one receipt key must be active (valid_until null) and carry its private_key");
  const a = active[0]!;
  const privateKey = privateKeyFromSeed(a.private_key!);
  if (rawPublicKey(privateKey) !== a.public_key)
    throw new Error(`receipt key ${a.key_id}: private_key does not match public_key`);
  const published = [a, ...records.filter((r) => r !== a)].map(
    ({ key_id, alg, public_key, valid_from, valid_until }) => ({ key_id, alg, public_key, valid_from, valid_until }),
  );
  return { active: { keyId: a.key_id, privateKey }, published };
}

/** In-memory keyring with one fresh key (tests). */
export const generateKeyring = (now: Date): ReceiptKeyring => keyringFrom([newKeyRecord(now)]);

export const keyFilePath = (dataDir: string) => path.resolve(dataDir, KEY_FILE);

export function readKeyFile(dataDir: string): ReceiptKeyRecord[] {
  return ReceiptKeyFileSchema.parse(JSON.parse(readFileSync(keyFilePath(dataDir), "utf8"))).keys;
}

function writeKeyFile(dataDir: string, keys: ReceiptKeyRecord[]): void {
  mkdirSync(dataDir, { recursive: true });
  const file = keyFilePath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** <data dir>/receipt-keys.json, created (mode 0600) with one key on first start. */
export function loadOrCreateKeyFile(dataDir: string, now: Date): { keyring: ReceiptKeyring; created: boolean } {
  const created = !existsSync(keyFilePath(dataDir));
  if (created) writeKeyFile(dataDir, [newKeyRecord(now)]);
  return { keyring: keyringFrom(readKeyFile(dataDir)), created };
}

/**
 * Rotation: a new active key; the old one is retired at `now` (valid_until) and its private seed
 * dropped. Returns the new and retired key ids. The running server picks it up on restart.
 */
export function rotateKeyFile(dataDir: string, now: Date): { active: string; retired: string[] } {
  const keys = readKeyFile(dataDir);
  const retired: string[] = [];
  const kept = keys.map((k) => {
    if (k.valid_until !== null) return k;
    retired.push(k.key_id);
    const { private_key: _drop, ...pub } = k;
    return { ...pub, valid_until: now.toISOString() };
  });
  const fresh = newKeyRecord(
    now,
    keys.map((k) => k.key_id),
  );
  const next = [fresh, ...kept];
  keyringFrom(next);
  writeKeyFile(dataDir, next);
  return { active: fresh.key_id, retired };
}
