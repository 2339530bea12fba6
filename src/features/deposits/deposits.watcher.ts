import { and, asc, eq, lte } from "drizzle-orm";
import { chainCursors, escrowDeposits, missions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import {
  RpcUnavailableError,
  type BaseChain,
  type EscrowContract,
  type FundedLog,
  type Heads,
  type TxReceipt,
} from "../../lib/base-chain";
import { lockMission } from "../../db/mission-visibility";
import { recordEscrowEvent, inCustodyTx, judgeMovement, judgeProposal } from "../custody";
import { checkFundedLog, missionTerms } from "./deposits.check";
import {
  confirmDeposit,
  depositOfLog,
  finalizeDeposit,
  moveDeposit,
  type OfMission,
  recordDeposit,
  reorgDeposit,
} from "./deposits.record";
import type { ChainCtx, TxCtx } from "../../lib/context";
import { chainHeads, pollDue, recordWorkerRun, type Tick } from "../rail";
import { confirmTopUp, recordTopUpDeposit, reorgTopUp } from "./deposits.topups";
import { topUpByKey } from "../../db/mission-parts";

// The escrow watcher (docs/design.md "Escrow and settlement"): finds Funded logs by itself, so a
// creator need not attach the transaction; takes deposits to the confirmation depth (the mission
// opens) and watches them until final (a reorg moves the mission back). Everything it knows is
// committed state, so a restart — or an RPC outage — only delays it.

/** Blocks per eth_getLogs call: public Base RPCs cap ranges at a few thousand. */
const SCAN_SPAN = 2_000;
const BATCH = 50;
/** Catching up (a retired contract's history): spans per contract per tick. */
const SPANS_PER_TICK = 10;
const CURSOR_PREFIX = "escrow:";
/** The cursor of the single-contract watcher before contracts had their own. */
const LEGACY_CURSOR = "escrow_funded";

export async function watchEscrow(deps: Deps, budgetMs = 10_000): Promise<void> {
  const chain = deps.chain;
  if (!chain) return;
  // At most one round per poll interval (OABP_CHAIN_POLL_MS): the idle RPC load is this round.
  if (!pollDue(deps, chain)) return;
  const started = performance.now();
  const now = deps.clock.now();
  let heads: Heads;
  try {
    heads = await chainHeads(deps, chain);
  } catch (err) {
    if (err instanceof RpcUnavailableError) {
      deps.logger.warn({ err: err.message }, "escrow watcher: RPC unavailable; pending deposits wait");
      await recordWorkerRun({ deps, now }, { run: { ok: false, error: err.message }, name: "watcher" });
      return;
    }
    throw err;
  }
  const ctx = { deps, chain, now };
  const tick = { heads, started, budgetMs };
  await scanEscrowLogs(ctx, tick);
  await checkDeposits(ctx, tick);
  await recordWorkerRun({ deps, now }, { run: { ok: true }, name: "watcher" });
}

/**
 * Scans every followed contract (the configured one and the retired ones, docs/base-rail.md
 * "Migrating to a new escrow") from its own cursor: one eth_getLogs per contract and bounded span
 * (at most SPANS_PER_TICK spans a tick). Funded logs go to the deposit rules; every other
 * non-settlement log (exits, credits, governance) is indexed once it is at the confirmation depth
 * (custody.exits.ts). A cursor only moves up to the final head: blocks that may still reorg are
 * scanned again on the next tick, so a log that a reorg moves is found again; re-seeing a known
 * log is a cheap no-op.
 */
async function scanEscrowLogs({ deps, chain }: ChainCtx, { heads, started, budgetMs }: Tick) {
  for (const c of chain.contracts) {
    for (let i = 0; i < SPANS_PER_TICK && performance.now() - started < budgetMs; i++)
      if (!(await scanSpan(deps, chain, c, heads))) break;
  }
}

/** One span of one contract; true when there is more to scan right away. */
async function scanSpan(deps: Deps, chain: BaseChain, c: EscrowContract, heads: Heads): Promise<boolean> {
  const cursor = await cursorOf(deps, chain, c, heads);
  if (!cursor) return false;
  const from = cursor.row.nextBlock;
  const to = Math.min(heads.latest, from + SCAN_SPAN - 1);
  if (from > to) return false;
  const logs = await chain.escrowLogs(c.address, from, to).catch((err) => {
    if (err instanceof RpcUnavailableError) return null;
    throw err;
  });
  if (!logs) return false;
  await applyLogs(deps, chain, { logs, heads });
  const next = Math.min(to, heads.final) + 1;
  if (next > from)
    await deps.database.db
      .update(chainCursors)
      .set({ nextBlock: next, updatedAt: deps.clock.now() })
      .where(cursor.where);
  return to < heads.final;
}

/** The contract's scan cursor, made on first sight. */
async function cursorOf(deps: Deps, chain: BaseChain, c: EscrowContract, heads: Heads) {
  const db = deps.database.db;
  const name = `${CURSOR_PREFIX}${c.address}`;
  const where = and(eq(chainCursors.chainId, chain.chainId), eq(chainCursors.name, name));
  const [found] = await db.select().from(chainCursors).where(where);
  if (found) return { row: found, where };
  // The configured contract resumes where the single-contract watcher stopped (LEGACY_CURSOR).
  const [legacy] = c.current
    ? await db
        .select()
        .from(chainCursors)
        .where(and(eq(chainCursors.chainId, chain.chainId), eq(chainCursors.name, LEGACY_CURSOR)))
    : [];
  await db
    .insert(chainCursors)
    .values({
      chainId: chain.chainId,
      name,
      nextBlock: legacy?.nextBlock ?? c.startBlock ?? heads.latest,
      updatedAt: deps.clock.now(),
    })
    .onConflictDoNothing();
  const [row] = await db.select().from(chainCursors).where(where);
  return row ? { row, where } : null;
}

/** A span's deposits, events and movements, each applied once. */
async function applyLogs(
  deps: Deps,
  chain: BaseChain,
  { logs, heads }: { logs: NonNullable<Awaited<ReturnType<BaseChain["escrowLogs"]>>>; heads: Heads },
): Promise<void> {
  for (const log of logs.funded) await considerLog(deps, chain, log, heads);
  const times = new Map<number, number | null>();
  for (const ev of logs.events) {
    // A proposal is judged at once, not at the depth: the guardian's window runs from it (docs/custody.md).
    if (ev.name === "ReleaseProposed") await inCustodyTx({ deps, chain }, (ctx) => judgeProposal(ctx, ev));
    if (ev.blockNumber > heads.confirmed) continue; // indexed once at the confirmation depth
    if (!times.has(ev.blockNumber)) times.set(ev.blockNumber, await chain.blockTime(ev.blockNumber).catch(() => null));
    await recordEscrowEvent(
      { deps, chain, now: deps.clock.now() },
      { ev, blockTime: times.get(ev.blockNumber) ?? null },
    );
  }
  // Every release and refund of a slot of ours is judged against the signed decisions (idempotent:
  // seen again until final, it changes nothing twice).
  for (const mv of logs.movements)
    if (mv.blockNumber <= heads.confirmed) await inCustodyTx({ deps, chain }, (ctx) => judgeMovement(ctx, mv));
}

async function considerLog(deps: Deps, chain: BaseChain, log: FundedLog, heads: Heads): Promise<void> {
  const db = deps.database.db;
  const [known] = await db
    .select({ status: escrowDeposits.status })
    .from(escrowDeposits)
    .where(depositOfLog(chain.chainId, log));
  if (known && known.status !== "reorged") return;
  const [m] = await db
    .select({
      id: missions.id,
      rewardAmount: missions.rewardAmount,
      spamFee: missions.spamFee,
      escrow: missions.escrow,
    })
    .from(missions)
    .where(eq(missions.escrowKey, log.missionKey.toLowerCase()))
    .limit(1);
  if (!m?.escrow) {
    // A top-up's own slot (deposits.topups.ts), or a key this server never issued.
    const a = await topUpByKey(db, log.missionKey);
    if (!a?.escrow) return;
    const topUp = checkFundedLog(log, {
      escrow: a.escrow.contract,
      missionKey: a.escrow.mission_key,
      token: a.escrow.token,
      reward: BigInt(a.amount ?? "0"),
      spamFee: 0n,
      refundAfter: a.escrow.refund_after,
    });
    await db.transaction((tx) =>
      recordTopUpDeposit(
        { tx, deps, now: deps.clock.now() },
        { amendmentId: a.id, log, heads, ...(topUp.ok ? {} : { rejection: topUp.reason }) },
      ),
    );
    return;
  }
  const check = checkFundedLog(log, missionTerms(chain, { mission: m, escrow: m.escrow }));
  await db.transaction((tx) =>
    recordDeposit(
      { tx, deps, now: deps.clock.now() },
      { missionId: m.id, log, heads, ...(check.ok ? {} : { rejection: check.reason }) },
    ),
  );
}

/**
 * Live deposits that reached a depth: pending ones at the confirmation depth open their mission,
 * confirmed ones at the finality depth become final — each checked once there (a reorg meanwhile
 * shows then: the receipt is gone or in another block). Rows still short of their depth are not
 * read at all, so any number of deposits inside the finality window costs no RPC and never holds
 * the head of a batch (docs/base-rail.md "Liveness"). Every row read moves on (another state or
 * another block), so a batch never sees the same rows twice.
 */
async function checkDeposits({ deps, chain }: ChainCtx, { heads, started, budgetMs }: Tick): Promise<void> {
  const db = deps.database.db;
  const atDepth = (status: "pending" | "confirmed", block: number) =>
    db
      .select()
      .from(escrowDeposits)
      .where(
        and(
          eq(escrowDeposits.chainId, chain.chainId),
          eq(escrowDeposits.status, status),
          lte(escrowDeposits.blockNumber, block),
        ),
      )
      .orderBy(asc(escrowDeposits.blockNumber), asc(escrowDeposits.id))
      .limit(BATCH);
  for (const [status, block] of [
    ["pending", heads.confirmed],
    ["confirmed", heads.final],
  ] as const) {
    for (const d of await atDepth(status, block)) {
      if (performance.now() - started > budgetMs) return;
      if (!(await checkDeposit(deps, chain, d, heads))) return; // the RPC is out: next poll
    }
  }
}

async function checkDeposit(
  deps: Deps,
  chain: BaseChain,
  d: typeof escrowDeposits.$inferSelect,
  heads: Heads,
): Promise<boolean> {
  const now = deps.clock.now();
  let receipt;
  try {
    receipt = await chain.receipt(d.txHash);
  } catch (err) {
    if (err instanceof RpcUnavailableError) return false;
    throw err;
  }
  const stillThere =
    receipt?.status === "success" &&
    receipt.funded.some(
      (l) => l.address === (d.escrowAddress ?? chain.escrow) && l.logIndex === d.logIndex && l.txHash === d.txHash,
    );
  await deps.database.db.transaction(async (tx) => {
    const m = await lockMission(tx, d.missionId);
    const [cur] = await tx.select().from(escrowDeposits).where(eq(escrowDeposits.id, d.id)).for("update");
    if (!m || !cur || cur.status !== d.status || cur.blockHash !== d.blockHash) return; // changed meanwhile: next tick
    await depositAtDepth({ tx, deps, now }, { mission: m, deposit: cur, receipt: stillThere ? receipt : null, heads });
  });
  return true;
}

/**
 * A live deposit at its depth, locked and as read: reorged away (no receipt), moved to another
 * block, confirmed (the mission opens, the top-up applies) or final.
 */
async function depositAtDepth(
  ctx: TxCtx,
  { receipt, heads, ...row }: OfMission & { receipt: TxReceipt | null; heads: Heads },
): Promise<void> {
  const { mission: m, deposit: cur } = row;
  if (!receipt) return cur.amendmentId ? reorgTopUp(ctx, row) : reorgDeposit(ctx, row);
  if (receipt.blockHash !== cur.blockHash) {
    // Re-mined elsewhere: follow it; the depth is judged again from its new block.
    await moveDeposit(ctx, { ...row, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash });
    if (receipt.blockNumber > (cur.status === "pending" ? heads.confirmed : heads.final)) return;
  }
  if (cur.status === "pending" && receipt.blockNumber <= heads.confirmed)
    await (cur.amendmentId ? confirmTopUp(ctx, row) : confirmDeposit(ctx, row));
  else if (cur.status === "confirmed" && receipt.blockNumber <= heads.final)
    await finalizeDeposit(ctx, { mission: m, deposit: cur });
}
