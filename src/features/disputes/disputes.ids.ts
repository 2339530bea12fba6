import { isId, ulid } from "../../lib/ids";

// AIP-4 §2.3 `dispute_id`: a server-assigned UUID. Ours are UUIDv7 — the 48-bit millisecond
// timestamp first, so lexicographic order is filing order and the list keeps its keyset on the id
// alone. Disputes filed before (ids `dsp_<ULID>`) were rewritten by their migration to the UUID of
// the same 128 bits (same timestamp prefix, so the order holds across both); an old `dsp_` id is
// still accepted wherever a dispute id is read, mapped to that UUID (docs/decisions.md).

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The 32 hex digits of a ULID's 128 bits. */
function ulidHex(u: string): string {
  let n = 0n;
  for (const ch of u) n = (n << 5n) | BigInt(ALPHABET.indexOf(ch));
  return n.toString(16).padStart(32, "0");
}

const dashed = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

/** A new dispute id: UUIDv7 (RFC 9562) from this process's monotonic ULID clock. */
export function newDisputeId(ms: number): string {
  const h = ulidHex(ulid(ms));
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return dashed(`${h.slice(0, 12)}7${h.slice(13, 16)}${variant}${h.slice(17)}`);
}

/** The stored id a caller's dispute id names: a UUID as is, an old `dsp_<ULID>` mapped; else null. */
export function disputeKey(id: string): string | null {
  const lower = id.toLowerCase();
  if (UUID_RE.test(lower)) return lower;
  if (isId("dsp", id)) return dashed(ulidHex(id.slice(4)));
  return null;
}
