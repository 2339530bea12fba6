// Money is integer base units: bigint in code, base-10 strings on the wire, numeric(78,0) in SQL.
export const UINT256_MAX = (1n << 256n) - 1n;
const UINT_RE = /^(0|[1-9][0-9]{0,77})$/;

export function isUintString(s: string): boolean {
  return UINT_RE.test(s) && BigInt(s) <= UINT256_MAX;
}

export function parseUint(s: string): bigint {
  if (!isUintString(s)) throw new RangeError(`not a uint256 base-10 string: ${s}`);
  return BigInt(s);
}

/** Integer floor of amount * bps / 10_000. */
export function bpsOf(amount: bigint, bps: number): bigint {
  return (amount * BigInt(bps)) / 10_000n;
}
