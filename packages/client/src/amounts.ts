// Amounts as people write them (docs/decisions.md "Amounts as people write them"): `25`,
// `25 USDC`, `0.5`, `1_000` are whole units of the asset; base units are only ever said
// explicitly (`--reward-base-units`, `amount_base_units`). The AIP-1 wire keeps its base-unit
// integer strings; this module converts at the faces. Shared by the server (src/lib/money.ts
// re-exports it; the web board and the MCP tools use it) and the client (CLI, library).

/** What converting needs to know of an asset: its symbol and decimals (manifest, ledger assets). */
export interface AssetUnits {
  symbol: string;
  decimals: number;
}

type AmountReason = "empty" | "not_a_number" | "too_many_decimals" | "wrong_asset" | "not_positive";

/** A parsed amount in base units, or why the text is not one (outcomes are data, docs/style.md). */
export type ParsedAmount = { ok: true; base: bigint } | { ok: false; reason: AmountReason; message: string };

const NUMBER = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/**
 * Whole units of `asset` as written by a person, to base units: digits with an optional decimal
 * point, `_` or thin spaces between digit groups, and optionally the asset's symbol after
 * (case-insensitive). Never a float: the digits are shifted as text.
 */
export function parseAmount(text: string, asset: AssetUnits): ParsedAmount {
  const written = text.trim();
  if (written === "") return { ok: false, reason: "empty", message: "the amount is empty" };
  const parts = /^([\d.,_\u2009\u202f]+)\s*([A-Za-z$][\w.$-]*)?$/.exec(written);
  const symbol = parts?.[2];
  // "1e6" is not 1 of an asset called e6: a symbol with digits in it reads as a malformed number.
  if (symbol !== undefined && symbol.toLowerCase() !== asset.symbol.toLowerCase() && !/\d/.test(symbol))
    return {
      ok: false,
      reason: "wrong_asset",
      message: `"${written}" is in ${symbol}, but the reward asset is ${asset.symbol}`,
    };
  // A comma is a decimal mark in half the world and a group separator in the other: refused.
  const digits = symbol === undefined || symbol.toLowerCase() === asset.symbol.toLowerCase() ? parts?.[1] : undefined;
  const m = NUMBER.exec((digits ?? written).replace(/[_\u2009\u202f]/g, ""));
  if (!m)
    return {
      ok: false,
      reason: "not_a_number",
      message: `"${written}" is not an amount: write whole ${asset.symbol} such as 25, 0.5 or "25 ${asset.symbol}" (no commas)`,
    };
  const whole = m[1] ?? "0";
  const frac = (m[2] ?? m[3] ?? "").replace(/0+$/, "");
  if (frac.length > asset.decimals)
    return {
      ok: false,
      reason: "too_many_decimals",
      message: `${asset.symbol} has ${asset.decimals} decimals; "${written}" has ${frac.length}`,
    };
  const base = BigInt(whole + frac.padEnd(asset.decimals, "0"));
  if (base <= 0n) return { ok: false, reason: "not_positive", message: "the amount must be more than 0" };
  return { ok: true, base };
}

/** Base units as whole units, exact, without trailing zeros: 25000000 (6 decimals) → "25", 500000 → "0.5". */
export function wholeUnits(base: bigint | string, decimals: number): string {
  const v = typeof base === "bigint" ? base : BigInt(base);
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${neg ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}

/** Base units as a person reads them: "25 USDC", "0.000025 USDC" (exact: never rounded). */
export function formatAmount(base: bigint | string, asset: AssetUnits): string {
  return `${wholeUnits(base, asset.decimals)} ${asset.symbol}`;
}
