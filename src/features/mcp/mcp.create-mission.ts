import { z } from "@hono/zod-openapi";
import { AppError } from "../../lib/errors";
import { parseAmount, findAsset } from "../../lib/money";
import { CreateMissionRequest, createMissionOp, Mission } from "../missions";
import type { Ctx } from "../../lib/context";
import { IdempotencyKey, opTool, WRITE } from "./mcp.tool";
import { Uint } from "../../http/wire";

// create_mission over MCP (docs/mcp.md "Tools"): the REST body, with the two things an agent's
// first call gets wrong made right (docs/decisions.md "Amounts as people write them"):
// `reward.amount` is whole units as people write them (`25`, `0.5`, `"25 USDC"`), exact base
// units only under `reward.amount_base_units`; `verification` defaults to creator_judges.

const McpReward = z.object({
  asset: CreateMissionRequest.shape.reward.shape.asset,
  amount: z
    .union([z.string().max(100), z.number()])
    .optional()
    .describe('Whole units of the asset, as people write them: 25, 0.5 or "25 USDC" (25 means 25 USDC)'),
  amount_base_units: Uint.optional().describe("Exact base units instead of amount (USDC: 1 USDC = 1000000)"),
  chain: CreateMissionRequest.shape.reward.shape.chain,
});

const CREATOR_JUDGES = { type: "creator_judges" as const, params: {} };

const CreateMissionArgs = CreateMissionRequest.extend({
  reward: McpReward,
  verification: CreateMissionRequest.shape.verification
    .optional()
    .describe("Default creator_judges: you pick the winner with award_mission"),
  idempotency_key: IdempotencyKey,
});
type Args = z.output<typeof CreateMissionArgs>;

/** The REST body the arguments stand for: the reward in base units, the verification defaulted. */
function restBody(c: Pick<Ctx, "deps">, args: Omit<Args, "idempotency_key">) {
  const { reward, verification, ...rest } = args;
  const asset = findAsset(c.deps.config.assets, reward.asset);
  if (!asset)
    throw new AppError("UNPROCESSABLE", `unknown asset ${reward.asset}`, {
      field: "reward.asset",
      reason: "unknown_asset",
      known: c.deps.config.assets.map((a) => a.symbol),
      fix: `use one of ${c.deps.config.assets.map((a) => a.symbol).join(", ")}`,
    });
  const example = `reward: {"asset": "${asset.symbol}", "amount": "25"} for 25 ${asset.symbol}`;
  if ((reward.amount === undefined) === (reward.amount_base_units === undefined))
    throw new AppError("INVALID_PARAMETER", "reward needs exactly one of amount (whole units) or amount_base_units", {
      field: "reward.amount",
      reason: reward.amount === undefined ? "missing" : "both_given",
      fix: `send ${example}, or reward.amount_base_units for exact base units`,
    });
  let base: bigint;
  if (reward.amount_base_units !== undefined) base = BigInt(reward.amount_base_units);
  else {
    const parsed = parseAmount(String(reward.amount), asset);
    if (!parsed.ok)
      throw new AppError("INVALID_PARAMETER", `reward.amount: ${parsed.message}`, {
        field: "reward.amount",
        reason: parsed.reason,
        fix: `send ${example}`,
      });
    base = parsed.base;
  }
  return {
    ...rest,
    reward: { asset: reward.asset, amount: base.toString(), ...(reward.chain && { chain: reward.chain }) },
    verification: verification ?? CREATOR_JUDGES,
  };
}

/** The operation of POST /missions; the arguments become its body first (restBody), so the key hashes that body. */
export const createMissionTool = opTool(createMissionOp, {
  name: "create_mission",
  description:
    "Post a mission; reward.amount in whole units (25 = 25 USDC). Reward and spam fee leave your balance; the fee is kept even after a void. Default creator_judges.",
  args: CreateMissionArgs,
  out: Mission,
  annotations: WRITE,
  request: ({ idempotency_key: _key, ...args }, ctx) => ({
    param: undefined,
    query: undefined,
    json: restBody(ctx, args),
  }),
});
