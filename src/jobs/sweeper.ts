import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import { missions } from "../db/schema/index";
import type { Deps } from "../deps";
import { advanceMission, prepareAdvance } from "../features/verification";
import { MISSION_COLUMNS } from "../db/rows";

/**
 * Deadline sweeper: the mission table is its own job queue (`next_action_at`, partial index).
 * Each due mission is advanced in its own transaction under its row lock, taken with SKIP
 * LOCKED so several servers (or a request holding the lock) never block each other and a
 * mission is never advanced twice for the same step (the step re-checks state under the lock).
 * Nothing to lose on a crash: the schedule is the committed state.
 */
/** A mission whose step throws is retried after this delay, so it cannot block the others. */
const FAILED_STEP_BACKOFF_MS = 5 * 60_000;

export async function sweepDueMissions(deps: Deps, batch = 50, budgetMs = 20_000): Promise<number> {
  const started = performance.now();
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
    if (performance.now() - started > budgetMs) break; // the next tick goes on
    try {
      if (await advanceOne(deps, id, now)) advanced++;
    } catch (err) {
      // One mission that fails (a bug, a data problem) must not stop every other mission.
      deps.logger.error({ err, mission: id }, "mission step failed; retrying later");
      await db
        .update(missions)
        .set({ nextActionAt: new Date(now.getTime() + FAILED_STEP_BACKOFF_MS) })
        .where(and(eq(missions.id, id), isNotNull(missions.nextActionAt)));
    }
  }
  return advanced;
}

async function advanceOne(deps: Deps, id: string, now: Date): Promise<boolean> {
  const db = deps.database.db;
  // Slow reads (an oracle over RPC) happen before the transaction, never under the row lock;
  // the transition re-checks the state it acts on.
  const [snapshot] = await db.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, id));
  if (!snapshot) return false;
  const prepared = await prepareAdvance({ deps, now }, { mission: snapshot });
  return db.transaction(async (tx) => {
    const [m] = await tx
      .select(MISSION_COLUMNS)
      .from(missions)
      .where(and(eq(missions.id, id), isNotNull(missions.nextActionAt), lte(missions.nextActionAt, now)))
      .for("update", { skipLocked: true });
    if (!m) return false;
    await advanceMission({ tx, deps, now }, { mission: m, prepared });
    return true;
  });
}
