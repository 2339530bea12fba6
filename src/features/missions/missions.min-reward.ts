import type { AssetConfig } from "../../env";
import { AppError } from "../../lib/errors";
import { formatAmount, MIN_REWARD_USD, minRewardBaseUnits } from "../../lib/money";

// The published minimum reward (manifest payment_options.min_reward_usd, src/lib/money.ts), checked
// with the other creation terms, before the transaction that takes the reward and the spam fee.
// The refusal names both readings of what was sent (docs/decisions.md "Amounts as people write them").

export function checkMinReward(asset: AssetConfig, amount: bigint): void {
  const min = minRewardBaseUnits(asset);
  if (min === null || amount >= min) return;
  const asWhole = amount * 10n ** BigInt(asset.decimals);
  const received = formatAmount(amount, asset);
  const minimum = formatAmount(min, asset);
  throw new AppError(
    "UNPROCESSABLE",
    `reward.amount "${amount}" is in base units (${asset.symbol} has ${asset.decimals} decimals): ${received}, ` +
      `below this server's minimum reward of ${minimum} (US$${MIN_REWARD_USD}). ` +
      `If you meant ${amount} ${asset.symbol}, send reward.amount "${asWhole}" ` +
      `(the oabp CLI and the MCP create_mission take whole units: ${amount}). Nothing was charged.`,
    {
      field: "reward.amount",
      reason: "below_min_reward",
      received_base_units: amount.toString(),
      received: received,
      min_reward: minimum,
      min_reward_base_units: min.toString(),
      min_reward_usd: MIN_REWARD_USD,
      if_whole_units: { amount: asWhole.toString(), reads: formatAmount(asWhole, asset) },
      fix: `send reward.amount "${asWhole}" for ${formatAmount(asWhole, asset)}, or at least "${min}"`,
    },
  );
}
