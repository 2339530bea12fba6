// did:key for Ed25519 keys (W3C CCG did:key method): "did:key:" + multibase base58btc ("z") of the
// multicodec ed25519-pub prefix (varint 0xed → bytes 0xed 0x01) followed by the 32-byte raw key.
// Every such identifier starts with "did:key:z6Mk". Written here rather than pulled in: it is
// forty lines, and an Agent Card's signature check (ADP §3.2) must not depend on a resolver.

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const INDEX = new Map([...ALPHABET].map((ch, i) => [ch, i]));
const ED25519_PUB = [0xed, 0x01];
/** did:key identifiers are short; anything longer is not an Ed25519 key and is refused unread. */
const MAX_DID_LENGTH = 128;

export function base58btcEncode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  return (
    "1".repeat(zeros) +
    digits
      .reverse()
      .map((d) => ALPHABET[d])
      .join("")
  );
}

/** Null for any character outside the base58btc alphabet. */
export function base58btcDecode(text: string): Uint8Array | null {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros++;
  const bytes: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    const v = INDEX.get(text[i]!);
    if (v === undefined) return null;
    let carry = v;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes.reverse()]);
}

/** did:key of a raw 32-byte Ed25519 public key. */
export function didKeyFromEd25519(publicKey: Uint8Array): string {
  if (publicKey.length !== 32) throw new Error("an Ed25519 public key is 32 bytes");
  return `did:key:z${base58btcEncode(Uint8Array.from([...ED25519_PUB, ...publicKey]))}`;
}

/**
 * The raw Ed25519 public key named by a did:key, or null when the string is not an Ed25519
 * did:key (another method, another multibase, another key type, a fragment, a wrong length).
 */
export function ed25519FromDidKey(did: string): Uint8Array | null {
  if (did.length > MAX_DID_LENGTH || !did.startsWith("did:key:z")) return null;
  const raw = base58btcDecode(did.slice("did:key:z".length));
  if (!raw || raw.length !== 34 || raw[0] !== ED25519_PUB[0] || raw[1] !== ED25519_PUB[1]) return null;
  return raw.slice(2);
}
