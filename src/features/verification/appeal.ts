import { asc, eq, sql } from "drizzle-orm";
import type { Ctx, TxCtx } from "../../lib/context";
import { eventRow, missionAwarded } from "../../db/outbox";
import { agentRecords, missions, submissions, votes, webhookEvents } from "../../db/schema/index";
import { jsonRow, rowFromJson } from "../../db/write-functions";
import type { DbOrTx } from "../../db/client";
import type { AwardRecord } from "../../db/schema/missions";
import { AppError } from "../../lib/errors";
import { parseUint } from "../../lib/money";
import { settleStakes, type BallotRules, stakeAccounts } from "./stakes";
import type { AccountKey } from "../ledger";
import { payOneWinner, resolveAndPay, type Winner } from "../settlement";
import { pickWinner, settleBallots, VOTE_SLASH_BPS, type Ballot } from "./vote-math";
import { rowsOf, type MissionRow } from "../../db/rows";
import { verificationIf, type AppealParams } from "../../db/verification";

// Appeals of a creator_judges award (AIP-1 Security Considerations, "Reward griefing": peer_vote
// appeals after a creator_judges resolution if a quorum of voters dispute). Opt-in per mission
// with the `appeal` param; without it an award pays at once, as before.
//
//   award ──▶ escrowed/appeal (award recorded, payout queued; disputes staked until appeal_deadline)
//     ├─ Σ dispute stakes < quorum ──▶ stakes refunded in full; the award is paid (creator_award)
//     └─ Σ dispute stakes ≥ quorum ──▶ escrowed/voting until voting_deadline (= close + window):
//          the recorded award is one candidate, every other pending submission another; disputes
//          stay as votes; anyone but the creator and the awarded winners may stake (once).
//          The award stands unless one other submission has strictly more stake than all the
//          stakes on the award (a tie keeps the award) ──▶ upheld (award paid) or overturned
//          (that submission wins the whole reward); losing stakes slashed to winning ones as in
//          peer_vote.

export type { AppealParams };

/** The mission's appeal params, or undefined when its award is final at once. */
export function appealOf(m: Pick<MissionRow, "verificationType" | "verificationParams">): AppealParams | undefined {
  return verificationIf(m, "creator_judges")?.params.appeal || undefined;
}

/** The one candidate that stands for the creator's award in an appeal vote (all its winners). */
const AWARD = "award";

/**
 * Records the creator's award instead of paying it (caller: awardMission, after validating the
 * winners): the mission stays escrowed, phase appeal, payout queued until appeal_deadline. Pending
 * submissions say whether they were awarded. One statement, the write function `oabp_record_award`
 * (drizzle/0044_award_in_one_statement.sql), which answers the mission as it left it and the
 * creator's record. Inside the transaction that holds the mission row lock (`db` a Tx), or alone
 * on the pool with the `rowVersion` the award was checked against: then it locks the row itself
 * and raises the gate "changed" (src/db/write-functions.ts `gateOf`), writing nothing, when the
 * row or a winner changed since.
 */
export async function recordAward(
  { db, now }: { db: DbOrTx; now: Date },
  input: { mission: MissionRow; winners: Winner[]; releaseSignatures?: Record<string, string>; rowVersion?: number },
): Promise<{ mission: MissionRow; record: typeof agentRecords.$inferSelect | undefined }> {
  const { mission: m, winners, releaseSignatures = {} } = input;
  const p = appealOf(m)!;
  const appealDeadline = new Date(now.getTime() + p.appeal_window_seconds * 1000);
  const award: AwardRecord = {
    winners: winners.map((w) => ({ submission_id: w.submissionId, agent_id: w.submitter, weight: w.weight })),
    awarded_at: now.toISOString(),
    appeal_deadline: appealDeadline.toISOString(),
    voting_deadline: null,
    dispute_stake: null,
    outcome: null,
    // Used only if the award stands (payAward); an overturned award's release is delayed.
    ...(Object.keys(releaseSignatures).length ? { release_signatures: releaseSignatures } : {}),
  };
  const arg = JSON.stringify({
    mission_id: m.id,
    now: now.toISOString(),
    winners: winners.map((w) => w.submissionId),
    award,
    appeal_deadline: award.appeal_deadline,
    // Followers learn of the award now, not when it pays (docs/events.md "mission.awarded").
    event: jsonRow(webhookEvents, eventRow(missionAwarded(m, now, award))),
    ...(input.rowVersion === undefined ? {} : { row_version: input.rowVersion }),
  });
  const [r] = rowsOf<{ out: { mission: unknown; record: unknown } }>(
    await db.execute(sql`select oabp_record_award(${arg}::jsonb) as out`),
  );
  const mission = rowFromJson(missions, r?.out.mission);
  if (!mission) throw new Error("oabp_record_award answered no mission");
  return { mission, record: rowFromJson(agentRecords, r?.out.record) };
}

