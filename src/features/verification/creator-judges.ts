import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/client";
import { missions, submissions } from "../../db/schema/index";
import { AppError } from "../../lib/errors";
import { onceTx } from "../../lib/idempotency";
import { pipelined } from "../../db/pipelined";
import { missionToWire, type MissionWire } from "../missions";
import { agentOf, type Ctx, type TxCtx } from "../../lib/context";
import { assertVisible, findMissionRow, lockMission } from "../../db/mission-visibility";
import { builtOnce } from "../../db/built-once";
import { appealOf, recordAward } from "./appeal";
import type { AccountKey } from "../ledger";
import type { ResolutionReason } from "../../lib/reasons";
import { resolveAndPay, type Winner } from "../settlement";
import { defaultAward } from "./default-award";
import { maxWinnersOnRail } from "../rail";
import { MISSION_COLUMNS, type MissionRow, type SubmissionRow } from "../../db/rows";
import { emittedIn, wakeEventHubs } from "../../db/outbox";
import { gateOf } from "../../db/write-functions";
import { isId } from "../../lib/ids";
import { verificationIf } from "../../db/verification";
import { recordOf } from "../records";
import { checkReleaseSignatures, signableReleases, typedDataOf } from "./release-signatures";

export interface AwardInput {
  winners: { submission_id: string; share_bps?: number | undefined }[];
  /** base rail: the creator's EIP-712 Release signature per escrow key it funded (docs/base-rail.md "Release paths"). */
  release_signatures?: Record<string, string> | undefined;
}

/**
 * POST /missions/{id}/award (AIP-1 §4.1): the creator picks ≤ max_winners submissions, equal
 * split unless every winner has share_bps (summing to 10 000). Allowed while the mission is open
 * (an early award closes it) or in its judging window after the deadline.
 * Locking: the mission row FOR UPDATE; a second award finds it resolved (409).
 */
export async function awardMission(
  ctx: Ctx,
  { missionId, award: input }: { missionId: string; award: AwardInput },
): Promise<MissionWire> {
  const { deps, now } = ctx;
  const caller = agentOf(ctx);
  const plan = sharesOf(input);
  // Nothing that needs the transaction (an Idempotency-Key, release signatures to check): an
  // appealable award is one statement (awardAtOnce), or the transaction below when it cannot be.
  if (!ctx.tx && !ctx.idempotency && Object.keys(input.release_signatures ?? {}).length === 0) {
    const done = await awardAtOnce(ctx, { missionId, plan });
    if (done) return done;
  }
  return onceTx(ctx, async (tx) => {
    const { m, winners } = await checkedAward(ctx, tx, { missionId, plan, strict: true });
    // base rail: slots the creator signed for are released with its signature, the rest delayed.
    const releaseSignatures = await checkReleaseSignatures(
      { tx, deps },
      { mission: m, winners, given: input.release_signatures },
    );
    // With an `appeal` param the award is recorded and paid when its appeal closes (appeal.ts);
    // the statement answers the mission and the record. A payment takes several round trips.
    if (appealOf(m)) {
      emittedIn(tx);
      const { mission, record } = await recordAward({ db: tx, now }, { mission: m, winners, releaseSignatures });
      return missionToWire({ deps }, { row: mission, viewer: caller, record: record ?? null });
    }
    await resolveAndPay(
      { tx, deps, now },
      {
        mission: m,
        winners: winners,
        reason: "creator_award",
        winnerReason: "selected_by_creator",
        loserReason: "not_selected",
        outcome: "win",
        releaseSignatures,
      },
    );
    const [after, record] = await pipelined(
      () => findMissionRow({ deps, tx }, missionId),
      () => recordOf(tx, m.creator),
    );
    return missionToWire({ deps }, { row: after!, viewer: caller, record: record ?? null });
  });
}

/**
 * An appealable award as one statement (docs/decisions/storage.md "A write is one statement"): the
 * award's checks run on an unlocked read of the mission (with its row version) and the named
 * submissions, and `oabp_record_award` writes only if, under its own lock, the row is still that
 * version and every winner still awardable. Undefined when the award takes the transaction
 * instead: a payment (no appeal), or something changed between the read and the lock.
 */
