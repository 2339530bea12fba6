import { and, asc, eq, exists, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { maxWinnersOnRail } from "../escrow";
import type { Tx } from "../../db/client";
import { missions, submissions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { bpsOf } from "../../lib/money";
import type { AccountKey } from "../ledger";
import type { ResolutionReason } from "../../lib/reasons";
import { resolveAndPay, voidAndRefund } from "../settlement";
import type { MissionRow } from "../../db/rows";

type Mission = Omit<MissionRow, "search">;

const CANDIDATE = { id: submissions.id, submitter: submissions.submitter, contentHash: submissions.contentHash };

// Default outcomes that free identities cannot farm. Every path where nobody decided — the creator never judged, a peer vote
// without quorum, an oracle that never answered, a predicate that never answered — ends here:
//
//   pool   = reward × OABP_DEFAULT_AWARD_BPS / 10 000   (default 20 %, capped below 50 % by config)
//   shares = the pool split equally (fee on the pool only) between the EARLIEST
//            OABP_DEFAULT_AWARD_MAX_WINNERS (default 3) eligible submissions, where eligible means
//            pending, deliverable fetched and hash-checked, and each from a distinct submitter
//            with distinct content (a second copy of the same bytes earns nothing) — and when
//            any eligible submitter has a decided win elsewhere, only such submitters share;
//   refund = reward − pool, back to the creator (on the base rail the contract returns what the
//            release does not pay to the deposit's funder).
//
// Why: with the old equal split per distinct submitter, 9 free identities took 90 % of a reward.
// Now everything all submitters together can ever get without a decision is the pool, < half of
// the reward, however many identities they make; and a creator who abandons judging (after reading
// every deliverable) still pays the pool and the spam fee, so silence is never free work either.
// The same policy ends a predicate_uri mission whose predicate rejected everything, and a mission
// whose rule an upheld bad_spec dispute invalidated (docs/decisions.md "Predicates", AIP-4 §4).
// No eligible submission → void and refund in full.

/** Resolution reasons of the default paths (each is this policy). */
export const DEFAULT_REASONS = [
  "default_award_judging_expired",
  "default_award_no_quorum",
  "default_award_oracle_timeout",
  "default_award_predicate_silent",
  "default_award_predicate_rejected",
  "default_award_rule_invalidated",
] as const;

/**
 * A submission is "held" when its check ran but the decision waits for the default outcome: a
 * predicate that never answered (check_result unanswered), a predicate that rejected it
 * (held_for_default) or a rule an upheld bad_spec dispute invalidated (rule_invalidated). The
 * creator controls the predicate and has read the work, so neither can end in a full refund
 * (docs/decisions.md "Predicates"; AIP-4 §4). Returns the default reason, or null when none is held.
 */
export async function heldDefaultReason(tx: Tx, missionId: string): Promise<ResolutionReason | null> {
  const held = await tx
    .select({ checkResult: submissions.checkResult, reason: submissions.reason })
    .from(submissions)
    .where(
      and(eq(submissions.missionId, missionId), eq(submissions.status, "pending"), isNotNull(submissions.checkResult)),
    )
    .limit(50);
  const waiting = held.filter((s) => s.checkResult !== "valid");
  if (waiting.length === 0) return null;
  if (waiting.some((s) => s.reason === "rule_invalidated")) return "default_award_rule_invalidated";
  if (waiting.some((s) => s.checkResult === "unanswered")) return "default_award_predicate_silent";
  return "default_award_predicate_rejected";
}

export async function defaultAward(
  tx: Tx,
  deps: Deps,
  m: Mission,
  now: Date,
  reason: ResolutionReason,
  alsoLock: AccountKey[] = [],
): Promise<void> {
  const { defaultAwardBps, defaultAwardMaxWinners } = deps.config.abuse;
  // Only deliverables that were fetched and hash-checked can earn a share: a pending submission
  // whose check has run (valid, or held: its predicate never answered or rejected it, or an upheld
  // bad_spec voided the rule's rejection — a failed fetch or hash is rejected, never held).
  const checked = and(
    eq(submissions.missionId, m.id),
    eq(submissions.status, "pending"),
    isNotNull(submissions.checkResult),
  )!;
  // Submitters with a track record come first (docs/abuse.md "Default outcomes"): a decided win on
  // another mission — chosen by a creator, a vote, an oracle or a rule, never a default share,
  // which free identities could farm. Read apart from the arrival order, so no flood of earlier
  // junk pushes them out of the window. Bounded: at most 10 per winner are read.
  const limit = defaultAwardMaxWinners * 10 + deps.config.maxSubmissionsPerAgent;
  const won = alias(submissions, "won");
  const provenRows = await tx
    .select(CANDIDATE)
    .from(submissions)
    .where(
      and(
        checked,
        exists(
          tx
            .select({ one: sql`1` })
            .from(won)
            .where(
              and(
                eq(won.submitter, submissions.submitter),
                eq(won.status, "accepted"),
                ne(won.reason, "default_award"),
                ne(won.missionId, m.id),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(submissions.seq))
    .limit(limit);
  const proven = provenRows.length > 0;
  const candidates = proven
    ? provenRows
    : await tx.select(CANDIDATE).from(submissions).where(checked).orderBy(asc(submissions.seq)).limit(limit);
  const submitters = new Set<string>();
  const contents = new Set<string>();
  const winners = candidates
    .filter((s) => {
      if (submitters.has(s.submitter) || contents.has(s.contentHash)) return false;
      submitters.add(s.submitter);
      contents.add(s.contentHash);
      return true;
    })
    .slice(0, maxWinnersOnRail(m.rewardChain, defaultAwardMaxWinners)); // ≤ one release on base
  const pool = bpsOf(BigInt(m.rewardAmount), defaultAwardBps);
  if (winners.length === 0 || pool === 0n)
    return voidAndRefund(tx, m, { now, reason: winners.length === 0 ? "expired_without_submissions" : reason });
  await resolveAndPay(
    tx,
    m,
    winners.map((s) => ({ submissionId: s.id, submitter: s.submitter, weight: 1 })),
    {
      deps,
      feeBps: deps.config.feeBps,
      now,
      reason,
      winnerReason: "default_award",
      loserReason: "not_selected",
      outcome: "partial",
      alsoLock,
      creatorRefund: BigInt(m.rewardAmount) - pool,
    },
  );
}

/**
 * A judging, voting or oracle window does not close on deliverables still being checked through no
 * fault of their submitter: while a pending submission's check is still due or
 * in flight, the step is put off a minute at a time — never past `end` + OABP_CHECK_GRACE_SECONDS,
 * so funds are never held for long. creator_judges and oracle move their window (judging_deadline)
 * with it, so the creator can still award what is checked late. True when the step was put off.
 */
export async function holdForChecks(
  tx: Tx,
  deps: Deps,
  m: Mission,
  now: Date,
  end: Date,
  moveWindow: boolean,
): Promise<boolean> {
  const limit = end.getTime() + deps.config.abuse.checkGraceSeconds * 1000;
  if (now.getTime() >= limit) return false;
  const [unchecked] = await tx
    .select({ id: submissions.id })
    .from(submissions)
    .where(
      and(
        eq(submissions.missionId, m.id),
        eq(submissions.status, "pending"),
        isNull(submissions.checkResult),
        isNotNull(submissions.nextCheckAt),
      ),
    )
    .limit(1);
  if (!unchecked) return false;
  const next = new Date(Math.min(now.getTime() + 60_000, limit));
  await tx
    .update(missions)
    .set({ nextActionAt: next, ...(moveWindow ? { judgingDeadline: next } : {}), updatedAt: now })
    .where(eq(missions.id, m.id));
  return true;
}
