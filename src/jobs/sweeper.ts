import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import { missions } from "../db/schema/index";
import type { Deps } from "../deps";
import { advanceMission, prepareAdvance } from "../features/verification/lifecycle";
import { MISSION_COLUMNS } from "../features/missions/missions.queries";

/**
 * Deadline sweeper: the mission table is its own job queue (`next_action_at`, partial index).
 * Each due mission is advanced in its own transaction under its row lock, taken with SKIP
 * LOCKED so several servers (or a request holding the lock) never block each other and a
 * mission is never advanced twice for the same step (the step re-checks state under the lock).
 * Nothing to lose on a crash: the schedule is the committed state.
 */
export async function sweepDueMissions(deps: Deps, batch = 50): Promise<number> {
  const now = deps.clock.now();
  const db = deps.database.db;
  const due = await db
    .select({ id: missions.id })
    .from(missions)
    .where(and(isNotNull(missions.nextActionAt), lte(missions.nextActionAt, now)))
    .orderBy(asc(missions.nextActionAt))
    .limit(batch);
  let advanced = 0;
  for (const { id } of due) {
    // Slow reads (an oracle over RPC) happen before the transaction, never under the row lock;
    // the transition re-checks the state it acts on.
    const [snapshot] = await db.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, id));
    if (!snapshot) continue;
    const prepared = await prepareAdvance(deps, snapshot, now);
    const done = await db.transaction(async (tx) => {
      const [m] = await tx
        .select(MISSION_COLUMNS)
        .from(missions)
        .where(and(eq(missions.id, id), isNotNull(missions.nextActionAt), lte(missions.nextActionAt, now)))
        .for("update", { skipLocked: true });
      if (!m) return false;
      await advanceMission(tx, deps, m, now, prepared);
      return true;
    });
    if (done) advanced++;
  }
  return advanced;
}
