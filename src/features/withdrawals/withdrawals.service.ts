import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { withdrawals } from "../../db/schema/index";
import type { WithdrawalState } from "../../db/vocabulary";
import { agentOf, dbOf, type Ctx, type TxCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { onceTx } from "../../lib/idempotency";
import { newId } from "../../lib/ids";
import { parseUint, findAsset } from "../../lib/money";
import { agentAccount, EXTERNAL, transfer } from "../ledger";

// Withdrawals (docs/withdrawals.md): an agent moves its ledger balance to its own wallet on the
// base rail. The request debits the balance in its own transaction (agent → WITHDRAWALS, the
// holding account); the settlement worker (withdrawals.worker.ts) pays the ERC-20 transfer; its
// confirmation moves the held amount to `external`, a failure or the operator's rejection back to
// the agent — each once, in the transaction that changes the row's state.

export type WithdrawalRow = typeof withdrawals.$inferSelect;

/** The ledger account holding requested withdrawals until they are paid or returned. */
const WITHDRAWALS = "withdrawals";
/** The caps' period (docs/withdrawals.md "Caps"). */
const CAP_PERIOD_MS = 24 * 3600_000;
/** Serialises the cap check and the debit of concurrent requests (pg_advisory_xact_lock key). */
const CAP_LOCK = 727_301;
/** States whose amount counts against the caps (requested, not returned). */
const COUNTED: WithdrawalState[] = ["awaiting_approval", "queued", "broadcast", "confirmed"];
const LIST_LIMIT = 100;

/** The wire form of a withdrawal (snake_case, amounts as strings). */
function withdrawalWire(w: WithdrawalRow) {
  return {
    id: w.id,
    agent_id: w.agentId,
    asset: w.asset,
    amount: w.amount,
    to: w.toAddress,
    chain_id: w.chainId,
    token: w.token,
    state: w.state,
    reason: w.reason,
    tx_hash: w.txHash,
    block_number: w.blockNumber,
    receipt: w.receipt ?? null,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
    confirmed_at: w.confirmedAt?.toISOString() ?? null,
  };
}
export type WithdrawalWire = ReturnType<typeof withdrawalWire>;

/** The asset's token on the base rail, or why it cannot be withdrawn there. */
function railToken(ctx: Ctx, symbol: string) {
  const { config } = ctx.deps;
  const asset = findAsset(config.assets, symbol);
  if (!asset)
    throw new AppError("UNPROCESSABLE", `unknown asset ${symbol}`, { field: "asset", reason: "unknown_asset" });
  if (!config.baseRail)
    throw new AppError("UNPROCESSABLE", "withdrawals are paid on the base rail, which is off", {
      reason: "base_rail_off",
    });
  const token = asset.addresses.base?.toLowerCase();
  if (!token)
    throw new AppError("UNPROCESSABLE", `${asset.symbol} has no token on the base rail`, {
      field: "asset",
      reason: "asset_not_on_base",
    });
  return { asset, token, chainId: config.baseRail.chainId };
}

/** Sums of the counted withdrawals of `asset` since `since`: the agent's and everyone's. */
async function periodTotals(tx: Tx, input: { agentId: string; asset: string; since: Date }) {
  const [row] = await tx
    .select({
      mine: sql<string>`coalesce(sum(${withdrawals.amount}) filter (where ${withdrawals.agentId} = ${input.agentId}), 0)::text`,
      all: sql<string>`coalesce(sum(${withdrawals.amount}), 0)::text`,
    })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.asset, input.asset),
        gte(withdrawals.createdAt, input.since),
        inArray(withdrawals.state, COUNTED),
      ),
    );
  return { mine: BigInt(row?.mine ?? "0"), all: BigInt(row?.all ?? "0") };
}

/**
 * POST /agents/me/withdrawals: debits the caller's balance and queues the transfer to its own
 * address — or parks it for the operator when it would pass a cap (docs/withdrawals.md "Caps").
 */