async function awardAtOnce(ctx: Ctx, { missionId, plan }: { missionId: string; plan: Plan }) {
  const { deps, now } = ctx;
  const db = deps.database.db;
  const [seen, rows] = await Promise.all([
    isId("mis", missionId) ? versionedMission(db, { id: missionId }).then((r) => r[0]) : undefined,
    namedSubmissions(db, missionId, plan.ids),
  ]);
  const { m, winners } = judgedAward(ctx, { missionId, plan, strict: true, seen, rows });
  if (!seen || !appealOf(m)) return undefined;
  try {
    const { mission, record } = await recordAward({ db, now }, { mission: m, winners, rowVersion: seen.rowVersion });
    wakeEventHubs(deps.database, "emitted");
    return missionToWire({ deps }, { row: mission, viewer: agentOf(ctx), record: record ?? null });
  } catch (e) {
    if (gateOf(e)?.gate === "changed") return undefined;
    throw e;
  }
}

/**
 * POST /missions/{id}/award/typed-data: the EIP-712 releases the same award would queue on the
 * slots the creator funded, for it to sign (docs/base-rail.md "Release paths"); decides nothing.
 * Empty for the ledger rail and for other verification methods.
 */
export async function awardTypedData(ctx: Ctx, { missionId, award }: { missionId: string; award: AwardInput }) {
  return onceTx(ctx, async (tx) => {
    const { m, winners } = await checkedAward(ctx, tx, { missionId, plan: sharesOf(award), strict: false });
    if (m.verificationType !== "creator_judges") return { releases: [] };
    return {
      releases: await typedDataOf(ctx, {
        mission: m,
        releases: await signableReleases({ tx, deps: ctx.deps }, { mission: m, winners }),
      }),
    };
  });
}

/**
 * The award's checks (creator, method, window, winners), under the mission row lock. `strict`
 * false (typed data): another method answers rather than failing, as there is nothing to sign.
 */
async function checkedAward(
  ctx: Ctx,
  tx: Tx,
  { missionId, plan, strict }: { missionId: string; plan: Plan; strict: boolean },
): Promise<{ m: MissionRow; winners: Winner[] }> {
  // One round trip: the submissions are read behind the mission row lock (pipelined), so after it.
  const [seen, rows] = await pipelined(
    () => lockMission(tx, missionId),
    () => namedSubmissions(tx, missionId, plan.ids),
  );
  return judgedAward(ctx, { missionId, plan, strict, seen, rows });
}

/** The award's checks on the mission and the named submissions as read (locked, or at a row version). */
function judgedAward<M extends MissionRow>(
  ctx: Ctx,
  p: { missionId: string; plan: Plan; strict: boolean; seen: M | undefined; rows: SubmissionRow[] },
): { m: M; winners: Winner[] } {
  const { missionId, plan, strict, seen } = p;
  const caller = agentOf(ctx);
  // Hidden from everyone while pending_escrow (its creator gets 404 here too, as before); a
  // mission the operator hid is still judged by its creator (its money settles; docs/moderation.md).
  const m = assertVisible(seen, missionId, seen?.status === "pending_escrow" ? null : caller);
  if (m.creator !== caller) throw new AppError("FORBIDDEN", "only the creator may award a creator_judges mission");
  if (m.verificationType !== "creator_judges") {
    if (!strict) return { m, winners: [] };
    throw new AppError("CONFLICT", `a ${m.verificationType} mission is not judged by its creator`, {
      reason: "wrong_verification_type",
    });
  }
  assertJudging(m, ctx.now, plan.ids.length);
  const byId = new Map(p.rows.map((r) => [r.id, r]));
  const winners: Winner[] = plan.ids.map((id, i) => ({
    submissionId: id,
    submitter: awardable(id, byId.get(id)).submitter,
    weight: plan.shares[i]!,
  }));
  return { m, winners };
}

// The mission with its row version (the award checked against an unlocked read), built once.
const versionedMission = builtOnce("oabp_mission_versioned", (db) =>
  db
    .select({ ...MISSION_COLUMNS, rowVersion: missions.rowVersion })
    .from(missions)
    .where(eq(missions.id, sql.placeholder("id"))),
);

