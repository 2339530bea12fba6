import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import { missionAmendments } from "../../db/schema/index";
import { lockMission } from "../../db/mission-visibility";
import type { Deps } from "../../deps";
import type { Job } from "../../jobs/job";

// Unfunded base-rail top-ups expire (docs/amendments.md "Slots"): a `pending` top-up whose deposit
// the watcher has not seen within TOP_UP_PENDING_TTL_SECONDS is rejected with `reason:
// expired` and stops counting against the mission's top-up bound. One seen but not yet confirmed
// (escrow.deposit_id set) is left to the watcher. A deposit that lands on an expired top-up's key
// anyway is rejected by the watcher and refunded (deposits.topups.ts), as one on a decided mission.

const BATCH = 100;
/** A base-rail top-up whose deposit is not seen within this long is rejected (`reason: expired`) and frees its slot. */
export const TOP_UP_PENDING_TTL_SECONDS = 86_400;

/** One round: expires up to `batch` overdue pending top-ups; answers how many. */
export async function expirePendingTopUps(deps: Deps, batch = BATCH): Promise<number> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - TOP_UP_PENDING_TTL_SECONDS * 1000);
  const db = deps.database.db;
  const overdue = await db
    .select({ id: missionAmendments.id, missionId: missionAmendments.missionId })
    .from(missionAmendments)
    .where(and(eq(missionAmendments.status, "pending"), lte(missionAmendments.createdAt, cutoff)))
    .orderBy(asc(missionAmendments.createdAt))
    .limit(batch);
  let expired = 0;
  for (const { id, missionId } of overdue) {
    // Locking: the mission row first (the order amendments and the deposit watcher take), then
    // the amendment row; the update re-checks that it is still pending with no deposit seen.
    const done = await db.transaction(async (tx) => {
      await lockMission(tx, missionId);
      const rows = await tx
        .update(missionAmendments)
        .set({ status: "rejected", reason: "expired", updatedAt: now })
        .where(
          and(
            eq(missionAmendments.id, id),
            eq(missionAmendments.status, "pending"),
            isNull(sql`${missionAmendments.escrow}->>'deposit_id'`),
          ),
        )
        .returning({ id: missionAmendments.id });
      return rows.length;
    });
    expired += done;
  }
  return expired;
}

export const amendmentsJobs: Job[] = [
  { name: "expire_pending_top_ups", loop: "tick", run: (deps) => expirePendingTopUps(deps) },
];
