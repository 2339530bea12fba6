import type { AssetConfig } from "../../env";
import { plural } from "./web.words";
import type { Ctx } from "../../lib/context";

// Display helpers for the pages: pure, tested in test/web/web-units.test.ts. Amounts are shown in
// whole units with the symbol (base units stay on the wire); times relative, exact on hover.

export function assetOf(asset: string, assets: AssetConfig[]): AssetConfig | undefined {
  const a = asset.toLowerCase();
  return assets.find(
    (x) => x.symbol.toLowerCase() === a || Object.values(x.addresses).some((v) => v.toLowerCase() === a),
  );
}

/**
 * Base units → "1,234.5 USDC" with the asset's decimals (bigint arithmetic, never a float); the
 * amount as the wire carries it (`{ amount, asset }`, as a mission's `reward`).
 */
export function formatAmount({ amount, asset }: { amount: string; asset: string }, assets: AssetConfig[]): string {
  const cfg = assetOf(asset, assets);
  // An asset this server does not settle has no known decimals: say so rather than guess.
  if (!cfg || !/^[0-9]+$/.test(amount)) return `${amount} (unknown units of ${asset.slice(0, 12)})`;
  const v = BigInt(amount);
  const unit = 10n ** BigInt(cfg.decimals);
  const whole = v / unit;
  const frac = (v % unit).toString().padStart(cfg.decimals, "0").replace(/0+$/, "");
  const wholeText = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${wholeText}${frac ? `.${frac}` : ""} ${cfg.symbol}`;
}

/**
 * What a person typed as an amount ("50", "12.5", "1,000") → base units, or a sentence saying what
 * is wrong. Bounded: at most 40 characters, no more decimals than the asset has.
 */
export function parseWholeUnits(
  text: string,
  cfg: Pick<AssetConfig, "decimals" | "symbol">,
): { ok: true; value: bigint } | { ok: false; message: string } {
  const s = text.trim().replace(/[,_\s]/g, "");
  if (s.length > 40 || !/^[0-9]+(\.[0-9]*)?$/.test(s))
    return { ok: false, message: `Enter an amount in ${cfg.symbol} like 50 or 12.5.` };
  const [whole, frac = ""] = s.split(".");
  if (frac.length > cfg.decimals)
    return { ok: false, message: `${cfg.symbol} has at most ${cfg.decimals} digits after the point.` };
  return {
    ok: true,
    value: BigInt(whole!) * 10n ** BigInt(cfg.decimals) + BigInt(frac.padEnd(cfg.decimals, "0") || "0"),
  };
}

/** "in 3 days" / "2 hours ago" / "in 5 minutes": the distance from the injected clock's now. */
export function relativeTime({ now }: Pick<Ctx, "now">, at: Date): string {
  const ms = at.getTime() - now.getTime();
  const min = Math.floor(Math.abs(ms) / 60_000);
  if (min < 1) return ms > 0 ? "in less than a minute" : "just now";
  const h = Math.floor(min / 60);
  const d = Math.floor(h / 24);
  const text =
    d >= 2
      ? plural(d, "day")
      : h >= 1
        ? plural(h, "hour") + (h < 6 && min % 60 ? ` ${plural(min % 60, "minute")}` : "")
        : plural(min, "minute");
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/** "Thu 3 Dec 2026, 14:00 UTC" (the exact time, for the hover title); `short` drops weekday and year. */
export function exactTime(at: Date, o: { short?: boolean } = {}): string {
  const date = `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]}`;
  const clock = `${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`;
  return o.short ? `${date}, ${clock}` : `${DAYS[at.getUTCDay()]} ${date} ${at.getUTCFullYear()}, ${clock}`;
}

const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : undefined);

type Params = Record<string, unknown>;
const MATCH_WORDS: Record<string, string> = { exact: "exactly equal to", regex: "matching the pattern of" };

/** The verification rules in plain words, one sentence maker per type (AIP-1 §4). */
const RULE_WORDS: Record<string, (params: Params, assets: AssetConfig[]) => string> = {
  creator_judges: (params) => {
    const n = Number(params.max_winners ?? 1);
    const window = typeof params.judging_window_seconds === "number" ? params.judging_window_seconds : undefined;
    const within = window ? ` within ${durationWords(window)} of the deadline` : "";
    const pick = `The creator picks ${n === 1 ? "the winner" : `up to ${n} winners`}${within}`;
    const appeal = params.appeal as { appeal_window_seconds?: number } | false | undefined;
    if (!appeal) return `${pick}; the pick is final.`;
    const w = appeal.appeal_window_seconds ?? 86_400;
    return `${pick}; others have ${durationWords(w)} to dispute the pick before it pays.`;
  },
  first_valid_match: (params) => {
    if (params.predicate_uri) return "The first submission that the creator's checker accepts wins, automatically.";
    if (params.target_hash)
      return "The first submission whose file matches the expected fingerprint wins, automatically.";
    const how = MATCH_WORDS[String(params.match_mode)] ?? "containing";
    return `The first submission ${how} the expected answer wins, automatically.`;
  },
  peer_vote: (params, assets) => {
    const token = str(params.vote_token) ?? "tokens";
    const q = str(params.quorum);
    const until =
      q && assetOf(token, assets)
        ? ` once ${formatAmount({ amount: q, asset: token }, assets)} is staked in all`
        : " if enough is staked";
    return `Voters stake ${token} on the submission they think is best; the most-backed one wins${until}.`;
  },
  oracle: () => "An on-chain oracle decides the winner.",
};

/** The verification rule in plain words (AIP-1 §4), from the mission's `verification` (type and params). */
export function verificationInWords(
  { type, params }: { type: string; params: Params },
  assets: AssetConfig[] = [],
): string {
  const words = Object.hasOwn(RULE_WORDS, type) ? RULE_WORDS[type] : undefined;
  return words ? words(params, assets) : "A rule this page does not describe decides the winner.";
}

/** 86400 → "1 day", 7200 → "2 hours", 90 → "1 minute". */
export function durationWords(seconds: number): string {
  if (seconds >= 86_400 && seconds % 86_400 === 0) return plural(seconds / 86_400, "day");
  if (seconds >= 3_600) return plural(Math.round(seconds / 3_600), "hour");
  return plural(Math.max(1, Math.round(seconds / 60)), "minute");
}
