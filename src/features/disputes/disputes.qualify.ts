import { and, eq } from "drizzle-orm";
import { submissions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import { isId } from "../../lib/ids";
import { findMission } from "../../db/rows";
import { verificationIf } from "../../db/verification";
import { sameSecond, UNPAID_STATUSES, type NotQualifying } from "./disputes.rules";
import type { FileDisputeInput } from "./disputes.schemas";

/** AIP-4 §1.2: days after a mission resolves or voids during which a bad_spec dispute may still be filed. */
const BAD_SPEC_WINDOW_DAYS = 14;

// AIP-4 §1 qualification of a filing: one function per dispute type, each returning what the
// filing stores beyond the input. Refusals are 422 UNPROCESSABLE with details.reason.

export type Mission = NonNullable<Awaited<ReturnType<typeof findMission>>>;
/** Who files: an address (signed in, or a cross-server identity proven at filing, AIP-4 §7.2), or an anonymous IP. */
export type Filer = { address: string; crossServer?: Record<string, unknown> } | { anonymousIp: string };
type Submission = typeof submissions.$inferSelect;

export type Qualified = {
  submissionId: string | null;
  otherSubmissionId?: string;
  oracleUrl?: string;
  /** dup_claim: the filer's submission and the competing one. */
  pair?: readonly [Submission, Submission];
};

/** A refusal: the reason, then the message and any details the client needs (a limit, a time). */
export const refuse = (reason: NotQualifying, { message, ...extra }: { message: string } & Record<string, unknown>) =>
  new AppError("UNPROCESSABLE", message, { reason, ...extra });

async function submissionOf(deps: Deps, m: Mission, id: string | null | undefined) {
  if (!id) return undefined;
  const [s] = isId("sub", id)
    ? await deps.database.db
        .select()
        .from(submissions)
        .where(and(eq(submissions.id, id), eq(submissions.missionId, m.id)))
    : [];
  if (!s) throw refuse("submission_not_found", { message: `submission ${id} is not a submission of mission ${m.id}` });
  return s;
}

/**
 * §1.2: open while the mission decides, and for BAD_SPEC_WINDOW_DAYS after it resolves or
 * voids (AIP-4's own case: a rule that accepted anything paid at once). Upheld afterwards, the
 * outcome stands — no clawback — and the dispute is the public flag (docs/decisions.md "bad_spec").
 */
async function qualifyBadSpec(deps: Deps, m: Mission, input: FileDisputeInput, now: Date): Promise<Qualified> {
  if (m.status !== "open" && m.status !== "escrowed") {
    const closedAt = m.resolvedAt ?? m.updatedAt;
    const until = new Date(closedAt.getTime() + BAD_SPEC_WINDOW_DAYS * 86_400_000);
    if (now >= until)
      throw refuse("mission_settled", {
        message: `mission is ${m.status} since ${closedAt.toISOString()}: the bad_spec window closed`,
        window_closed_at: until.toISOString(),
      });
  }
  const s = await submissionOf(deps, m, input.submission_id === "any" ? null : input.submission_id);
  return { submissionId: s?.id ?? null };
}

/** §1.1: only the awarded submitter, payout still queued / pending_gas / failed, after payment_sla_hours. */
function qualifyNonPayment(deps: Deps, m: Mission, s: Submission, now: Date): Qualified {
  const paid = m.status === "resolved" && m.payouts?.some((p) => p.submission_id === s.id);
  if (s.status !== "accepted" || !paid)
    throw refuse("submission_not_accepted", { message: "only an accepted, awarded submission can be unpaid (§1.1)" });
  if (!UNPAID_STATUSES.has(m.payoutStatus))
    throw refuse("already_paid", {
      message: `payout_status is ${m.payoutStatus} (§1.1 needs queued, pending_gas or failed)`,
      payout_status: m.payoutStatus,
    });
  const decided = s.decidedAt ?? m.resolvedAt ?? now;
  const eligible = new Date(decided.getTime() + deps.config.aip34.paymentSlaHours * 3_600_000);
  if (now < eligible)
    throw refuse("sla_not_elapsed", {
      message: `payment_sla_hours (${deps.config.aip34.paymentSlaHours}) has not elapsed since verification`,
      eligible_at: eligible.toISOString(),
    });
  return { submissionId: s.id };
}

/** §1.3: first_valid_match, both submissions contenders, arrived in the same server-clock second. */
async function qualifyDupClaim(deps: Deps, m: Mission, s: Submission, input: FileDisputeInput): Promise<Qualified> {
  if (m.verificationType !== "first_valid_match")
    throw refuse("not_first_valid_match", { message: "dup_claim applies to first_valid_match missions (§1.3)" });
  const other = await submissionOf(deps, m, input.evidence.other_submission_id);
  if (!other || other.id === s.id)
    throw refuse("submission_required", { message: "evidence.other_submission_id names the competing submission" });
  // A submission that arrived after the winner may never have been checked (the mission had
  // resolved): "another_submission_won" counts as a contender, a failed check does not.
  const contender = (x: Submission) => x.checkResult === "valid" || x.reason === "another_submission_won";
  if (!contender(s) || !contender(other))
    throw refuse("not_both_valid", {
      message: "both submissions must have passed the match rule (or lost only to the other)",
    });
  if (!sameSecond(s.submittedAt, other.submittedAt))
    throw refuse("not_same_second", {
      message: "the submissions arrived in different server-clock seconds; arrival order decided",
      submitted_at: [s.submittedAt.toISOString(), other.submittedAt.toISOString()],
    });
  return { submissionId: s.id, otherSubmissionId: other.id, pair: [s, other] as const };
}

/** §1.4: oracle missions, with the oracle's response and a content-addressed counter-source. */
function qualifyOracle(m: Mission, s: Submission, input: FileDisputeInput): Qualified {
  if (m.verificationType !== "oracle")
    throw refuse("not_oracle_mission", { message: "oracle_disagreement applies to oracle missions (§1.4)" });
  if (!input.evidence.oracle_response || !input.evidence.counter_source)
    throw refuse("evidence_required", {
      message: "evidence needs oracle_response and counter_source {url, content_hash} (§1.4)",
    });
  const contract = verificationIf(m, "oracle")?.params.oracle_contract ?? "";
  return { submissionId: s.id, oracleUrl: `${m.rewardChain}:${contract.toLowerCase()}` };
}

/** §1 qualification; returns what the filing stores beyond the input. */
export async function qualify(
  deps: Deps,
  { m, input, filer, now }: { m: Mission; input: FileDisputeInput; filer: Filer; now: Date },
): Promise<Qualified> {
  const t = input.dispute_type;
  // AIP-4 §7.2 item 2: a cross-server filer is the submitter of the submission disputed, whatever the type.
  if ("crossServer" in filer && filer.crossServer) {
    const own = await submissionOf(deps, m, input.submission_id);
    if (own?.submitter !== filer.address)
      throw refuse("not_your_submission", {
        message: "the attested agent is not the submitter of this submission (AIP-4 §7.2)",
      });
  }
  if (t === "bad_spec") return qualifyBadSpec(deps, m, input, now);
  if (!input.submission_id)
    throw refuse("submission_required", { message: `${t} disputes name the submission concerned` });
  const s = (await submissionOf(deps, m, input.submission_id))!;
  if (!("address" in filer) || s.submitter !== filer.address)
    throw refuse("not_your_submission", { message: `${t} disputes are filed by the submission's submitter` });
  if (t === "non_payment") return qualifyNonPayment(deps, m, s, now);
  if (t === "dup_claim") return qualifyDupClaim(deps, m, s, input);
  return qualifyOracle(m, s, input);
}