export async function requestWithdrawal(ctx: Ctx, input: { asset: string; amount: string }): Promise<WithdrawalWire> {
  const agentId = agentOf(ctx);
  const { asset, token, chainId } = railToken(ctx, input.asset);
  const amount = parseUint(input.amount);
  if (amount <= 0n)
    throw new AppError("INVALID_PARAMETER", "amount must be a positive integer", {
      field: "amount",
      reason: "not_positive",
    });
  const { now, deps } = ctx;
  const unit = 10n ** BigInt(asset.decimals);
  return onceTx(ctx, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CAP_LOCK})`);
    const used = await periodTotals(tx, {
      agentId,
      asset: asset.symbol,
      since: new Date(now.getTime() - CAP_PERIOD_MS),
    });
    const overAgent = used.mine + amount > BigInt(deps.config.withdrawalAgentCap) * unit;
    const overAll = used.all + amount > BigInt(deps.config.withdrawalDailyCap) * unit;
    const id = newId("wd", now.getTime());
    await transfer(tx, {
      asset: asset.symbol,
      kind: "withdrawal",
      ref: id,
      at: now,
      postings: [
        { account: agentAccount(agentId), amount: -amount },
        { account: WITHDRAWALS, amount },
      ],
    });
    const waits = overAgent || overAll;
    const [row] = await tx
      .insert(withdrawals)
      .values({
        id,
        agentId,
        asset: asset.symbol,
        chainId,
        token,
        toAddress: agentId,
        amount: amount.toString(),
        state: waits ? "awaiting_approval" : "queued",
        reason: overAgent ? "over_agent_cap" : overAll ? "over_daily_cap" : null,
        nextCheckAt: waits ? null : now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error("withdrawal insert returned nothing");
    return withdrawalWire(row);
  });
}

/** GET /agents/me/withdrawals: the caller's withdrawals, newest first. */
export async function myWithdrawals(ctx: Ctx): Promise<{ withdrawals: WithdrawalWire[] }> {
  const rows = await dbOf(ctx)
    .select()
    .from(withdrawals)
    .where(eq(withdrawals.agentId, agentOf(ctx)))
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(LIST_LIMIT);
  return { withdrawals: rows.map(withdrawalWire) };
}

/** GET /admin/withdrawals: the newest withdrawals, optionally of one state (admin token). */
export async function adminWithdrawals(ctx: Ctx, state?: WithdrawalState): Promise<{ withdrawals: WithdrawalWire[] }> {
  const rows = await dbOf(ctx)
    .select()
    .from(withdrawals)
    .where(state ? eq(withdrawals.state, state) : undefined)
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(LIST_LIMIT);
  return { withdrawals: rows.map(withdrawalWire) };
}

/**
 * Returns a withdrawal's held amount to its agent, in the caller's transaction that moves the row
 * out of a paying state: the state change is conditional, so the money comes back once.
 */
export async function returnHeld({ tx, now }: Pick<TxCtx, "tx" | "now">, w: WithdrawalRow): Promise<void> {
  await transfer(tx, {
    asset: w.asset,
    kind: "withdrawal_returned",
    ref: w.id,
    at: now,
    postings: [
      { account: WITHDRAWALS, amount: -BigInt(w.amount) },
      { account: agentAccount(w.agentId), amount: BigInt(w.amount) },
    ],
  });
}

/** The held amount has left on chain: `withdrawals` → `external`, in the confirming transaction. */
export async function releaseHeld({ tx, now }: Pick<TxCtx, "tx" | "now">, w: WithdrawalRow): Promise<void> {
  await transfer(tx, {
    asset: w.asset,
    kind: "withdrawal_paid",
    ref: w.id,
    at: now,
    postings: [
      { account: WITHDRAWALS, amount: -BigInt(w.amount) },
      { account: EXTERNAL, amount: BigInt(w.amount) },
    ],
  });
}

/**
 * POST /admin/withdrawals/{id}/approve | reject: the operator lets a withdrawal over a cap go
 * (queued for the worker) or refuses it (the money back to the agent). Only from awaiting_approval.
 */
export async function decideWithdrawal(
  ctx: Ctx,
  input: { id: string; decision: "approve" | "reject"; reason?: string | undefined },
): Promise<WithdrawalWire> {
  const { now } = ctx;
  return onceTx(ctx, async (tx) => {
    const [w] = await tx.select().from(withdrawals).where(eq(withdrawals.id, input.id)).for("update");
    if (!w) throw new AppError("NOT_FOUND", `no withdrawal ${input.id}`, { reason: "unknown_withdrawal" });
    if (w.state !== "awaiting_approval")
      throw new AppError("CONFLICT", `withdrawal ${w.id} is ${w.state}, not awaiting approval`, {
        reason: "not_awaiting_approval",
        state: w.state,
      });
    const approve = input.decision === "approve";
    if (!approve) await returnHeld({ tx, now }, w);
    const [row] = await tx
      .update(withdrawals)
      .set(
        approve
          ? { state: "queued", reason: "approved", approvedAt: now, nextCheckAt: now, updatedAt: now }
          : { state: "rejected", reason: `rejected:${input.reason ?? "operator"}`, updatedAt: now },
      )
      .where(eq(withdrawals.id, w.id))
      .returning();
    if (!row) throw new Error("withdrawal update returned nothing");
    return withdrawalWire(row);
  });
}

/** GET /transparency: withdrawals per asset and state (counts and totals). */
export async function withdrawalTotals(ctx: Ctx) {
  const rows = await dbOf(ctx)
    .select({
      asset: withdrawals.asset,
      state: withdrawals.state,
      count: sql<number>`count(*)::int`,
      total: sql<string>`sum(${withdrawals.amount})::text`,
    })
    .from(withdrawals)
    .groupBy(withdrawals.asset, withdrawals.state)
    .orderBy(withdrawals.asset, withdrawals.state);
  return rows.map((r) => ({ asset: r.asset, state: r.state, count: r.count, total: r.total }));
}
