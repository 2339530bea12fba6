import { and, asc, eq, gt, sql } from "drizzle-orm";
import { chainPayouts, missions } from "../../db/schema/index";
import type { Tx } from "../../db/client";
import { dbOf, withTx, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import type { ChainPayoutState } from "../../db/vocabulary";
import { lockMission } from "../../db/mission-visibility";
import { payoutStatusOf } from "./payouts.transition";
import type { PayoutRow } from "../../db/rows";
import { releasePathWire } from "./payouts.paths";
import { appendAudit } from "../../db/audit";

// Operator tooling for base-rail payouts (docs/base-rail.md "Operator routes"): list, retry, fail
// (convert: payouts.convert.ts).
// Every action names a reason and is recorded on the payout row (admin_actions, newest last, 20
// kept) in the transaction that acts, and logged. A payout with a transaction possibly in flight
// (broadcast, confirmed) is never failed by hand: the chain decides it.

export function payoutToAdminWire(p: PayoutRow) {
  return {
    id: p.id,
    mission_id: p.missionId,
    deposit_id: p.depositId,
    kind: p.kind,
    state: p.state,
    reason: p.reason,
    asset: p.asset,
    token: p.token,
    funder: p.funder,
    amount: p.amount,
    fee: p.fee,
    recipients: p.recipients.length,
    nonce: p.nonce,
    tx_hash: p.minedTxHash ?? p.txHash,
    attempts: p.attempts.length,
    retries: p.retries,
    next_check_at: p.nextCheckAt?.toISOString() ?? null,
    ...releasePathWire(p),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
    admin_actions: p.adminActions,
  };
}

/** GET /admin/payouts: by state, oldest first, keyset-paged on the id. */
export async function listPayouts(
  ctx: Ctx,
  q: { state?: ChainPayoutState | undefined; after?: string | undefined; limit: number },
) {
  const rows = await dbOf(ctx)
    .select()
    .from(chainPayouts)
    .where(
      and(q.state ? eq(chainPayouts.state, q.state) : undefined, q.after ? gt(chainPayouts.id, q.after) : undefined),
    )
    .orderBy(asc(chainPayouts.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return { payouts: page.map(payoutToAdminWire), next_after: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null };
}

const ALLOWED: Record<"retry" | "fail", readonly string[]> = {
  // retry: a failed payout goes through the pre-flight check again; a waiting one is checked now.
  retry: ["failed", "queued", "pending_gas"],
  // fail: only while no transaction of it can be in flight (a stored unsent one is dropped).
  fail: ["queued", "pending_gas"],
};

/** A payout and its mission, locked in order (mission → payout); 404 when either is missing. */
export async function lockPayout(tx: Tx, id: string) {
  const [first] = await tx
    .select({ missionId: chainPayouts.missionId })
    .from(chainPayouts)
    .where(eq(chainPayouts.id, id));
  if (!first) throw new AppError("NOT_FOUND", `payout ${id} not found`);
  const m = await lockMission(tx, first.missionId);
  const [p] = await tx.select().from(chainPayouts).where(eq(chainPayouts.id, id)).for("update");
  if (!p || !m) throw new AppError("NOT_FOUND", `payout ${id} not found`);
  return { m, p };
}

/** Bounded audit trail: a payout keeps the newest 20 admin actions. */
export async function trimAdminActions(ctx: Ctx, row: typeof chainPayouts.$inferSelect): Promise<void> {
  if (row.adminActions.length <= 20) return;
  await dbOf(ctx)
    .update(chainPayouts)
    .set({ adminActions: row.adminActions.slice(-20) })
    .where(eq(chainPayouts.id, row.id));
}

/** Refuses a hand action the payout's state does not allow (409 with the reason). */
function assertActionable(p: typeof chainPayouts.$inferSelect, action: "retry" | "fail"): void {
  if (!ALLOWED[action].includes(p.state)) {
    throw new AppError(
      "CONFLICT",
      `a ${p.state} payout cannot be ${action === "retry" ? "retried" : "failed"} by hand`,
      {
        reason: "payout_state",
        state: p.state,
        allowed: ALLOWED[action],
      },
    );
  }
  if (action !== "fail") return;
  if (p.rawTx) {
    throw new AppError(
      "CONFLICT",
      "this payout has a signed transaction that may have reached the node; wait for the worker to settle it",
      { reason: "payout_in_flight", state: p.state },
    );
  }
  if (p.step === "execute" && !p.releaseSignature) {
    // A proposal of it is on chain, and anyone may execute it after the window: only the
    // guardian's cancel stops it (then the payout waits, and may be failed).
    throw new AppError(
      "CONFLICT",
      "this release is proposed on chain and executable by anyone after its window; the guardian cancels it first",
      { reason: "payout_in_flight", state: p.state, step: p.step },
    );
  }
}

/** POST /admin/payouts/{id}/retry and /fail. */
export async function actOnPayout(
  ctx: Ctx,
  { id, action, reason }: { id: string; action: "retry" | "fail"; reason: string },
) {
  const { deps, now } = ctx;
  const row = await withTx(ctx, async (tx) => {
    const { m, p } = await lockPayout(tx, id);
    assertActionable(p, action);
    const state = action === "retry" ? (p.state === "failed" ? "queued" : p.state) : "failed";
    const entry = { action, reason, from_state: p.state, at: now.toISOString() };
    await appendAudit(tx, {
      at: now,
      action: action === "retry" ? "payout.retry" : "payout.fail",
      target: id,
      detail: { reason, mission_id: m.id, from_state: p.state },
    });
    const [updated] = await tx
      .update(chainPayouts)
      .set({
        state,
        reason: `admin_${action}:${reason}`,
        retries: 0,
        nextCheckAt: state === "failed" ? null : now,
        updatedAt: now,
        adminActions: sql`(${chainPayouts.adminActions} || ${JSON.stringify([entry])}::jsonb)`,
      })
      .where(eq(chainPayouts.id, id))
      .returning();
    if (m.escrow?.deposit?.id === p.depositId && (p.kind === "release" || m.status === "voided")) {
      await tx
        .update(missions)
        .set({
          payoutStatus: payoutStatusOf(state),
          payoutStatusReason: `admin_${action}:${reason}`,
          payoutStatusUpdatedAt: now,
          updatedAt: now,
        })
        .where(eq(missions.id, m.id));
    }
    if (!updated) throw new AppError("NOT_FOUND", `payout ${id} not found`);
    return updated;
  });
  await trimAdminActions(ctx, row);
  deps.logger.warn({ payout: id, mission: row.missionId, action, reason, state: row.state }, "admin: payout action");
  return payoutToAdminWire(row);
}
