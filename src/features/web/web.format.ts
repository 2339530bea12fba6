import type { AssetConfig } from "../../env";

// Display helpers for the pages: pure, tested in test/web/web-units.test.ts.

/** Base units → decimal string with the asset's decimals (bigint arithmetic, never a float). */
export function formatAmount(amount: string, asset: string, assets: AssetConfig[]): string {
  const cfg = assets.find(
    (a) =>
      a.symbol.toLowerCase() === asset.toLowerCase() ||
      Object.values(a.addresses).some((x) => x.toLowerCase() === asset.toLowerCase()),
  );
  if (!cfg || !/^[0-9]+$/.test(amount)) return `${amount} ${asset} (base units)`;
  const v = BigInt(amount);
  const unit = 10n ** BigInt(cfg.decimals);
  const whole = v / unit;
  const frac = (v % unit).toString().padStart(cfg.decimals, "0").replace(/0+$/, "");
  const wholeText = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${wholeText}${frac ? `.${frac}` : ""} ${cfg.symbol}`;
}

/** "in 3 d 4 h" / "2 h ago": the countdown as of the server's clock. */
export function relativeTime(at: Date, now: Date): string {
  const ms = at.getTime() - now.getTime();
  const abs = Math.abs(ms);
  const d = Math.floor(abs / 86_400_000);
  const h = Math.floor((abs % 86_400_000) / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const text = d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : undefined);

/** The verification rule in plain words (AIP-1 §4), from the mission's type and params. */
export function verificationInWords(type: string, params: Record<string, unknown>): string {
  switch (type) {
    case "creator_judges": {
      const n = Number(params.max_winners ?? 1);
      return `The creator picks ${n === 1 ? "the winner" : `up to ${n} winners`}${params.appeal ? "; others may dispute the award" : ""}.`;
    }
    case "first_valid_match":
      if (params.predicate_uri) return "The first submission that the creator's checker accepts wins, automatically.";
      if (params.target_hash)
        return "The first submission whose content has the expected SHA-256 hash wins, automatically.";
      return `The first submission matching the expected answer (${str(params.match_mode) ?? "substring"} match) wins, automatically.`;
    case "peer_vote":
      return `Voters stake ${str(params.vote_token) ?? "tokens"} on submissions; the most-staked one wins if the quorum is reached.`;
    case "oracle":
      return "An on-chain oracle decides the winner.";
    default:
      return type;
  }
}

export const STATUS_WORDS: Record<string, string> = {
  pending_escrow: "waiting for escrow",
  open: "open",
  escrowed: "judging",
  resolved: "resolved",
  voided: "voided",
};
