import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { missions } from "../../db/schema/index";
import { judgingWindowOf, verificationIf } from "../../db/verification";
import type { MissionState, VerificationType } from "../../db/vocabulary";
import type { Deps } from "../../deps";
import type { Ctx, TxCtx } from "../../lib/context";
import { advanceAppeal } from "./appeal";
import { expireJudging } from "./creator-judges";
import { isCommitReveal, revealDeadline } from "./commit-reveal";
import { judgeFirstValidMatch } from "./first-valid-match";
import { tallyVotes } from "./peer-vote";
import { advanceOracle, closeOracleMission, prepareOracle, type OracleVerdict } from "./oracle";
import { voidAndRefund } from "../settlement";
import { holdForChecks } from "./default-award";
import type { MissionRow } from "../../db/rows";

/** How long a first_valid_match mission waits before re-judging while checks are outstanding. */
const REJUDGE_MS = 60_000;

/** Work done before the transaction for a due mission (e.g. the oracle's verdict over RPC). */
export interface Prepared {
  oracle?: OracleVerdict;
}

export async function prepareAdvance(
  ctx: Pick<Ctx, "deps" | "now">,
  { mission: m }: { mission: MissionRow },
): Promise<Prepared> {
  if (m.verificationType === "oracle" && m.status === "escrowed" && m.phase === "awaiting_oracle")
    return { oracle: await prepareOracle(ctx, { mission: m }) };
  return {};
}

/** What a step gets: the locked mission, the clock, and `set` to write the mission row. */
interface StepContext {
  tx: Tx;
  deps: Deps;
  m: MissionRow;
  now: Date;
  prepared: Prepared;
  set: (values: Partial<typeof missions.$inferInsert>) => Promise<unknown>;
}
type Step = (c: StepContext) => Promise<void>;

const rejudgeAt = (now: Date) => new Date(now.getTime() + REJUDGE_MS);
const refundUnsubmitted = (c: StepContext) => voidAndRefund(c, { mission: c.m, reason: "expired_without_submissions" });

// ── open/accepting_submissions at the deadline: submissions close, per verification type ──────

const CLOSE_AT_DEADLINE: Record<VerificationType, Step> = {
  async creator_judges(c) {
    if (c.m.submissionCount === 0) return refundUnsubmitted(c);
    const judgingDeadline = judgingWindowEnd(c);
    await c.set({ status: "escrowed", phase: "judging", judgingDeadline, nextActionAt: judgingDeadline });
  },
  async first_valid_match(c) {
    if (isCommitReveal(c.m)) {
      // Commitments close; reveals run until the reveal deadline.
      if (c.m.submissionCount === 0) return refundUnsubmitted(c);
      await c.set({ status: "escrowed", phase: "revealing", nextActionAt: revealDeadline(c.m) });
      return;
    }
    const outcome = await judgeFirstValidMatch(c, { mission: c.m });
    if (outcome === "waiting") await c.set({ status: "escrowed", phase: "verifying", nextActionAt: rejudgeAt(c.now) });
  },
  async peer_vote(c) {
    // Submissions close; their deliverables become visible to voters until voting_deadline.
    if (c.m.submissionCount === 0) return refundUnsubmitted(c);
    const votingDeadline = votingDeadlineOf(c.m);
    await c.set({ status: "escrowed", phase: "voting", nextActionAt: votingDeadline > c.now ? votingDeadline : c.now });
  },
  oracle: (c) => closeOracleMission(c, { mission: c.m }),
};

/**
 * creator_judges: the deadline + the mission's judging_window_seconds (the server's window for a
 * mission stored before it stated one). judging_deadline starts here; holdForChecks may move it.
 */
function judgingWindowEnd({ m, deps }: Pick<StepContext, "m" | "deps">): Date {
  const params = verificationIf(m, "creator_judges")?.params;
  const seconds = params ? judgingWindowOf(params, deps.config.judgingWindowSeconds) : deps.config.judgingWindowSeconds;
  return new Date(m.deadline.getTime() + seconds * 1000);
}

/** peer_vote's voting_deadline; throws for a mission without one (the sweeper backs it off). */
function votingDeadlineOf(m: MissionRow): Date {
  const params = verificationIf(m, "peer_vote")?.params;
  if (!params) throw new Error(`mission ${m.id}: a ${m.verificationType} mission has no voting deadline`);
  return new Date(params.voting_deadline);
}

// ── the table: one step per state the sweeper moves ────────────────────────────────────────────

