import { and, count, eq, sql } from "drizzle-orm";
import { submissions } from "../../db/schema/index";
import { checkEligibility, type EligibilityGate } from "../missions";
import { assertTreasuryCanPay } from "../escrow";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import type { Ctx } from "../../lib/context";
import { normaliseContent } from "./submissions.content";
import { checkSubmission, needsNetwork, isCommitReveal } from "../verification";
import type { CreateSubmissionInput } from "./submissions.schemas";
import { matcherBusy } from "../../lib/safe-regex";
import type { MissionRow } from "../../db/rows";
import { verificationIf, type FirstValidMatchParams } from "../../db/verification";

// A submission's first step, before its transaction (submissions.service.ts stores it): the gates
// read without a lock, and the local check of a first_valid_match submission.

export type Prepared = Awaited<ReturnType<typeof prepareSubmission>>;
/** The mission as findMissionForActor read it. */
export type Mission = MissionRow & Pick<EligibilityGate, "creatorBlocks">;

/**
 * Everything decided before the transaction: eligibility, the treasury, the content, and for
 * first_valid_match with local content (inline or data:) and no predicate, the check itself (the
 * match may take a few ms); remote checks run in the job runner.
 */
export async function prepareSubmission(
  ctx: Ctx,
  { mission, input, submitter }: { mission: Mission; input: CreateSubmissionInput; submitter: string },
) {
  const { deps } = ctx;
  // AIP-3 §3.1 direct self-submission: accepted and answered (self_submission: true) so the
  // creator holds no slot hostage, but stored rejected — never judged, paid or rated.
  const self = mission.creator === submitter;
  if (!self) await checkEligibility(ctx, { mission, actor: submitter });
  // AIP-4 §8.2: no new work on a base-rail mission the resolver could not pay out now.
  await assertTreasuryCanPay(deps, { rewardChain: mission.rewardChain });
  const { contentUri, contentHash } = normaliseContent(input);
  const fvm = verificationIf(mission, "first_valid_match")?.params;
  const reveal = isCommitReveal(mission);
  const local = fvm !== undefined && !self && !needsNetwork(fvm, contentUri);
  const facts = { submitter, self, contentUri, contentHash, fvm, reveal };
  const precheck = local ? await localCheck(ctx, mission, input, { ...facts, fvm }) : undefined;
  // Judged in the transaction: first_valid_match whose local check found a match.
  return { ...facts, precheck, judged: fvm !== undefined && precheck?.result === "valid" };
}

/**
 * The local check of a first_valid_match submission. Cheap checks before it: open, duplicate and
 * per-agent limit are read without a lock (and checked again, authoritatively, under it). A match
 * over its time budget (or a matcher that filled up meanwhile) is retried by the job runner with
 * its own reason, never stored as "no match" (docs/abuse.md "Verification pipeline").
 */
async function localCheck(
  { deps, now }: Ctx,
  mission: Mission,
  input: CreateSubmissionInput,
  f: { submitter: string; contentUri: string; contentHash: string; reveal: boolean; fvm: FirstValidMatchParams },
) {
  const missionId = mission.id;
  await preflight(deps, {
    missionId,
    submitter: f.submitter,
    contentHash: f.contentHash,
    open: f.reveal || (mission.status === "open" && now < mission.deadline),
    mission,
  });
  if (f.fvm.match_mode === "regex" && f.fvm.expected !== undefined && matcherBusy()) {
    throw new AppError("SERVICE_UNAVAILABLE", "the regex matcher is busy; retry shortly", {
      reason: "matcher_busy",
      retry_after_seconds: 2,
    });
  }
  const checked = await checkSubmission(
    { deps },
    {
      params: f.fvm,
      submission: {
        id: "",
        missionId,
        submitter: f.submitter,
        contentUri: f.contentUri,
        contentHash: f.contentHash,
        submittedAt: now,
        metadata: input.metadata ?? null,
      },
    },
  );
  return checked.result === "retry" ? undefined : checked;
}

/** The caller's earlier submissions to the mission: no duplicate content, at most the per-agent limit. */
export function assertUnderLimits(deps: Deps, mine: { n: number; dup: number } | undefined): void {
  if (Number(mine?.dup ?? 0) > 0)
    throw new AppError("CONFLICT", "you already submitted this content to this mission", {
      reason: "duplicate_submission",
    });
  if (Number(mine?.n ?? 0) >= deps.config.maxSubmissionsPerAgent) {
    throw new AppError("CONFLICT", `at most ${deps.config.maxSubmissionsPerAgent} submissions per agent per mission`, {
      reason: "submission_limit",
    });
  }
}

/** The open, duplicate and per-agent-limit gates, read without a lock (cheap; re-checked under it). */
async function preflight(
  deps: Deps,
  p: {
    missionId: string;
    submitter: string;
    contentHash: string;
    open: boolean;
    mission: Pick<MissionRow, "status" | "deadline">;
  },
) {
  if (!p.open) {
    const closedBy = p.mission.status === "open" ? "its deadline has passed" : `it is ${p.mission.status}`;
    throw new AppError("MISSION_NOT_OPEN", `mission is not accepting submissions: ${closedBy}`, {
      status: p.mission.status,
      deadline: p.mission.deadline.toISOString(),
    });
  }
  const [mine] = await deps.database.db
    .select({ n: count(), dup: sql<number>`count(*) filter (where ${submissions.contentHash} = ${p.contentHash})` })
    .from(submissions)
    .where(and(eq(submissions.missionId, p.missionId), eq(submissions.submitter, p.submitter)));
  assertUnderLimits(deps, mine);
}
