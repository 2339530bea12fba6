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

/** The configured asset named by its symbol or by one of its token addresses, any case. */
export function findAsset<A extends { symbol: string; addresses: Record<string, string> }>(
  assets: readonly A[],
  symbolOrAddress: string,
): A | undefined {
  const s = symbolOrAddress.toLowerCase();
  return assets.find(
    (a) => a.symbol.toLowerCase() === s || Object.values(a.addresses).some((addr) => addr.toLowerCase() === s),
  );
}

/** Integer floor of amount * bps / 10_000. */
export function bpsOf(amount: bigint, bps: number): bigint {
  return (amount * BigInt(bps)) / 10_000n;
}

// Amounts as people write them: one implementation, shared with the client package (its CLI and
// library) and used by the MCP tools and the web board. docs/decisions.md "Amounts as people write them".
export { formatAmount, parseAmount, wholeUnits } from "../../packages/client/src/amounts";

/**
 * The smallest reward a mission may offer, in USD, published as the manifest's
 * `payment_options.min_reward_usd` (AIP-1 §9). One dollar: a reward under it is almost always a
 * whole-unit amount sent as base units (25 meaning 25 USDC arrives as 0.000025 USDC), and it is
 * refused before the spam fee is taken (docs/decisions.md "Amounts as people write them").
 */
export const MIN_REWARD_USD = 1;

/** The minimum reward of an asset in base units (ceiling), or null when it has no USD price (usd_price 0). */
export function minRewardBaseUnits(asset: { decimals: number; usd_price: number }): bigint | null {
  const priceMicro = BigInt(Math.round(asset.usd_price * 1_000_000));
  if (priceMicro <= 0n) return null;
  const needMicro = BigInt(Math.round(MIN_REWARD_USD * 1_000_000)) * 10n ** BigInt(asset.decimals);
  return (needMicro + priceMicro - 1n) / priceMicro;
}
