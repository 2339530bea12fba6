import { and, asc, eq, inArray } from "drizzle-orm";
import { missions, submissions, votes } from "../../db/schema/index";
import { AppError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { agentOf, type Ctx, dbOf, type TxCtx, withTx } from "../../lib/context";
import { onceTx } from "../../lib/idempotency";
import { parseUint } from "../../lib/money";
import { agentAccount, transfer } from "../ledger";
import { assertVisible, findVisibleMission, lockMission } from "../../db/mission-visibility";
import { appealBallotRules, appealOf } from "./appeal";
import { expireJudging } from "./creator-judges";
import { resolveAndPay } from "../settlement";
import { recordActivity } from "../reputation";
import { settleStakes, votesAccount, type BallotRules, stakeAccounts } from "./stakes";
import { pickWinner, settleBallots, VOTE_SLASH_BPS, type Ballot } from "./vote-math";
import { advanceMission } from "./lifecycle";
import { MISSION_COLUMNS, type MissionRow } from "../../db/rows";
import { verificationIf } from "../../db/verification";
import { assertNotSuspended } from "../../db/suspension";

/** peer_vote: stakes from the deadline until voting_deadline, on any pending submission. */
function peerVoteRules(m: MissionRow, now: Date): BallotRules {
  const p = verificationIf(m, "peer_vote")?.params;
  if (!p)
    throw new AppError("CONFLICT", `a ${m.verificationType} mission is not decided by votes`, {
      reason: "wrong_verification_type",
    });
  if (!(m.status === "escrowed" && m.phase === "voting" && now < new Date(p.voting_deadline))) {
    throw new AppError(
      "MISSION_NOT_OPEN",
      m.status === "open" ? "voting opens at the mission deadline" : "voting is closed",
      { status: m.status, phase: m.phase, voting_deadline: p.voting_deadline },
    );
  }
  return { token: p.vote_token, minVote: p.min_vote };
}

function voteToWire(v: typeof votes.$inferSelect) {
  return {
    id: v.id,
    mission_id: v.missionId,
    submission_id: v.submissionId,
    voter: v.voter,
    asset: v.asset,
    amount: v.amount,
    created_at: v.createdAt.toISOString(),
    outcome: v.outcome,
    payout: v.payout,
  };
}

/**
 * AIP-1 §4.3: votes are accepted from the instant the deadline passes, so the
 * phase follows time, not the sweeper's next tick. A peer_vote mission still `open` past its
 * deadline is closed here by the sweeper's own step (advanceMission) before the vote is taken.
 * Locking: the mission row FOR UPDATE, re-checked under the lock (a concurrent sweep or vote that
 * got there first leaves nothing to do).
 */
async function openVotingIfDue(ctx: Ctx, missionId: string): Promise<void> {
  const { deps, now } = ctx;
  const [snap] = await dbOf(ctx)
    .select({ status: missions.status, deadline: missions.deadline, type: missions.verificationType })
    .from(missions)
    .where(eq(missions.id, missionId));
  if (!snap || snap.type !== "peer_vote" || snap.status !== "open" || now < snap.deadline) return;
  await withTx(ctx, async (tx) => {
    const m = await lockMission(tx, missionId);
    if (m && m.status === "open" && now >= m.deadline) await advanceMission({ tx, deps, now }, { mission: m });
  });
}

/**
 * POST /missions/{id}/votes (AIP-1 §4.3): stake vote_token on one submission, between the
 * deadline (submissions closed, deliverables visible) and voting_deadline. Not the creator, not
 * on your own submission, ≥ min_vote, one vote per voter per mission. The same verb stakes in
 * the appeal of a creator_judges award (appeal.ts: a dispute, then a vote).
 * Locking: the mission row FOR SHARE (votes run side by side; the tally's FOR UPDATE waits for
 * them), the unique (mission, voter) index, and the voter's ledger row for the stake.
 */
export async function castVote(
  ctx: Ctx,
  { missionId, vote: input }: { missionId: string; vote: { submission_id: string; amount: string } },
) {
  const { now } = ctx;
  const voter = agentOf(ctx);
  await assertNotSuspended(dbOf(ctx), voter, now); // docs/moderation.md "Suspension"
  await openVotingIfDue(ctx, missionId);
  const amount = parseUint(input.amount);
  return onceTx(ctx, async (tx) => {
    const [locked] = await tx.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, missionId)).for("share");
    // Hidden from everyone while pending_escrow, its creator included (nothing to vote on).
    const m = assertVisible(locked, missionId, null);
    const rules = appealOf(m) ? appealBallotRules({ now }, { mission: m, voter }) : peerVoteRules(m, now);
    if (m.creator === voter)
      throw new AppError("FORBIDDEN", "the creator cannot vote on their own mission", { reason: "creator_vote" });
    const [s] = await tx
      .select()
      .from(submissions)
      .where(and(eq(submissions.id, input.submission_id), eq(submissions.missionId, missionId)));
    if (!s || s.status !== "pending")
      throw new AppError("UNPROCESSABLE", `submission ${input.submission_id} is not a candidate of this mission`, {
        reason: "unknown_submission",
      });
    if (s.submitter === voter)
      throw new AppError("FORBIDDEN", "no voting for your own submission", { reason: "own_submission" });
    if (s.checkResult !== "valid")
      throw new AppError("UNPROCESSABLE", "this submission's deliverable has not been fetched and hash-checked yet", {
        reason: "content_not_verified",
      });
    rules.check?.(s.id);
    if (amount < parseUint(rules.minVote) || amount === 0n)
      throw new AppError("UNPROCESSABLE", `the stake must be at least ${rules.minVote}`, {
        reason: "below_min_vote",
        min_vote: rules.minVote,
      });
    const row = {
      id: newId("vote", now.getTime()),
      missionId,
      submissionId: s.id,
      voter,
      asset: rules.token,
      amount: amount.toString(),
      outcome: null,
      payout: null,
      createdAt: now,
    };
    const inserted = await tx.insert(votes).values(row).onConflictDoNothing().returning({ id: votes.id });
    if (inserted.length === 0)
      throw new AppError("CONFLICT", "you already voted on this mission", { reason: "already_voted" });
    await recordActivity({ tx, now }, { agentId: voter }); // agent row before the ledger rows
    await transfer(tx, {
      asset: rules.token,
      kind: "vote_stake",
      ref: missionId,
      at: now,
      postings: [
        { account: agentAccount(voter), amount: -amount },
        { account: votesAccount(missionId), amount },
      ],
    });
    return voteToWire(row);
  });
}

