import { and, eq, inArray, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { treasuryHealth } from "./escrow.treasury-health";
import { chainAccounts, chainPayouts, chainWorkers, escrowDeposits } from "../../db/schema/index";
import { pollMsOf, railStatus } from "../rail";
import { releasePathWire } from "../payouts";
import { RpcUnavailableError, type BaseChain } from "../../lib/base-chain";
import type { DbOrTx } from "../../db/client";
import type { Deps } from "../../deps";
import { missionLedgerEscrow, treasuryBalances } from "../ledger";
import { AppError } from "../../lib/errors";
import { agentOf, type Ctx, dbOf, viewerOf, withTx } from "../../lib/context";
import { findMissionRow, findVisibleMission } from "../../db/mission-visibility";
import {
  checkDepositReceipt,
  DEPOSIT_REJECTIONS,
  missionTerms,
  depositsOfTx,
  recordDeposit,
  resolverRefunds,
} from "../deposits";
import type { TreasuryResponse } from "./escrow.schemas";
import { escrowToWire } from "./escrow.wire";
import { depositTotals } from "./escrow.reconcile";

const rpcDown = (err: unknown) => {
  if (err instanceof RpcUnavailableError)
    return new AppError(
      "SERVICE_UNAVAILABLE",
      "the chain RPC is unavailable; retry later (the escrow watcher also finds deposits by itself)",
      { reason: "rpc_unavailable" },
    );
  return err;
};

/**
 * POST /missions/{id}/escrow: the creator names the funding transaction. Verified against the
 * receipt (status, emitting contract, mission key, token, amount, spam fee); the mission opens
 * when the deposit's block is at the confirmation depth (`confirmed`: the route's 200), else it
 * waits (202) and the watcher opens it. A log already bound to another mission → 409.
 */
export async function attachDeposit(ctx: Ctx, { missionId, txHash }: { missionId: string; txHash: string }) {
  const { deps } = ctx;
  const caller = agentOf(ctx);
  const m = await findVisibleMission(ctx, missionId, caller);
  if (m.rewardChain !== "base" || !m.escrow)
    throw new AppError("UNPROCESSABLE", "this mission is not on the base rail: nothing to escrow on chain", {
      reason: "not_base_rail",
    });
  if (m.creator !== caller) throw new AppError("FORBIDDEN", "only the mission's creator attaches its deposit");
  const chain = deps.chain;
  if (!chain)
    throw new AppError("UNPROCESSABLE", "settlement rail base is not enabled on this server", {
      reason: "rail_not_enabled",
    });
  const hash = txHash.toLowerCase();
  const bound = m.escrow.deposit;
  if (bound && bound.tx_hash === hash && bound.status !== "reorged")
    return depositView(ctx, m.id, bound.status !== "pending");

  // A deposit is consumed once (docs/design.md): a transaction whose escrow log already backs another
  // mission is a reuse, whatever else is wrong with it for this one.
  const [used] = await dbOf(ctx)
    .select({ missionId: escrowDeposits.missionId })
    .from(escrowDeposits)
    .where(depositsOfTx(chain.chainId, { txHash: hash, also: [ne(escrowDeposits.missionId, m.id)] }))
    .limit(1);
  if (used)
    throw new AppError("CONFLICT", "this deposit already backs another mission", {
      field: "tx_hash",
      reason: "deposit_already_used",
    });
  const [receipt, heads] = await Promise.all([chain.receipt(hash), chain.heads()]).catch((err) =>
    Promise.reject(rpcDown(err)),
  );
  const check = checkDepositReceipt(receipt, missionTerms(chain, { mission: m, escrow: m.escrow }));
  const { log } = check;
  if (!log) {
    const reason = check.ok ? "no_funded_log" : check.reason; // an accepted check always carries its log
    throw new AppError("UNPROCESSABLE", DEPOSIT_REJECTIONS[reason], { field: "tx_hash", reason });
  }
  // The clock read after the chain calls, as before (the receipt wait is not part of the instant).
  const outcome = await withTx(ctx, (tx) =>
    recordDeposit(
      { tx, deps, now: deps.clock.now() },
      { missionId: m.id, log, heads, ...(check.ok ? {} : { rejection: check.reason }) },
    ),
  );
  if (outcome.kind === "used_elsewhere") {
    throw new AppError("CONFLICT", "this deposit already backs another mission", {
      field: "tx_hash",
      reason: "deposit_already_used",
    });
  }
  if (outcome.kind === "rejected") {
    // The spam fee is never refunded: it was paid to the treasury at funding (and pays the refund's gas).
    const refunded = resolverRefunds(m, log);
    const what = refunded
      ? "the deposit is refunded to its funder; the spam fee is kept"
      : "the deposit is not refunded by the server (wrong token or spam fee short): its funder withdraws it with reclaim() once the mission key is released, or after its refund-after time";
    throw new AppError("UNPROCESSABLE", `${DEPOSIT_REJECTIONS[outcome.reason]}; ${what}`, {
      field: "tx_hash",
      reason: outcome.reason,
      refund: refunded ? "queued" : "none",
    });
  }
  return depositView(ctx, m.id, outcome.deposit.status !== "pending");
}

async function depositView(ctx: Ctx, missionId: string, confirmed: boolean) {
  const m = await findMissionRow(ctx, missionId);
  const escrow = m && escrowToWire(m);
  if (!m || !escrow) throw new AppError("NOT_FOUND", `mission ${missionId} not found`);
  return { confirmed, body: { mission_id: m.id, mission_status: m.status, escrow } };
}

/** GET /missions/{id}/escrow: visible like the mission (a pending one to its creator only). */
export async function getEscrow(ctx: Ctx, { missionId }: { missionId: string }) {
  const m = await findVisibleMission(ctx, missionId, viewerOf(ctx));
  // The ledger rail answers too, with the mission's escrow account and chain.
  const escrow = escrowToWire(m);
  if (!escrow)
    return {
      mission_id: m.id,
      mission_status: m.status,
      rail: "ledger" as const,
      escrow: null,
      ledger: await missionLedgerEscrow(dbOf(ctx), { missionId: m.id, asset: m.rewardAsset }),
    };
  return { mission_id: m.id, mission_status: m.status, rail: "base" as const, escrow, ledger: null };
}

/**
 * GET /treasury (admin): what an operator needs to keep payouts flowing — the resolver's gas
 * balance (gas starvation broke real payouts), escrowed totals per asset, and every settlement
 * that is not final yet. Chain reads are best-effort: an RPC outage shows as nulls, not a 5xx.
 */
export async function treasuryView(ctx: Ctx): Promise<z.infer<typeof TreasuryResponse>> {
  const { deps } = ctx;
  const db = dbOf(ctx);
  const chain = deps.chain;
  const ledger = [...(await treasuryBalances(db)).entries()].map(([asset, balance]) => ({
    asset,
    balance: balance.toString(),
  }));
  if (!chain)
    return { base_rail: railOffTreasury(deps), treasury_health: "not_applicable", ledger: { treasury: ledger } };
  const escrowed = await escrowedDeposits(db, chain);
  const [nonceRow] = await db
    .select()
    .from(chainAccounts)
    .where(and(eq(chainAccounts.chainId, chain.chainId), eq(chainAccounts.address, chain.resolver)));
  const now = deps.clock.now();
  const probe = await RpcProbe.of(chain);
  const gas = await probe.best(() => chain.balance(chain.resolver));
  const rail = railStatus(deps);
  const balances = await Promise.all(escrowed.map((e) => probe.best(() => chain.tokenBalance(e.token, e.contract))));
  return {
    base_rail: {
      enabled: true,
      off_reason: null,
      available: rail?.available ?? true,
      unavailable_reason: rail?.reason ?? null,
      unavailable_detail: rail?.detail ?? null,
      chain_id: chain.chainId,
      escrow_contract: chain.escrow,
      rpc: probe.rpc,
      rpc_error: probe.error,
      ...(await workerHealth(deps, db, { chainId: chain.chainId, now })),
      resolver: {
        address: chain.resolver,
        gas_balance_wei: gas === null ? null : gas.toString(),
        next_nonce: nonceRow?.nextNonce ?? null,
      },
      escrowed: escrowed.map((e, i) => ({ ...e, contract_balance: balances[i]?.toString() ?? null })),
      pending_settlements: await pendingSettlements(db, chain.chainId),
    },
    treasury_health: await treasuryHealth(deps, db),
    ledger: { treasury: ledger },
  };
}

type TreasuryRail = z.infer<typeof TreasuryResponse>["base_rail"];

function railOffTreasury(deps: Deps): TreasuryRail {
  return {
    enabled: false,
    off_reason: deps.config.baseRailOff,
    available: false,
    unavailable_reason: null,
    unavailable_detail: null,
    chain_id: null,
    escrow_contract: null,
    rpc: "off",
    rpc_error: null,
    workers: [],
    oldest_queued_payout_age_seconds: null,
    resolver: null,
    escrowed: [],
    pending_settlements: { by_state: {}, items: [] },
  };
}

/**
 * Live deposits whose money is still in a contract: not yet covered by a final payout, not taken
 * back by their funder; per contract (docs/base-rail.md "Migrating to a new escrow").
 */
function escrowedDeposits(db: DbOrTx, chain: BaseChain) {
  return depositTotals(db, {
    chain,
    where: and(
      inArray(escrowDeposits.status, ["pending", "confirmed", "final", "rejected"]),
      isNull(escrowDeposits.exitedBy),
      sql`not exists (select 1 from ${chainPayouts} p where p.deposit_id = ${escrowDeposits.id} and p.state = 'final')`,
    ),
  });
}

/** Every settlement that is not final yet: counts per state, and the live and failed payouts. */
async function pendingSettlements(db: DbOrTx, chainId: number): Promise<TreasuryRail["pending_settlements"]> {
  const live = await db
    .select()
    .from(chainPayouts)
    .where(
      and(
        eq(chainPayouts.chainId, chainId),
        // A payout parked after a guardian's cancel waits for the operator, with no next check.
        or(isNotNull(chainPayouts.nextCheckAt), eq(chainPayouts.reason, "waiting:release_cancelled")),
      ),
    )
    .orderBy(chainPayouts.createdAt)
    .limit(100);
  const failed = await db
    .select()
    .from(chainPayouts)
    .where(and(eq(chainPayouts.chainId, chainId), eq(chainPayouts.state, "failed")))
    .limit(100);
  const byState = await db
    .select({ state: chainPayouts.state, n: sql<number>`count(*)::int` })
    .from(chainPayouts)
    .where(and(eq(chainPayouts.chainId, chainId), sql`${chainPayouts.state} <> 'final'`))
    .groupBy(chainPayouts.state);
  return {
    by_state: Object.fromEntries(byState.map((r) => [r.state, r.n])),
    items: [...live, ...failed].map((p) => ({
      id: p.id,
      mission_id: p.missionId,
      kind: p.kind,
      state: p.state,
      reason: p.reason,
      asset: p.asset,
      amount: p.amount,
      tx_hash: p.minedTxHash ?? p.txHash,
      nonce: p.nonce,
      updated_at: p.updatedAt.toISOString(),
      next_check_at: p.nextCheckAt?.toISOString() ?? null,
      retries: p.retries,
      ...releasePathWire(p),
    })),
  };
}

/** The chain workers' last runs, and how long the oldest unsent payout has waited. */
async function workerHealth(deps: Deps, db: DbOrTx, { chainId, now }: { chainId: number; now: Date }) {
  const [oldest] = await db
    .select({ at: sql<Date | string | null>`min(${chainPayouts.createdAt})` })
    .from(chainPayouts)
    .where(and(eq(chainPayouts.chainId, chainId), inArray(chainPayouts.state, ["queued", "pending_gas"])));
  const oldestAt = oldest?.at ? new Date(oldest.at) : null;
  const workers = await db
    .select()
    .from(chainWorkers)
    .where(eq(chainWorkers.chainId, chainId))
    .orderBy(chainWorkers.name);
  const staleMs = Math.max(3 * pollMsOf(deps), 30_000);
  return {
    workers: workers.map((w) => ({
      name: w.name,
      healthy: w.lastError === null && now.getTime() - w.lastRunAt.getTime() <= staleMs,
      last_run_at: w.lastRunAt.toISOString(),
      last_ok_at: w.lastOkAt?.toISOString() ?? null,
      last_error: w.lastError,
    })),
    oldest_queued_payout_age_seconds: oldestAt
      ? Math.max(0, Math.floor((now.getTime() - oldestAt.getTime()) / 1000))
      : null,
  };
}

/** A live probe (the RPC answers, and for the configured chain), then best-effort reads: nulls once it failed. */
class RpcProbe {
  rpc: "ok" | "unavailable" | "wrong_chain" = "ok";
  error: string | null = null;

  static async of(chain: BaseChain): Promise<RpcProbe> {
    const probe = new RpcProbe();
    const id = await probe.best(() => chain.rpcChainId());
    if (id !== null && id !== chain.chainId)
      [probe.rpc, probe.error] = ["wrong_chain", `the RPC serves chain ${id}, not ${chain.chainId}`];
    return probe;
  }

  async best<T>(read: () => Promise<T>): Promise<T | null> {
    if (this.rpc === "unavailable") return null;
    try {
      return await read();
    } catch (err) {
      [this.rpc, this.error] = ["unavailable", err instanceof Error ? err.message.slice(0, 300) : String(err)];
      return null;
    }
  }
}
