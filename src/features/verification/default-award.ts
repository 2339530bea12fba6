import { and, asc, eq, isNotNull, isNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { maxWinnersOnRail } from "../rail";
import type { Tx } from "../../db/client";
import { agents, missions, submissions } from "../../db/schema/index";
import { pendingOf } from "../../db/mission-parts";
import type { Deps } from "../../deps";
import { bpsOf } from "../../lib/money";
import type { AccountKey } from "../ledger";
import type { ResolutionReason } from "../../lib/reasons";
import { resolveAndPay, voidAndRefund } from "../settlement";
import type { MissionRow as Mission } from "../../db/rows";
import type { TxCtx } from "../../lib/context";

/** A judging/voting/oracle window waits at most this long for deliverables still being checked. */
export const CHECK_GRACE_SECONDS = 86_400;
/** Verified work of an identity first seen this long before a mission was posted is not a fresh one's for it. */
const DEFAULT_AWARD_MIN_AGE_SECONDS = 86_400;

const CANDIDATE = { id: submissions.id, submitter: submissions.submitter, contentHash: submissions.contentHash };

// Default outcomes that free identities cannot farm. Every path where nobody decided — the creator never judged, a peer vote
// without quorum, an oracle that never answered, a predicate that never answered — ends here:
//
//   pool   = reward × OABP_DEFAULT_AWARD_BPS / 10 000   (default 20 %, capped below 50 % by config)
//   shares = the pool split equally (fee on the pool only) between the EARLIEST
//            OABP_DEFAULT_AWARD_MAX_WINNERS (default 3) eligible submissions, where eligible means
//            pending, deliverable fetched and hash-checked, and each from a distinct submitter
//            with distinct content (a second copy of the same bytes earns nothing) — and when
//            any eligible submission is trusted (a decided win on another creator's mission, or
//            verified work of an identity seen well before the mission), only trusted ones share,
//            one per funder of their track record;
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
    .where(pendingOf(missionId, isNotNull(submissions.checkResult)))
    .limit(50);
  const waiting = held.filter((s) => s.checkResult !== "valid");
  if (waiting.length === 0) return null;
  if (waiting.some((s) => s.reason === "rule_invalidated")) return "default_award_rule_invalidated";
  if (waiting.some((s) => s.checkResult === "unanswered")) return "default_award_predicate_silent";
  return "default_award_predicate_rejected";
}

type Candidate = { id: string; submitter: string; contentHash: string; funder?: string | null };

