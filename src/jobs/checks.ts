import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client";
import { lockMission } from "../db/mission-visibility";
import { missions, submissions } from "../db/schema/index";
import type { Deps } from "../deps";
import { checkSubmission, judgeFirstValidMatch } from "../features/verification";
import type { CheckOutcome } from "../lib/reasons";
import { emitEvent, submissionDecided } from "../db/outbox";
import { claimNextCheck } from "./check-queue";
import { MISSION_COLUMNS, type MissionRow, type SubmissionRow } from "../db/rows";
import { verificationIf } from "../db/verification";

/** Concurrent remote checks (content fetch, predicate call) per process: a waiting worker costs a socket, not CPU. */
const CHECK_WORKERS = 32;
/** Transient failures (timeouts, 5xx) are retried with backoff, then the submission is rejected. */
export const MAX_CHECK_ATTEMPTS = 5;
/** A check refused for busy slots is tried again this soon (it cost no attempt). */
const BUSY_RETRY_MS = 2_000;
const backoffMs = (attempt: number) => Math.min(15 * 60_000, 5_000 * 2 ** (attempt - 1));

export interface CheckRunOptions {
  /** Concurrent workers (default CHECK_WORKERS). */
  workers?: number;
  /** At most this many checks in one run (bounds a run whatever the backlog). */
  maxChecks?: number;
  /** A worker claims no new check after this long (a check in flight runs to its own timeouts). */
  budgetMs?: number;
}

/**
 * Runs the checks that need the network (remote content, predicate_uri; a regex retried after a
 * timeout) with several concurrent workers. Each worker claims one check at a
 * time through the fair, capped queue (check-queue.ts), fetches outside any transaction, then
 * records the outcome under the mission row lock and judges the mission in arrival order.
 * A slow host holds one worker for at most the fetch's connect budget (or its whole budget once
 * connected), and at most CHECK_PER_HOST workers at once.
 */
export async function runPendingChecks(deps: Deps, opts: CheckRunOptions = {}): Promise<number> {
  const workers = opts.workers ?? CHECK_WORKERS;
  const maxChecks = opts.maxChecks ?? workers * 25;
  const budgetMs = opts.budgetMs ?? 20_000;
  const started = performance.now();
  let claimed = 0;
  const running: Promise<void>[] = [];
  // Ramp-up: one worker claims first, and each claim that finds work starts one more, up to
  // `workers`. With nothing due a run costs one claim (one pooled connection waiting on the claim
  // lock), not `workers` of them; a backlog reaches every worker within its first claims
  // (bench/README.md "Writes": 32 idle claimers a second held the requests' pool).
  const start = () => running.push(worker());
  const worker = async (): Promise<void> => {
    while (claimed < maxChecks && performance.now() - started < budgetMs) {
      claimed++;
      const s = await claimNextCheck(deps);
      if (!s) {
        claimed--;
        return;
      }
      if (running.length < workers) start();
      await runOne(deps, s);
    }
  };
  start();
  for (let i = 0; i < running.length; i++) await running[i];
  return claimed;
}

async function runOne(deps: Deps, claimed: SubmissionRow): Promise<void> {
  const db = deps.database.db;
  const [mission] = await db.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, claimed.missionId));
  if (!mission) return;
  const fvm = mission.verificationType === "first_valid_match";
  // A check that throws (e.g. the match worker died) counts as a transient failure: it is
  // retried and capped like one, and never stops this run's other work.
  const check = async () =>
    checkSubmission({ deps }, { params: verificationIf(mission, "first_valid_match")?.params, submission: claimed });
  const outcome: CheckOutcome = await check().catch((err: unknown) => {
    deps.logger.warn({ err, submission: claimed.id }, "submission check failed; will retry");
    return { result: "retry", reason: "content_unavailable" } as CheckOutcome;
  });
  await db.transaction(async (tx) => {
    const m = await lockMission(tx, claimed.missionId);
    const at = deps.clock.now();
    const id = claimed.id;
    const still = and(eq(submissions.id, id), isNull(submissions.checkResult), eq(submissions.status, "pending"));
    const r: Recording = { tx, deps, m, at, claimed, still };
    if (outcome.result === "retry" && (await retryLater(r, outcome))) return;
    if (outcome.result !== "valid" && (await holdForDefault(r, outcome))) return;
    await decide(r, outcome, fvm);
  });
}

