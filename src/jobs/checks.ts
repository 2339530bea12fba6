import { and, asc, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { missions, submissions } from "../db/schema/index";
import type { Deps } from "../deps";
import { MISSION_COLUMNS } from "../features/missions/missions.queries";
import { checkContent, checkSubmission, judgeFirstValidMatch, type CheckOutcome, type FvmParams } from "../features/verification/first-valid-match";
import { emitEvent, submissionDecided } from "../features/webhooks/webhooks.outbox";

/** A claimed check is retried by anyone after this lease (covers a crash mid-fetch). */
const LEASE_MS = 60_000;
/** Transient failures (timeouts, 5xx) are retried with backoff, then the submission is rejected. */
export const MAX_CHECK_ATTEMPTS = 5;
const backoffMs = (attempt: number) => Math.min(15 * 60_000, 5_000 * 2 ** (attempt - 1));

/**
 * Runs the first_valid_match checks that need the network (remote content, predicate_uri).
 * Claim: a conditional UPDATE pushes next_check_at out by a lease and counts the attempt, so two
 * workers never fetch the same submission at once. Fetch outside any transaction. Record: under
 * the mission row lock, store the outcome and judge the mission in arrival order.
 */
export async function runPendingChecks(deps: Deps, batch = 10, budgetMs = 20_000): Promise<number> {
  const started = performance.now();
  const db = deps.database.db;
  const now = deps.clock.now();
  const due = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(isNotNull(submissions.nextCheckAt), lte(submissions.nextCheckAt, now), isNull(submissions.checkResult), eq(submissions.status, "pending")))
    .orderBy(asc(submissions.nextCheckAt))
    .limit(batch);
  let done = 0;
  for (const { id } of due) {
    if (performance.now() - started > budgetMs) break; // unclaimed ones wait for the next tick
    const [claimed] = await db
      .update(submissions)
      .set({ nextCheckAt: new Date(now.getTime() + LEASE_MS), checkAttempts: sql`${submissions.checkAttempts} + 1` })
      .where(and(eq(submissions.id, id), lte(submissions.nextCheckAt, now), isNull(submissions.checkResult), eq(submissions.status, "pending")))
      .returning();
    if (!claimed) continue;
    const [mission] = await db.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, claimed.missionId));
    if (!mission) continue;
    const fvm = mission.verificationType === "first_valid_match";
    // A check that throws (e.g. the match worker died) counts as a transient failure: it is
    // retried and capped like one, and never stops this tick's other work.
    const outcome: CheckOutcome = await (fvm ? checkSubmission(deps, mission.verificationParams as unknown as FvmParams, claimed) : checkContent(deps, claimed))
      .catch((err: unknown) => {
        deps.logger.warn({ err, submission: id }, "submission check failed; will retry");
        return { result: "retry", reason: "content_unavailable" } as CheckOutcome;
      });
    await db.transaction(async (tx) => {
      const [m] = await tx.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, claimed.missionId)).for("update");
      const at = deps.clock.now();
      const still = and(eq(submissions.id, id), isNull(submissions.checkResult), eq(submissions.status, "pending"));
      if (outcome.result === "retry" && claimed.checkAttempts < MAX_CHECK_ATTEMPTS) {
        await tx.update(submissions).set({ nextCheckAt: new Date(at.getTime() + backoffMs(claimed.checkAttempts)), checkReason: outcome.reason }).where(still);
        return;
      }
      const valid = outcome.result === "valid";
      const [changed] = await tx
        .update(submissions)
        .set(valid
          ? { checkResult: "valid", checkReason: null, nextCheckAt: null, updatedAt: at }
          : { checkResult: "invalid", checkReason: outcome.reason, status: "rejected", reason: outcome.reason, nextCheckAt: null, decidedAt: at, updatedAt: at })
        .where(still)
        .returning({ id: submissions.id });
      if (changed && !valid && m) await emitEvent(tx, submissionDecided(m, at, { id, submitter: claimed.submitter, reason: outcome.reason }, false));
      if (fvm && m && (m.status === "open" || m.status === "escrowed")) await judgeFirstValidMatch(tx, deps, m, at);
    });
    done++;
  }
  return done;
}
