import { type AssetUnits, formatAmount } from "../amounts.js";
import type { OabpClient } from "../client.js";
import { UsageError } from "./context.js";

// Whole units and relative times in what the CLI prints for people (the --json output stays the
// exact wire: base-unit strings and ISO times). docs/decisions.md "Amounts as people write them".

/** An asset's decimals, spam fee and minimum reward, as the server's manifest publishes them. */
export interface AssetTerms extends AssetUnits {
  spam_fee: string | null;
  min_reward: string | null;
}

type ManifestAssets = {
  payment_options?: {
    asset_units?: AssetTerms[];
    base?: { assets?: { symbol: string; decimals: number; spam_fee?: string }[] };
  };
};

/** The terms of `symbol` on the server, from `payment_options.asset_units` (or the base rail's list). */
export async function assetTerms(client: OabpClient, symbol: string): Promise<AssetTerms> {
  const m = (await client.manifest()) as ManifestAssets;
  const all: AssetTerms[] =
    m.payment_options?.asset_units ??
    (m.payment_options?.base?.assets ?? []).map((a) => ({ ...a, spam_fee: a.spam_fee ?? null, min_reward: null }));
  const found = all.find((a) => a.symbol.toLowerCase() === symbol.toLowerCase());
  if (!found)
    throw new UsageError(
      `the server does not say how many decimals ${symbol} has` +
        (all.length ? ` (it settles ${all.map((a) => a.symbol).join(", ")})` : "") +
        `: give the exact amount with --reward-base-units`,
    );
  return found;
}

/** The server's asset units for what the CLI prints for people; none under --json (no request then). */
export async function unitsFor(ctx: { out: { json: boolean }; client: OabpClient }): Promise<AssetUnits[]> {
  if (ctx.out.json) return [];
  const m = (await ctx.client.manifest().catch(() => ({}))) as ManifestAssets;
  return m.payment_options?.asset_units ?? m.payment_options?.base?.assets ?? [];
}

/** "25 USDC" for a base-unit string of an asset listed in `units`, else the base units and the symbol. */
export function amountText(amount: string | undefined, symbol: string, units: AssetUnits[]): string {
  if (amount === undefined) return "-";
  const a = units.find((u) => u.symbol === symbol);
  return a ? formatAmount(amount, a) : `${amount} base units of ${symbol}`;
}

/** "in 3 days", "5 minutes ago" (the exact time stays in --json). */
export function relativeTime(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return "-";
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((t - now.getTime()) / 1000);
  const abs = Math.abs(s);
  const [n, unit] =
    abs < 60
      ? [abs, "second"]
      : abs < 3600
        ? [Math.round(abs / 60), "minute"]
        : abs < 86_400
          ? [Math.round(abs / 3600), "hour"]
          : [Math.round(abs / 86_400), "day"];
  const span = `${n} ${unit}${n === 1 ? "" : "s"}`;
  return s >= 0 ? `in ${span}` : `${span} ago`;
}