/** Recording a check's outcome: under the mission row lock (`m`), at `at`, on the claimed row while still unchecked. */
interface Recording {
  tx: Tx;
  deps: Deps;
  m: MissionRow | undefined;
  at: Date;
  claimed: SubmissionRow;
  still: SQL | undefined;
}

/** Judges the mission in arrival order while it is still deciding. */
async function judgeIfLive({ tx, deps, m, at }: Recording): Promise<void> {
  if (m && (m.status === "open" || m.status === "escrowed"))
    await judgeFirstValidMatch({ tx, deps, now: at }, { mission: m });
}

/** A transient failure: tried again later (no attempt spent when it was not attempted); false past the last attempt. */
async function retryLater(
  { tx, at, claimed, still }: Recording,
  outcome: Extract<CheckOutcome, { result: "retry" }>,
): Promise<boolean> {
  // Not attempted (the host's or address's fetch slots were taken by others): the claim's
  // attempt is given back, so nobody's crowd can use up an honest deliverable's attempts
  // (docs/abuse.md "Resolver").
  if (outcome.busy) {
    await tx
      .update(submissions)
      .set({
        nextCheckAt: new Date(at.getTime() + BUSY_RETRY_MS),
        checkClaimedUntil: null,
        checkAttempts: Math.max(0, claimed.checkAttempts - 1),
      })
      .where(still);
    return true;
  }
  if (claimed.checkAttempts >= MAX_CHECK_ATTEMPTS) return false;
  await tx
    .update(submissions)
    .set({
      nextCheckAt: new Date(at.getTime() + backoffMs(claimed.checkAttempts)),
      checkClaimedUntil: null,
      checkReason: outcome.reason,
    })
    .where(still);
  return true;
}

/**
 * predicate_uri: a predicate that never answered, or rejected the sample of the work it was
 * sent, is the creator's verifier failing, not the submitter: the submission is held for the
 * default outcome (docs/decisions.md "Predicates"). False for any other outcome.
 */
async function holdForDefault(r: Recording, outcome: Exclude<CheckOutcome, { result: "valid" }>): Promise<boolean> {
  // The predicate never answered (unreachable, or transient failures to the last attempt): kept
  // for the default outcome as "unanswered", never rejected. It rejected the work: the creator
  // controls the predicate, so the rejection cannot refund it — held (pending, held_for_default)
  // unless another submission wins.
  const held =
    outcome.reason === "predicate_unavailable"
      ? { checkResult: "unanswered" as const }
      : outcome.result === "invalid" && outcome.reason === "predicate_rejected"
        ? { checkResult: "invalid" as const, reason: "held_for_default" as const }
        : undefined;
  if (!held) return false;
  await r.tx
    .update(submissions)
    .set({ ...held, checkReason: outcome.reason, nextCheckAt: null, checkClaimedUntil: null, updatedAt: r.at })
    .where(r.still);
  await judgeIfLive(r);
  return true;
}

/** Valid, or rejected for good (submission.decided); a first_valid_match mission is judged. */
async function decide(r: Recording, outcome: CheckOutcome, fvm: boolean): Promise<void> {
  const { tx, m, at, claimed, still } = r;
  const valid = outcome.result === "valid";
  const [changed] = await tx
    .update(submissions)
    .set(
      valid
        ? { checkResult: "valid", checkReason: null, nextCheckAt: null, checkClaimedUntil: null, updatedAt: at }
        : {
            checkResult: "invalid",
            checkReason: outcome.reason,
            status: "rejected",
            reason: outcome.reason,
            nextCheckAt: null,
            checkClaimedUntil: null,
            decidedAt: at,
            updatedAt: at,
          },
    )
    .where(still)
    .returning({ id: submissions.id });
  if (changed && !valid && m)
    await emitEvent(
      tx,
      submissionDecided(m, at, { id: claimed.id, submitter: claimed.submitter, reason: outcome.reason }, false),
    );
  if (fvm) await judgeIfLive(r);
}