/** GET /missions/{id}/votes: hidden with the mission while it is pending_escrow, from everyone. */
export async function listVotes(ctx: Ctx, { missionId }: { missionId: string }) {
  await findVisibleMission(ctx, missionId, null);
  const rows = await dbOf(ctx)
    .select()
    .from(votes)
    .where(eq(votes.missionId, missionId))
    .orderBy(asc(votes.id))
    .limit(1000);
  return { votes: rows.map(voteToWire) };
}

/**
 * The tally at voting_deadline (caller's transaction holds the mission row lock).
 * Quorum met (Σ stakes ≥ quorum, at least one vote): the most-staked submission wins (tie:
 * earliest), is paid the reward, and ballots are settled by settleBallots; a non-winning
 * submission with at least half the winner's stake is a partial outcome for reputation.
 * No quorum: every stake is returned in full and — as when a creator never judges — the reward
 * is split equally between the distinct submitters (work was delivered, nobody decided).
 */
export async function tallyVotes(ctx: TxCtx, { mission: m }: { mission: MissionRow }): Promise<void> {
  const { tx, deps, now } = ctx;
  const p = verificationIf(m, "peer_vote")?.params;
  if (!p) throw new AppError("INTERNAL_ERROR", `tallyVotes on a ${m.verificationType} mission`);
  const rows = await tx.select().from(votes).where(eq(votes.missionId, m.id)).orderBy(asc(votes.id));
  const subs = await tx
    .select({ id: submissions.id, seq: submissions.seq })
    .from(submissions)
    .where(eq(submissions.missionId, m.id));
  const seqOf = new Map(subs.map((s) => [s.id, s.seq]));
  const ballots: Ballot[] = rows.map((v) => ({
    id: v.id,
    submissionId: v.submissionId,
    amount: BigInt(v.amount),
    seq: seqOf.get(v.submissionId) ?? Number.MAX_SAFE_INTEGER,
  }));
  const total = ballots.reduce((a, b) => a + b.amount, 0n);
  const result = total >= parseUint(p.quorum) ? pickWinner(ballots) : null;
  const payouts = result
    ? settleBallots(ballots, { winner: result.submissionId, slashBps: VOTE_SLASH_BPS })
    : new Map(ballots.map((b) => [b.id, { outcome: "refunded" as const, payout: b.amount }]));
  // Resolution (reputation, then the reward) before the stakes: agent rows before ledger rows.
  if (!result) {
    await expireJudging(
      { tx, deps, now },
      {
        mission: m,
        reason: "default_award_no_quorum",
        alsoLock: stakeAccounts(rows, { missionId: m.id, asset: p.vote_token }),
      },
    );
  } else {
    const [w] = await tx.select().from(submissions).where(eq(submissions.id, result.submissionId));
    // A non-winning submission with at least half the winner's stake earns partial credit (docs/design.md).
    const partial = [...result.stakes]
      .filter(([sub, stake]) => sub !== result.submissionId && stake * 2n >= result.stake)
      .map(([sub]) => sub);
    await resolveAndPay(
      { tx, deps, now },
      {
        mission: m,
        winners: [{ submissionId: w!.id, submitter: w!.submitter, weight: 1 }],
        reason: "peer_vote",
        winnerReason: "vote_winner",
        loserReason: "not_selected",
        outcome: "win",
        partialSubmissionIds: partial,
        alsoLock: stakeAccounts(rows, { missionId: m.id, asset: p.vote_token }),
      },
    );
    if (partial.length > 0)
      await tx.update(submissions).set({ outcome: "partial" }).where(inArray(submissions.id, partial));
  }
  await settleStakes({ tx, now }, { missionId: m.id, asset: p.vote_token, rows, payouts });
}
