import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { missions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { advanceAppeal } from "./appeal";
import { expireJudging } from "./creator-judges";
import { isCommitReveal, revealDeadline } from "./commit-reveal";
import { judgeFirstValidMatch } from "./first-valid-match";
import { tallyVotes } from "./peer-vote";
import { advanceOracle, closeOracleMission, prepareOracle, type OracleVerdict } from "./oracle";
import { voidAndRefund } from "../settlement";
import { holdForChecks } from "./default-award";
import type { MissionRow } from "../../db/rows";

type Mission = Omit<MissionRow, "search">;

/** How long a first_valid_match mission waits before re-judging while checks are outstanding. */
const REJUDGE_MS = 60_000;

/**
 * One step of the mission state machine, run by the sweeper when next_action_at has passed.
 * Caller's transaction holds the mission row lock. Every path moves the mission forward or
 * re-schedules it, and every branch ends in resolved or voided (design.md "Missions").
 *
 *   open ──deadline──▶ escrowed(judging | verifying | voting | awaiting_oracle) ──▶ resolved | voided
 */
/** Work done before the transaction for a due mission (e.g. the oracle's verdict over RPC). */
export interface Prepared {
  oracle?: OracleVerdict;
}

export async function prepareAdvance(deps: Deps, m: Mission, now: Date): Promise<Prepared> {
  if (m.verificationType === "oracle" && m.status === "escrowed" && m.phase === "awaiting_oracle") return { oracle: await prepareOracle(deps, m, now) };
  return {};
}

export async function advanceMission(tx: Tx, deps: Deps, m: Mission, now: Date, prepared: Prepared = {}): Promise<void> {
  const set = (values: Partial<typeof missions.$inferInsert>) => tx.update(missions).set({ ...values, updatedAt: now }).where(eq(missions.id, m.id));
  if (m.status === "pending_escrow" && now >= m.deadline) {
    // base rail, never funded in time: nothing was escrowed, so nothing is refunded here (a deposit
    // that confirms later finds the mission voided and is refunded by the escrow watcher).
    await set({ status: "voided", phase: "closed", resolutionReason: "expired_unfunded", voidedAt: now, nextActionAt: null });
    return;
  }
  if (m.status === "open" && now >= m.deadline) {
    switch (m.verificationType) {
      case "creator_judges": {
        if (m.submissionCount === 0) return voidAndRefund(tx, m, { now, reason: "expired_without_submissions" });
        const judgingDeadline = new Date(m.deadline.getTime() + deps.config.judgingWindowSeconds * 1000);
        await set({ status: "escrowed", phase: "judging", judgingDeadline, nextActionAt: judgingDeadline });
        return;
      }
      case "first_valid_match": {
        if (isCommitReveal(m)) {
          // Commitments close; reveals run until the reveal deadline.
          if (m.submissionCount === 0) return voidAndRefund(tx, m, { now, reason: "expired_without_submissions" });
          await set({ status: "escrowed", phase: "revealing", nextActionAt: revealDeadline(m) });
          return;
        }
        const outcome = await judgeFirstValidMatch(tx, deps, m, now);
        if (outcome === "waiting") await set({ status: "escrowed", phase: "verifying", nextActionAt: new Date(now.getTime() + REJUDGE_MS) });
        return;
      }
      case "peer_vote": {
        // Submissions close; their deliverables become visible to voters until voting_deadline.
        if (m.submissionCount === 0) return voidAndRefund(tx, m, { now, reason: "expired_without_submissions" });
        const votingDeadline = new Date(String((m.verificationParams as { voting_deadline: string }).voting_deadline));
        await set({ status: "escrowed", phase: "voting", nextActionAt: votingDeadline > now ? votingDeadline : now });
        return;
      }
      case "oracle":
        return closeOracleMission(tx, deps, m, now);
      default:
        // An unknown verification type: refund rather than hold funds.
        if (m.submissionCount === 0) return voidAndRefund(tx, m, { now, reason: "expired_without_submissions" });
        return voidAndRefund(tx, m, { now, reason: "no_valid_submission" });
    }
  }
  if (m.status === "escrowed" && m.award) return advanceAppeal(tx, deps, m, now); // creator_judges award under appeal
  if (m.status === "escrowed" && m.phase === "judging" && m.judgingDeadline && now >= m.judgingDeadline) {
    const windowEnd = new Date(m.deadline.getTime() + deps.config.judgingWindowSeconds * 1000);
    if (await holdForChecks(tx, deps, m, now, windowEnd, true)) return;
    return expireJudging(tx, deps, m, now);
  }
  if (m.status === "escrowed" && m.phase === "awaiting_oracle") return advanceOracle(tx, deps, m, now, prepared.oracle);
  if (m.status === "escrowed" && m.phase === "voting") {
    const votingDeadline = new Date(String((m.verificationParams as { voting_deadline: string }).voting_deadline));
    if (now >= votingDeadline) {
      if (await holdForChecks(tx, deps, m, now, votingDeadline, false)) return;
      return tallyVotes(tx, deps, m, now);
    }
    await set({ nextActionAt: votingDeadline });
    return;
  }
  if (m.status === "escrowed" && m.phase === "revealing") {
    if (now < revealDeadline(m)) return void (await set({ nextActionAt: revealDeadline(m) }));
    const outcome = await judgeFirstValidMatch(tx, deps, m, now);
    if (outcome === "waiting") await set({ phase: "verifying", nextActionAt: new Date(now.getTime() + REJUDGE_MS) });
    return;
  }
  if (m.status === "escrowed" && m.phase === "verifying") {
    const outcome = await judgeFirstValidMatch(tx, deps, m, now);
    if (outcome === "waiting") await set({ nextActionAt: new Date(now.getTime() + REJUDGE_MS) });
    return;
  }
  // Not due after all: schedule the next real step, never "now" again (the sweeper must not spin).
  if (m.status === "open") await set({ nextActionAt: m.deadline });
  else if (m.status === "escrowed" && m.phase === "judging" && m.judgingDeadline) await set({ nextActionAt: m.judgingDeadline });
  else await set({ nextActionAt: m.status === "escrowed" ? new Date(now.getTime() + REJUDGE_MS) : null });
}
