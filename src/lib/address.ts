import { isAddress } from "viem";

// Agent ids are EVM addresses: accept any case, store and emit lowercase (docs/design.md).
const ADDR_RE = /^0x[0-9a-fA-F]{40}$/;
export function normalizeAddress(input: string): string | null {
  if (!ADDR_RE.test(input)) return null;
  // Mixed case must be a valid EIP-55 checksum; all-lower / all-upper is accepted as-is.
  const body = input.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && !isAddress(input, { strict: true })) return null;
  return input.toLowerCase();
}
