import type { Tx } from "../../db/client";
import type { Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { onceTx } from "../../lib/idempotency";
import { parseUint, findAsset } from "../../lib/money";
import { touchAgent } from "../../db/touch-agent";
import { agentAccount, balancesOf, EXTERNAL, transfer } from "../ledger";
import { parseAgentId } from "../../lib/agent-id";
import { appendAudit } from "../../db/audit";

/** Operator credit: external → agent, one transfer, hash-chained (docs/design.md "Escrow and settlement"). */
export async function creditAgent(
  ctx: Ctx,
  input: { agent_id: string; asset: string; amount: string; memo?: string | undefined },
) {
  const { deps, now } = ctx;
  const agentId = parseAgentId(input.agent_id);
  const asset = findAsset(deps.config.assets, input.asset);
  if (!asset)
    throw new AppError("UNPROCESSABLE", `unknown asset ${input.asset}`, { field: "asset", reason: "unknown_asset" });
  const amount = parseUint(input.amount);
  if (amount <= 0n) throw new AppError("INVALID_PARAMETER", "amount must be a positive integer", { field: "amount" });
  const work = async (tx: Tx) => {
    await touchAgent(tx, agentId, now, false);
    const { transferId } = await transfer(tx, {
      asset: asset.symbol,
      kind: "operator_credit",
      ref: input.memo ?? null,
      at: now,
      postings: [
        { account: EXTERNAL, amount: -amount },
        { account: agentAccount(agentId), amount },
      ],
    });
    await appendAudit(tx, {
      at: now,
      action: "ledger.credit",
      target: agentId,
      detail: { asset: asset.symbol, amount: amount.toString(), transfer_id: transferId, memo: input.memo ?? null },
    });
    const balance = (await balancesOf(tx, agentAccount(agentId))).get(asset.symbol) ?? 0n;
    return {
      agent_id: agentId,
      asset: asset.symbol,
      amount: amount.toString(),
      balance: balance.toString(),
      transfer_id: transferId,
    };
  };
  return onceTx(ctx, work);
}
