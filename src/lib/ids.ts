import { randomBytes } from "node:crypto";

// Prefixed, time-ordered ids (ULID layout: 48-bit ms timestamp + 80 random bits, Crockford
// base32). Lexicographic order == creation order, which makes keyset pagination on the id
// alone stable. Within one millisecond the random part is incremented so ids stay monotonic
// in this process.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export type IdPrefix =
  | "mis"
  | "sub"
  | "vote"
  | "rcpt"
  | "whk"
  | "evt"
  | "req"
  | "led"
  | "xfer"
  | "cmt"
  | "rtg"
  | "rev"
  | "dep"
  | "pay"
  | "clm"
  | "dsp"
  | "rep"
  | "amd" // mission amendments
  | "qst"
  | "msg"
  | "skl" // Agent Mesh skills (docs/neighbours.md)
  | "inv" // Agent Mesh invocations (the skill_invocation message id)
  | "alrt" // custody alerts (docs/custody.md)
  | "wd" // withdrawals (docs/withdrawals.md)
  | "x402"; // x402 payments (docs/payments.md)

let lastMs = -1;
let lastRand: Uint8Array = new Uint8Array(10);

function encodeTime(ms: number): string {
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits -> 16 base32 chars, 5 bits at a time (no BigInt: this runs on every request id)
  let out = "";
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = ((acc << 8) | b) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31];
    }
  }
  return out;
}

function increment(bytes: Uint8Array): Uint8Array {
  const next = Uint8Array.from(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 255) {
      next[i]! += 1;
      return next;
    }
    next[i] = 0;
  }
  return next;
}

// The random parts are cut from a pool filled 409 at a time: one randomBytes call per id was
// ≈ 2 % of the server's CPU on an anonymous read (bench/README.md "Anonymous reads at the floor").
// The pool is replaced, never refilled in place, so a part handed out never changes.
const POOL_BYTES = 4090;
let pool = Buffer.alloc(0);
let poolAt = 0;
function randomTen(): Uint8Array {
  if (poolAt + 10 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolAt = 0;
  }
  poolAt += 10;
  return pool.subarray(poolAt - 10, poolAt);
}

export function ulid(ms: number): string {
  if (ms <= lastMs) {
    lastRand = increment(lastRand);
    ms = lastMs;
  } else {
    lastMs = ms;
    lastRand = randomTen();
  }
  return encodeTime(ms) + encodeRandom(lastRand);
}

export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  return `${prefix}_${ulid(nowMs)}`;
}

const ID_RE = /^[a-z]{2,5}_[0-9A-HJKMNP-TV-Z]{26}$/;
export function isId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(prefix + "_") && ID_RE.test(value);
}