/**
 * The mission state machine (docs/design.md "Missions", docs/lifecycle.md), one step per
 * (status, phase). The sweeper runs a step when next_action_at has passed; the caller's
 * transaction holds the mission row lock. Every step moves the mission forward or re-schedules
 * it (never to "now" again: the sweeper must not spin), and every path ends in a TERMINAL state.
 *
 *   pending_escrow ─deposit─▶ open ──deadline──▶ escrowed(judging | revealing | verifying |
 *   voting | awaiting_oracle | appeal) ──▶ resolved(settling ─▶ settled) | voided(closed)
 */
export const STEPS: Record<Exclude<MissionState, TerminalState>, Step> = {
  async "pending_escrow/awaiting_escrow"(c) {
    // base rail, never funded in time: nothing was escrowed, so nothing is refunded here (a deposit
    // that confirms later finds the mission voided and is refunded by the escrow watcher).
    if (c.now >= c.m.deadline) {
      await c.set({
        status: "voided",
        phase: "closed",
        resolutionReason: "expired_unfunded",
        voidedAt: c.now,
        nextActionAt: null,
      });
      return;
    }
    await c.set({ nextActionAt: null }); // the deposit, not the clock, moves it before its deadline
  },
  async "open/accepting_submissions"(c) {
    if (c.now < c.m.deadline) return void (await c.set({ nextActionAt: c.m.deadline }));
    return CLOSE_AT_DEADLINE[c.m.verificationType](c); // missions_verification_type_ck: no other type is stored
  },
  async "escrowed/judging"(c) {
    const { m, now } = c;
    if (!m.judgingDeadline) return void (await c.set({ nextActionAt: rejudgeAt(now) }));
    if (now < m.judgingDeadline) return void (await c.set({ nextActionAt: m.judgingDeadline }));
    if (await holdForChecks(c, { mission: m, end: judgingWindowEnd(c), moveWindow: true })) return;
    return expireJudging(c, { mission: m });
  },
  async "escrowed/revealing"(c) {
    if (c.now < revealDeadline(c.m)) return void (await c.set({ nextActionAt: revealDeadline(c.m) }));
    const outcome = await judgeFirstValidMatch(c, { mission: c.m });
    if (outcome === "waiting") await c.set({ phase: "verifying", nextActionAt: rejudgeAt(c.now) });
  },
  async "escrowed/verifying"(c) {
    const outcome = await judgeFirstValidMatch(c, { mission: c.m });
    if (outcome === "waiting") await c.set({ nextActionAt: rejudgeAt(c.now) });
  },
  async "escrowed/voting"(c) {
    if (c.m.award) return advanceAppeal(c, { mission: c.m }); // the appeal vote of a creator_judges award
    const votingDeadline = votingDeadlineOf(c.m);
    if (c.now < votingDeadline) return void (await c.set({ nextActionAt: votingDeadline }));
    if (await holdForChecks(c, { mission: c.m, end: votingDeadline, moveWindow: false })) return;
    return tallyVotes(c, { mission: c.m });
  },
  "escrowed/awaiting_oracle": (c) => advanceOracle(c, { mission: c.m, verdict: c.prepared.oracle }),
  async "escrowed/appeal"(c) {
    if (c.m.award) return advanceAppeal(c, { mission: c.m });
    await c.set({ nextActionAt: rejudgeAt(c.now) }); // no award recorded: nothing to decide yet
  },
};

/**
 * States the sweeper never moves: decided. resolved/settling moves to settled when the base
 * rail release is final (escrow.payouts), not by the clock.
 */
export const TERMINAL = [
  "resolved/settling",
  "resolved/settled",
  "voided/closed",
] as const satisfies readonly MissionState[];
type TerminalState = (typeof TERMINAL)[number];

const isStepState = (key: string): key is keyof typeof STEPS => Object.hasOwn(STEPS, key);

/** One step of the mission state machine (see STEPS); caller's transaction holds the row lock. */
export async function advanceMission(ctx: TxCtx, input: { mission: MissionRow; prepared?: Prepared }): Promise<void> {
  const { tx, deps, now } = ctx;
  const { mission: m, prepared = {} } = input;
  const set = (values: Partial<typeof missions.$inferInsert>) =>
    tx
      .update(missions)
      .set({ ...values, updatedAt: now })
      .where(eq(missions.id, m.id));
  const key = `${m.status}/${m.phase}`;
  if (isStepState(key)) return STEPS[key]({ tx, deps, m, now, prepared, set });
  // Terminal, or a pair no code writes: nothing to do by the clock. An escrowed mission is
  // looked at again later rather than dropped from the schedule while it holds funds.
  await set({ nextActionAt: m.status === "escrowed" ? rejudgeAt(now) : null });
}