export async function defaultAward(
  ctx: TxCtx,
  { mission: m, reason, alsoLock = [] }: { mission: Mission; reason: ResolutionReason; alsoLock?: AccountKey[] },
): Promise<void> {
  const { tx, deps, now } = ctx;
  const { defaultAwardBps, defaultAwardMaxWinners } = deps.config.abuse;
  const winners = pickWinners(
    await candidatesOf(tx, deps, m),
    maxWinnersOnRail(m.rewardChain, defaultAwardMaxWinners), // ≤ one release on base
  );
  const pool = bpsOf(BigInt(m.rewardAmount), defaultAwardBps);
  if (winners.length === 0 || pool === 0n)
    return voidAndRefund(
      { tx, deps, now },
      { mission: m, reason: winners.length === 0 ? "expired_without_submissions" : reason },
    );
  await resolveAndPay(
    { tx, deps, now },
    {
      mission: m,
      winners: winners.map((s) => ({ submissionId: s.id, submitter: s.submitter, weight: 1 })),
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
 * Only deliverables that were fetched and hash-checked can earn a share: a pending submission
 * whose check has run (valid, or held: its predicate never answered or rejected it, or an upheld
 * bad_spec voided the rule's rejection — a failed fetch or hash is rejected, never held).
 * Trusted work comes first (docs/abuse.md "Default outcomes"), read apart from the arrival order
 * so no flood of earlier junk pushes it out of the window; when any is there, only it shares —
 * the proven tier when there is one, else the aged one; else every checked one, in arrival order.
 * Bounded: at most 10 per winner are read.
 */
async function candidatesOf(tx: Tx, deps: Deps, m: Mission): Promise<Candidate[]> {
  const limit = deps.config.abuse.defaultAwardMaxWinners * 10 + deps.config.maxSubmissionsPerAgent;
  const checked = pendingOf(m.id, isNotNull(submissions.checkResult))!;
  const trusted = await trustedCandidates({ tx, deps }, { m, checked, limit });
  // Tiers: a track record before age alone (an old identity is cheap to keep, a win is not).
  const proven = trusted.filter((s) => s.funder !== null);
  if (proven.length > 0) return proven;
  if (trusted.length > 0) return trusted;
  return tx.select(CANDIDATE).from(submissions).where(checked).orderBy(asc(submissions.seq)).limit(limit);
}

/**
 * Trusted: the submitter has a decided win on a mission of ANOTHER creator (chosen by a creator,
 * a vote, an oracle or a rule, never a default share, which free identities could farm; a win
 * this creator paid could be its own identities'), or its verified work (check valid) comes from
 * an identity first seen at least DEFAULT_AWARD_MIN_AGE_SECONDS before the mission was
 * posted. Proven ones first, each with the creator who funded its earliest decided win
 * (`funder`, null when trusted by age alone).
 */
async function trustedCandidates(
  { tx }: Pick<TxCtx, "tx" | "deps">,
  { m, checked, limit }: { m: Mission; checked: SQL; limit: number },
): Promise<(Candidate & { funder: string | null })[]> {
  const won = alias(submissions, "won");
  const wonOn = alias(missions, "won_on");
  const decidedWin = and(
    eq(won.submitter, submissions.submitter),
    eq(won.status, "accepted"),
    ne(won.reason, "default_award"),
    ne(won.missionId, m.id),
    ne(wonOn.creator, m.creator),
  );
  const funder = sql<string | null>`(${tx
    .select({ creator: wonOn.creator })
    .from(won)
    .innerJoin(wonOn, eq(wonOn.id, won.missionId))
    .where(decidedWin)
    .orderBy(asc(won.seq))
    .limit(1)})`;
  const seenBefore = new Date(m.createdAt.getTime() - DEFAULT_AWARD_MIN_AGE_SECONDS * 1000);
  return tx
    .select({ ...CANDIDATE, funder })
    .from(submissions)
    .innerJoin(agents, eq(agents.id, submissions.submitter))
    .where(
      and(
        checked,
        sql`not ${paidByCreator(tx, m)}`,
        or(sql`${funder} is not null`, and(eq(submissions.checkResult, "valid"), lte(agents.createdAt, seenBefore))),
      ),
    )
    .orderBy(sql`${funder} is null`, asc(submissions.seq))
    .limit(limit);
}

/**
 * Identities this creator paid before (a decided win on one of its missions) are never trusted
 * for its silent missions: they could be its own, taking the pool back from the honest solver.
 */
function paidByCreator(tx: Tx, m: Mission): SQL {
  const paid = alias(submissions, "paid");
  const paidOn = alias(missions, "paid_on");
  return sql`exists (${tx
    .select({ one: sql`1` })
    .from(paid)
    .innerJoin(paidOn, eq(paidOn.id, paid.missionId))
    .where(
      and(
        eq(paid.submitter, submissions.submitter),
        eq(paid.status, "accepted"),
        ne(paid.missionId, m.id),
        eq(paidOn.creator, m.creator),
      ),
    )})`;
}

/**
 * The first `max` candidates, one per submitter and per content (a second copy of the same bytes
 * earns nothing), and one per funder of a track record (identities one creator made proven
 * count as one).
 */
function pickWinners(candidates: Candidate[], max: number): Candidate[] {
  const submitters = new Set<string>();
  const contents = new Set<string>();
  const funders = new Set<string>();
  return candidates
    .filter((s) => {
      if (submitters.has(s.submitter) || contents.has(s.contentHash)) return false;
      if (s.funder && funders.has(s.funder)) return false;
      submitters.add(s.submitter);
      contents.add(s.contentHash);
      if (s.funder) funders.add(s.funder);
      return true;
    })
    .slice(0, max);
}

/**
 * A judging, voting or oracle window does not close on deliverables still being checked through no
 * fault of their submitter: while a pending submission's check is still due or
 * in flight, the step is put off a minute at a time — never past `end` + CHECK_GRACE_SECONDS,
 * so funds are never held for long. creator_judges and oracle move their window (judging_deadline)
 * with it, so the creator can still award what is checked late. True when the step was put off.
 */
export async function holdForChecks(
  { tx, now }: TxCtx,
  { mission: m, end, moveWindow }: { mission: Mission; end: Date; moveWindow: boolean },
): Promise<boolean> {
  const limit = end.getTime() + CHECK_GRACE_SECONDS * 1000;
  if (now.getTime() >= limit) return false;
  const [unchecked] = await tx
    .select({ id: submissions.id })
    .from(submissions)
    .where(pendingOf(m.id, isNull(submissions.checkResult), isNotNull(submissions.nextCheckAt)))
    .limit(1);
  if (!unchecked) return false;
  const next = new Date(Math.min(now.getTime() + 60_000, limit));
  await tx
    .update(missions)
    .set({ nextActionAt: next, ...(moveWindow ? { judgingDeadline: next } : {}), updatedAt: now })
    .where(eq(missions.id, m.id));
  return true;
}
