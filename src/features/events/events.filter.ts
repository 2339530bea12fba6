import type { Config } from "../../env";
import { AppError } from "../../lib/errors";
import { EVENT_TYPES } from "../../lib/webhook-events";
import { VERIFICATION_TYPES } from "../../db/vocabulary";
import type { StreamEvent } from "./events.model";

// The filters of GET /events: every given filter must hold; a list filter holds when any of its
// values does (README "Live events"). Applied in memory to the shared event stream.

export interface StreamFilter {
  types?: Set<string>;
  tags?: Set<string>;
  verificationTypes?: Set<string>;
  creators?: Set<string>;
  rewardMin?: { asset: string; amount: bigint };
}

export interface FilterQuery {
  type?: string | undefined;
  tag?: string | undefined;
  verification_type?: string | undefined;
  creator?: string | undefined;
  reward_min?: string | undefined;
  reward_asset?: string | undefined;
}

const MAX_VALUES = 20;
const bad = (field: string, message: string) => new AppError("INVALID_PARAMETER", message, { field });

function list(field: string, raw: string | undefined, ok: (v: string) => boolean): Set<string> | undefined {
  if (raw === undefined) return undefined;
  const values = raw
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.length === 0 || values.length > MAX_VALUES)
    throw bad(field, `${field}: 1 to ${MAX_VALUES} comma-separated values`);
  for (const v of values) if (!ok(v)) throw bad(field, `${field}: invalid value ${JSON.stringify(v.slice(0, 80))}`);
  return new Set(values);
}

export function parseFilter(q: FilterQuery, config: Config): StreamFilter {
  const f: StreamFilter = {};
  const types = list("type", q.type, (v) => (EVENT_TYPES as readonly string[]).includes(v));
  const tags = list("tag", q.tag, (v) => v.length <= 64);
  const vts = list("verification_type", q.verification_type, (v) =>
    (VERIFICATION_TYPES as readonly string[]).includes(v),
  );
  const creators = list("creator", q.creator, (v) => /^0x[0-9a-fA-F]{40}$/.test(v));
  if (types) f.types = types;
  if (tags) f.tags = tags;
  if (vts) f.verificationTypes = vts;
  if (creators) f.creators = new Set([...creators].map((c) => c.toLowerCase()));
  if (q.reward_min !== undefined || q.reward_asset !== undefined) {
    if (q.reward_min === undefined || !/^(0|[1-9][0-9]{0,77})$/.test(q.reward_min))
      throw bad("reward_min", "reward_min: a base-10 integer amount in the asset's base units, with reward_asset");
    const asset = config.assets.find((a) => a.symbol === q.reward_asset);
    if (!asset)
      throw bad(
        "reward_asset",
        `reward_asset: one of ${config.assets.map((a) => a.symbol).join(", ")} (with reward_min)`,
      );
    f.rewardMin = { asset: asset.symbol, amount: BigInt(q.reward_min) };
  }
  return f;
}

export function matches(f: StreamFilter, e: StreamEvent): boolean {
  if (f.types && !f.types.has(e.type)) return false;
  if (f.verificationTypes && !f.verificationTypes.has(e.verificationType)) return false;
  if (f.creators && !f.creators.has(e.creator.toLowerCase())) return false;
  if (f.tags && !e.tags.some((t) => f.tags!.has(t))) return false;
  if (f.rewardMin) {
    if (e.rewardAsset !== f.rewardMin.asset || e.rewardAmount === null || e.rewardAmount < f.rewardMin.amount)
      return false;
  }
  return true;
}