/** What appealRefusal reads of a mission: the row and the wire shape both have it. */
export interface AppealState {
  status: string;
  phase: string;
  creator: string;
  award: { winners: { agent_id: string }[]; appeal_deadline: string; voting_deadline: string | null } | null;
}

/**
 * Why `voter` may not stake in this award's appeal now, or null when they may (castVote through
 * appealBallotRules; the mission page shows the dispute action only on null).
 */
export function appealRefusal(
  { now }: Pick<Ctx, "now">,
  { mission: m, voter }: { mission: AppealState; voter: string },
): AppError | null {
  const a = m.award;
  const closesAt =
    a && m.status === "escrowed"
      ? m.phase === "appeal"
        ? a.appeal_deadline
        : m.phase === "voting"
          ? a.voting_deadline
          : null
      : null;
  if (!closesAt || now >= new Date(closesAt)) {
    return new AppError(
      "MISSION_NOT_OPEN",
      a ? "the appeal of this award is closed" : "disputes open when the creator awards",
      {
        status: m.status,
        phase: m.phase,
        appeal_deadline: a?.appeal_deadline ?? null,
        voting_deadline: a?.voting_deadline ?? null,
      },
    );
  }
  if (a!.winners.some((w) => w.agent_id === voter))
    return new AppError("FORBIDDEN", "an awarded winner cannot stake in the appeal of their award", {
      reason: "awarded_winner",
    });
  if (m.creator === voter)
    return new AppError("FORBIDDEN", "the creator cannot vote on their own mission", { reason: "creator_vote" });
  return null;
}

/**
 * Who may stake in an appeal, on what, until when (castVote, under the mission row share lock).
 * Dispute window: a stake names a non-awarded submission that should have won. Appeal vote:
 * any pending submission, the awarded ones included (a stake there defends the award).
 * Never the creator (castVote) nor an awarded winner: they are the parties.
 */
export function appealBallotRules(
  ctx: Pick<Ctx, "now">,
  { mission: m, voter }: { mission: MissionRow; voter: string },
): BallotRules {
  const p = appealOf(m)!;
  const refused = appealRefusal(ctx, { mission: m, voter });
  if (refused) throw refused;
  const a = m.award;
  const awarded = new Set(a!.winners.map((w) => w.submission_id));
  return {
    token: p.vote_token,
    minVote: p.min_vote,
    check(submissionId) {
      if (m.phase === "appeal" && awarded.has(submissionId)) {
        throw new AppError("UNPROCESSABLE", "a dispute names a submission that should have won instead of the award", {
          reason: "awarded_submission",
        });
      }
    },
  };
}

/**
 * One step of an appeal (lifecycle, under the mission row lock; the mission is escrowed with a
 * recorded award). Before its deadline a phase only re-schedules itself.
 */
export async function advanceAppeal(ctx: TxCtx, { mission: m }: { mission: MissionRow }): Promise<void> {
  const a = m.award!;
  const p = appealOf(m)!;
  const rows = await ctx.tx.select().from(votes).where(eq(votes.missionId, m.id)).orderBy(asc(votes.id));
  const total = rows.reduce((s, v) => s + BigInt(v.amount), 0n);
  const tally: Tally = { a, p, rows, total, quorum: parseUint(p.quorum) };
  if (m.phase === "appeal") return closeAppeal(ctx, m, tally);
  // phase voting (or anything unexpected: decide rather than hold the funds)
  return closeAppealVote(ctx, m, tally);
}

/** What an appeal step reads: the award, the appeal's params, its dispute stakes (votes) and their sum. */
interface Tally {
  a: AwardRecord;
  p: AppealParams;
  rows: (typeof votes.$inferSelect)[];
  total: bigint;
  quorum: bigint;
}

/** The mission waits for `closesAt` (the sweeper comes back then). */
async function waitUntil({ tx, now }: TxCtx, m: MissionRow, closesAt: Date): Promise<void> {
  await tx.update(missions).set({ nextActionAt: closesAt, updatedAt: now }).where(eq(missions.id, m.id));
}

