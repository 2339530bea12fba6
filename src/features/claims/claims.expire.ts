import { and, eq, lte, sql } from "drizzle-orm";
import { missionClaims, missions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { countActiveClaims } from "./claims.service";

// The claim expiry job. Expiry itself needs no job: every read and every claim compares
// expires_at with the clock. The job makes the stored state catch up — status 'expired', the
// mission's claim_count (which the cached mission lists show), a lapsed exclusive hold — one
// mission at a time under its row lock (SKIP LOCKED: a busy mission is left for the next tick).

const BATCH = 50;

/** Sweeps missions with expired-but-active claims; returns how many missions it updated. */
export async function expireClaims(deps: Deps, batch = BATCH): Promise<number> {
  const now = deps.clock.now();
  const db = deps.database.db;
  const due = await db
    .select({ missionId: missionClaims.missionId })
    .from(missionClaims)
    .where(and(eq(missionClaims.status, "active"), lte(missionClaims.expiresAt, now)))
    .groupBy(missionClaims.missionId)
    .limit(batch);
  let done = 0;
  for (const { missionId } of due) {
    const swept = await db.transaction(async (tx) => {
      const [m] = await tx
        .select({ id: missions.id })
        .from(missions)
        .where(eq(missions.id, missionId))
        .for("update", { skipLocked: true });
      if (!m) return false;
      await tx
        .update(missionClaims)
        .set({ status: "expired", endedAt: missionClaims.expiresAt })
        .where(
          and(
            eq(missionClaims.missionId, missionId),
            eq(missionClaims.status, "active"),
            lte(missionClaims.expiresAt, now),
          ),
        );
      const n = await countActiveClaims({ now }, { db: tx, missionId });
      await tx
        .update(missions)
        .set({
          claimCount: n,
          exclusiveHolder: sql`case when ${missions.exclusiveUntil} <= ${now.toISOString()}::timestamptz then null else ${missions.exclusiveHolder} end`,
          exclusiveUntil: sql`case when ${missions.exclusiveUntil} <= ${now.toISOString()}::timestamptz then null else ${missions.exclusiveUntil} end`,
        })
        .where(eq(missions.id, missionId));
      return true;
    });
    if (swept) done++;
  }
  return done;
}
