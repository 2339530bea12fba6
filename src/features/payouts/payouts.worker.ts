import { and, asc, eq, inArray, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import { chainPayouts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { RpcUnavailableError, type Heads } from "../../lib/base-chain";
import type { ChainCtx } from "../../lib/context";
import { chainHeads, recordWorkerRun, railStatus, type Tick } from "../rail";
import { stepPayout } from "./payouts.steps";
import { backoffMs } from "./payouts.transition";
import { watchConfirmed } from "./payouts.watch";
import type { PayoutRow } from "../../db/rows";

// The settlement worker's tick (docs/base-rail.md "Liveness"): two bounded passes.
//  1. Work batch: payouts that need the resolver (queued, pending_gas, broadcast), oldest
//     next_check_at first. Every row checked gets a new next_check_at — progress, its own
//     backoff, or one poll interval later — so no row can hold the head of the queue, and one
//     row's failure (a revert, an odd node answer) never stops the others. Only three outages in
//     a row end the pass early: the RPC is down, and the rest wait their turn.
//  2. Finality pass: confirmed payouts whose block has reached the finality depth — a SQL range
//     on block_number, so the hundreds waiting for finality cost no RPC and no batch slots.

const WORK_BATCH = 20;
const FINALITY_BATCH = 100;
const WORK_STATES = ["queued", "pending_gas", "broadcast"] as const;
const OUTAGES_BEFORE_STOP = 3;

/** This chain's confirmed payouts (and `also`): the ones waiting for the finality depth. */
function confirmedOn(chainId: number, ...also: SQL[]) {
  return and(eq(chainPayouts.chainId, chainId), eq(chainPayouts.state, "confirmed"), ...also);
}

export async function runPayouts(deps: Deps, budgetMs = 15_000): Promise<number> {
  const chain = deps.chain;
  // No key in this process (the public API beside `npm run worker`): settlement is not its job.
  if (!chain || !chain.canSign) return 0;
  const started = performance.now();
  const now = deps.clock.now();
  const { due, waiting } = await dueWork({ deps, chain, now });
  if (due.length === 0 && !waiting) {
    await recordWorkerRun({ deps, now }, { run: { ok: true } });
    return 0; // idle: no RPC at all
  }
  let heads: Heads;
  try {
    heads = await chainHeads(deps, chain);
  } catch (err) {
    if (!(err instanceof RpcUnavailableError)) throw err;
    await recordWorkerRun({ deps, now }, { run: { ok: false, error: err.message } });
    return 0; // nothing changes; the next tick retries
  }
  const tick = { heads, started, budgetMs };
  const work = await workBatch({ deps, chain, now }, { ...tick, due });
  const stepped = work.stepped + (await finalityPass({ deps, chain, now }, tick));
  await recordWorkerRun({ deps, now }, { run: work.rpcDown ? { ok: false, error: "rpc_unavailable" } : { ok: true } });
  return stepped;
}

/** The work batch due now (oldest next_check_at first), and whether any payout waits for finality. */
async function dueWork({ deps, chain, now }: ChainCtx) {
  const db = deps.database.db;
  const due = await db
    .select()
    .from(chainPayouts)
    .where(
      and(
        eq(chainPayouts.chainId, chain.chainId),
        inArray(chainPayouts.state, [...WORK_STATES]),
        isNotNull(chainPayouts.nextCheckAt),
        lte(chainPayouts.nextCheckAt, now),
      ),
    )
    .orderBy(asc(chainPayouts.nextCheckAt), asc(chainPayouts.id))
    .limit(WORK_BATCH);
  const [waiting] = await db
    .select({ one: sql<number>`1` })
    .from(chainPayouts)
    .where(confirmedOn(chain.chainId))
    .limit(1);
  return { due, waiting: waiting !== undefined };
}

/**
 * Steps each due payout once; a failed step backs that row off alone. `rpcDown`: the pass ended
 * early after OUTAGES_BEFORE_STOP outages in a row.
 */
async function workBatch(
  ctx: ChainCtx,
  { due, started, budgetMs, heads }: Tick & { due: PayoutRow[] },
): Promise<{ stepped: number; rpcDown: boolean }> {
  const { deps, now } = ctx;
  let stepped = 0;
  let outages = 0;
  // Without RESOLVER_ROLE nothing new is signed: queued payouts wait (a retryable state, never
  // failed) until the role is back; transactions already signed are still watched.
  const rail = railStatus(deps);
  const roleMissing = rail?.available === false && rail.reason === "resolver_role_missing";
  for (const p of due) {
    if (roleMissing && p.state !== "broadcast") {
      await waitForRole(deps, p, now);
      continue;
    }
    if (performance.now() - started > budgetMs) break;
    try {
      await stepPayout({ ...ctx, now: deps.clock.now() }, { payout: p, heads });
      outages = 0;
      stepped++;
      await keepMoving(deps, p, now);
    } catch (err) {
      const outage = err instanceof RpcUnavailableError;
      if (outage)
        deps.logger.warn({ payout: p.id, err: err.message }, "settlement: RPC unavailable; this payout backs off");
      else deps.logger.error({ err, payout: p.id }, "settlement step failed; this payout backs off");
      await backOff(deps, p, now);
      if (outage && ++outages >= OUTAGES_BEFORE_STOP) break;
    }
  }
  return { stepped, rpcDown: outages >= OUTAGES_BEFORE_STOP };
}

/** Confirmed payouts at the finality depth: final, or back to work if their block was reorged away. */
async function finalityPass(ctx: ChainCtx, { heads, started, budgetMs }: Tick): Promise<number> {
  const { deps, chain } = ctx;
  const rows = await deps.database.db
    .select()
    .from(chainPayouts)
    .where(confirmedOn(chain.chainId, lte(chainPayouts.blockNumber, heads.final)))
    .orderBy(asc(chainPayouts.blockNumber), asc(chainPayouts.id))
    .limit(FINALITY_BATCH);
  let n = 0;
  for (const p of rows) {
    if (performance.now() - started > budgetMs) break;
    try {
      await watchConfirmed({ ...ctx, now: deps.clock.now() }, { payout: p, heads });
      n++;
    } catch (err) {
      if (err instanceof RpcUnavailableError) break;
      deps.logger.error({ err, payout: p.id }, "settlement: finality check failed; retried next tick");
    }
  }
  return n;
}

/** A check that left next_check_at due (nothing to do yet): look again one poll interval later. */
async function keepMoving(deps: Deps, p: PayoutRow, now: Date): Promise<void> {
  const next = new Date(now.getTime() + (deps.config.baseRail?.pollMs ?? 4_000));
  await deps.database.db
    .update(chainPayouts)
    .set({ nextCheckAt: next })
    .where(
      and(
        eq(chainPayouts.id, p.id),
        isNotNull(chainPayouts.nextCheckAt),
        lte(chainPayouts.nextCheckAt, now),
        inArray(chainPayouts.state, [...WORK_STATES]),
      ),
    );
}

async function waitForRole(deps: Deps, p: PayoutRow, now: Date): Promise<void> {
  await deps.database.db
    .update(chainPayouts)
    .set({
      reason: "waiting:resolver_role_missing",
      nextCheckAt: new Date(now.getTime() + (deps.config.baseRail?.pollMs ?? 4_000)),
      updatedAt: now,
    })
    .where(and(eq(chainPayouts.id, p.id), inArray(chainPayouts.state, ["queued", "pending_gas"])));
}

/** A check that failed (outage, unexpected error): this row alone waits longer, doubling each time. */
async function backOff(deps: Deps, p: PayoutRow, now: Date): Promise<void> {
  await deps.database.db
    .update(chainPayouts)
    .set({
      nextCheckAt: new Date(now.getTime() + backoffMs(p.retries, deps.config.baseRail?.pollMs ?? 4_000)),
      retries: sql`${chainPayouts.retries} + 1`,
    })
    .where(and(eq(chainPayouts.id, p.id), isNotNull(chainPayouts.nextCheckAt)));
}