/** The appeal window: at its end a quorum of disputes opens the peer vote, else the award is paid. */
async function closeAppeal(ctx: TxCtx, m: MissionRow, { a, p, rows, total, quorum }: Tally): Promise<void> {
  const { tx, now } = ctx;
  const closesAt = new Date(a.appeal_deadline);
  if (now < closesAt) return waitUntil(ctx, m, closesAt);
  if (rows.length > 0 && total >= quorum) {
    // Quorum of disputes: the decision goes to a peer vote; the disputes count as votes.
    const votingDeadline = new Date(now.getTime() + p.appeal_window_seconds * 1000);
    await tx
      .update(missions)
      .set({
        phase: "voting",
        award: { ...a, voting_deadline: votingDeadline.toISOString(), dispute_stake: total.toString() },
        payoutStatusReason: "awaiting_appeal_vote",
        payoutStatusUpdatedAt: now,
        nextActionAt: votingDeadline,
        updatedAt: now,
      })
      .where(eq(missions.id, m.id));
    return;
  }
  // No dispute, or too few: the disputers get their stakes back in full, the award is paid.
  // Pay first (agent rows, then every ledger row in one sorted pass), then return the stakes.
  await payAward(ctx, {
    mission: m,
    award: { ...a, dispute_stake: total.toString(), outcome: "undisputed" },
    reason: "creator_award",
    alsoLock: stakeAccounts(rows, { missionId: m.id, asset: p.vote_token }),
  });
  return settleStakes(ctx, { missionId: m.id, asset: p.vote_token, rows, payouts: refundAll(rows) });
}

/** The appeal's peer vote: at its end the award is upheld or overturned, and the stakes settle. */
async function closeAppealVote(ctx: TxCtx, m: MissionRow, { a, p, rows, total, quorum }: Tally): Promise<void> {
  const { tx, now } = ctx;
  const closesAt = a.voting_deadline ? new Date(a.voting_deadline) : new Date(a.appeal_deadline);
  if (now < closesAt) return waitUntil(ctx, m, closesAt);
  const awarded = new Set(a.winners.map((w) => w.submission_id));
  const subs = await tx
    .select({ id: submissions.id, seq: submissions.seq, submitter: submissions.submitter })
    .from(submissions)
    .where(eq(submissions.missionId, m.id));
  const byId = new Map(subs.map((s) => [s.id, s]));
  // The award is one candidate (seq −1: it wins a tie), every other submission its own.
  const ballots: Ballot[] = rows.map((v) =>
    awarded.has(v.submissionId)
      ? { id: v.id, submissionId: AWARD, amount: BigInt(v.amount), seq: -1 }
      : {
          id: v.id,
          submissionId: v.submissionId,
          amount: BigInt(v.amount),
          seq: byId.get(v.submissionId)?.seq ?? Number.MAX_SAFE_INTEGER,
        },
  );
  const result = rows.length > 0 && total >= quorum ? pickWinner(ballots) : null;
  const payouts = result
    ? settleBallots(ballots, { winner: result.submissionId, slashBps: VOTE_SLASH_BPS })
    : refundAll(rows);
  const stakes = stakeAccounts(rows, { missionId: m.id, asset: p.vote_token });
  // Pay first (agent rows, then every ledger row in one sorted pass), then settle the stakes.
  if (!result || result.submissionId === AWARD) {
    await payAward(ctx, {
      mission: m,
      award: { ...a, outcome: "upheld" },
      reason: "creator_award_upheld",
      alsoLock: stakes,
    });
  } else {
    const w = byId.get(result.submissionId)!;
    await payOneWinner(ctx, {
      mission: m,
      winner: w,
      reason: "creator_award_overturned",
      alsoLock: stakes,
      loserReasons: Object.fromEntries([...awarded].map((id) => [id, "award_overturned" as const])),
    });
    await tx
      .update(missions)
      // The creator signed the award it made, not this outcome: its signatures are dropped.
      .set({ award: { ...a, outcome: "overturned", release_signatures: undefined } })
      .where(eq(missions.id, m.id));
  }
  await settleStakes(ctx, { missionId: m.id, asset: p.vote_token, rows, payouts });
}

function refundAll(rows: { id: string; amount: string }[]) {
  return new Map(rows.map((v) => [v.id, { outcome: "refunded" as const, payout: BigInt(v.amount) }]));
}

/** Pays the recorded award exactly as an immediate award would have (winners, shares, fee). */
async function payAward(
  ctx: TxCtx,
  input: {
    mission: MissionRow;
    award: AwardRecord;
    reason: "creator_award" | "creator_award_upheld";
    alsoLock: AccountKey[];
  },
) {
  const { tx } = ctx;
  const { mission: m, award, reason, alsoLock } = input;
  const winners: Winner[] = award.winners.map((w) => ({
    submissionId: w.submission_id,
    submitter: w.agent_id,
    weight: w.weight,
  }));
  await resolveAndPay(ctx, {
    mission: m,
    winners,
    reason,
    winnerReason: "selected_by_creator",
    loserReason: "not_selected",
    outcome: "win",
    alsoLock,
    releaseSignatures: award.release_signatures ?? {},
  });
  await tx.update(missions).set({ award }).where(eq(missions.id, m.id));
}