// The named submissions of the mission, built once (src/db/built-once.ts); the ids as a JSON array.
const submissionsByIds = builtOnce("oabp_submissions_by_ids", (db) =>
  db
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.missionId, sql.placeholder("missionId")),
        sql`${submissions.id} = any(array(select jsonb_array_elements_text(${sql.placeholder("ids")}::jsonb)))`,
      ),
    ),
);
/** The named submissions of the mission (a lazy statement for `pipelined`; none named, none read). */
const namedSubmissions = (db: DbOrTx, missionId: string, ids: string[]) =>
  ids.length === 0 ? [] : submissionsByIds(db, { missionId, ids: JSON.stringify(ids) });

/** The award as named: the submission ids (distinct) and their weights, in the same order. */
type Plan = { ids: string[]; shares: number[] };

/** The winners named (distinct), and their weights: the share_bps of every one (summing to 10 000), or equal. */
function sharesOf(input: AwardInput): Plan {
  const ids = input.winners.map((w) => w.submission_id);
  if (new Set(ids).size !== ids.length)
    throw new AppError("INVALID_PARAMETER", "winners must be distinct submissions", { field: "winners" });
  const given = input.winners.filter((w) => w.share_bps !== undefined).length;
  if (given !== 0 && given !== input.winners.length)
    throw new AppError("INVALID_PARAMETER", "give share_bps for every winner or for none", { field: "winners" });
  const shares = given ? input.winners.map((w) => w.share_bps!) : input.winners.map(() => 1);
  if (given && shares.reduce((a, b) => a + b, 0) !== 10_000)
    throw new AppError("INVALID_PARAMETER", "share_bps must sum to 10000", { field: "winners" });
  return { ids, shares };
}

/** Open, or in its judging window after the deadline; and no more winners than the mission (and its rail) pays. */
function assertJudging(m: MissionRow, now: Date, winnerCount: number): void {
  const judging =
    m.status === "escrowed" && m.phase === "judging" && m.judgingDeadline !== null && now < m.judgingDeadline;
  if (m.status !== "open" && !judging)
    throw new AppError(
      "MISSION_NOT_OPEN",
      `mission is ${m.status}${m.phase === "judging" ? " and its judging window has closed" : ""}`,
      { status: m.status, phase: m.phase },
    );
  // On the base rail never more than one escrow release can pay (a mission from before that rule too).
  const maxWinners = maxWinnersOnRail(m.rewardChain, verificationIf(m, "creator_judges")?.params.max_winners ?? 1);
  if (winnerCount > maxWinners)
    throw new AppError("UNPROCESSABLE", `at most ${maxWinners} winner(s) for this mission`, {
      reason: "too_many_winners",
      max_winners: maxWinners,
    });
}

/** A named winner: a pending submission of this mission whose deliverable was fetched and hash-checked. */
function awardable<S extends { status: string; checkResult: string | null }>(id: string, s: S | undefined): S {
  if (!s)
    throw new AppError("UNPROCESSABLE", `submission ${id} is not a submission of this mission`, {
      reason: "unknown_submission",
      submission_id: id,
    });
  if (s.status !== "pending")
    throw new AppError("UNPROCESSABLE", `submission ${id} is ${s.status}`, {
      reason: "submission_not_pending",
      submission_id: id,
    });
  if (s.checkResult !== "valid")
    throw new AppError(
      "UNPROCESSABLE",
      `submission ${id}'s deliverable has not been fetched and hash-checked yet; try again shortly`,
      { reason: "content_not_verified", submission_id: id },
    );
  return s;
}

/**
 * The creator never judged (docs/design.md: a documented, tested policy; funds are never stuck): when
 * the judging window closes, the default outcome applies (default-award.ts: a bounded pool for the
 * earliest verified, content-unique submissions, the rest back to the creator). No eligible
 * submission → refund.
 */
export async function expireJudging(
  ctx: TxCtx,
  input: { mission: MissionRow; reason?: ResolutionReason; alsoLock?: AccountKey[] },
): Promise<void> {
  const reason = input.reason ?? "default_award_judging_expired";
  return defaultAward(ctx, { mission: input.mission, reason, alsoLock: input.alsoLock ?? [] });
}
