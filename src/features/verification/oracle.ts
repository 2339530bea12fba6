import { asc, eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import type { Ctx, TxCtx } from "../../lib/context";
import { missions, submissions } from "../../db/schema/index";
import { pendingOf } from "../../db/mission-parts";
import type { Deps } from "../../deps";
import {
  bytes32ToContentHash,
  contentHashToBytes32,
  missionKey,
  parseOracleMethod,
  type OracleFailureReason,
} from "../../lib/evm";
import { expireJudging } from "./creator-judges";
import { payOneWinner, voidAndRefund } from "../settlement";
import { holdForChecks } from "./default-award";
import type { MissionRow } from "../../db/rows";
import { verificationIf } from "../../db/verification";
import { lockMission } from "../../db/mission-visibility";

/** How often an `awaiting_oracle` mission reads its oracle. */
export const ORACLE_POLL_SECONDS = 60;

type Mission = Omit<MissionRow, "search">;

// AIP-1 §4.4 oracle: "a pre-registered oracle contract attests to which submission is valid".
//
//   open ──deadline──▶ escrowed/awaiting_oracle ──poll every ORACLE_POLL_SECONDS──▶
//        resolved (oracle_attested) | resolved (default award, window over) | voided (nobody submitted)
//
// The oracle is read over RPC in prepareOracle, OUTSIDE any transaction (a slow or dead RPC never
// holds the mission row lock); advanceOracle then applies the verdict under the lock, re-reading
// the submissions it names. The oracle window (the stored `judging_deadline`, deadline +
// OABP_ORACLE_WINDOW_SECONDS) caps the wait: funds are never held for an oracle that never answers.

/** At most this many oracle calls in one poll of one mission (per_submission reads one per submission). */
const ORACLE_MAX_CALLS_PER_POLL = 100;
/** Wall-clock budget of one oracle poll (the RPC timeout is 10 s per call). */
const ORACLE_POLL_BUDGET_MS = 15_000;

/** What one poll of the oracle said, computed outside the transaction (outcomes are data). */
export type OracleVerdict =
  /** per_submission: isValid(missionKey, contentHash) was true for this submission. */
  | { kind: "valid_submission"; submissionId: string }
  /** per_mission: winner(missionKey) named this content hash ("sha256:<hex>"). */
  | { kind: "winner_hash"; contentHash: string }
  /** The oracle answered but has not decided (zero winner, or no submission valid yet). */
  | { kind: "undecided" }
  /** No answer: no RPC configured, RPC down, bad method/address, revert, bad return data. */
  | { kind: "failure"; reason: OracleFailureReason };

const oracleWindowEnd = (deps: Deps, m: Mission): Date =>
  m.judgingDeadline ?? new Date(m.deadline.getTime() + deps.config.oracleWindowSeconds * 1000);

/**
 * At the deadline: nobody submitted → void and refund; otherwise submissions close and the
 * mission waits for the oracle, polled at once, until the oracle window closes.
 */
export async function closeOracleMission(ctx: TxCtx, { mission: m }: { mission: Mission }): Promise<void> {
  const { tx, deps, now } = ctx;
  if (m.submissionCount === 0) return voidAndRefund(ctx, { mission: m, reason: "expired_without_submissions" });
  const windowEnd = new Date(m.deadline.getTime() + deps.config.oracleWindowSeconds * 1000);
  await tx
    .update(missions)
    .set({
      status: "escrowed",
      phase: "awaiting_oracle",
      judgingDeadline: windowEnd,
      nextActionAt: now,
      updatedAt: now,
    })
    .where(eq(missions.id, m.id));
}

/** The oracle a poll reads: the mission's own, or an alternate one (AIP-4 §4 re-run). */
export type OracleRef = { address: string; method: string };

/**
 * One poll of the oracle for a mission in awaiting_oracle (no transaction, no lock).
 * per_mission: winner(missionKey). per_submission: isValid(missionKey, contentHash) for the
 * pending submissions in arrival order, stopping at the first true; at most
 * ORACLE_MAX_CALLS_PER_POLL calls — with more pending submissions, successive polls read the
 * next batch in turn. The first failed call ends the poll (one RPC timeout, not a hundred).
 * `oracle` reads another oracle than the mission's (an upheld oracle_disagreement, AIP-4 §4),
 * from the first batch.
 */
export async function prepareOracle(
  { deps, now }: Pick<Ctx, "deps" | "now">,
  { mission: m, oracle }: { mission: Mission; oracle?: OracleRef | undefined },
): Promise<OracleVerdict> {
  const params = verificationIf(m, "oracle")?.params;
  const ref = oracle ?? (params && { address: params.oracle_contract, method: params.oracle_method ?? "" });
  const parsed = ref && parseOracleMethod(ref.method);
  if (!ref || !parsed) return { kind: "failure", reason: "bad_method" };
  const key = missionKey(m.id);
  if (parsed.kind === "per_mission") {
    const r = await deps.oracle.winner({ ...ref, missionKey: key, missionId: m.id });
    if (!r.ok) return { kind: "failure", reason: r.reason };
    return r.contentHash
      ? { kind: "winner_hash", contentHash: bytes32ToContentHash(r.contentHash) }
      : { kind: "undecided" };
  }
  const poll = oracle
    ? 0
    : Math.max(0, Math.floor((now.getTime() - m.deadline.getTime()) / (ORACLE_POLL_SECONDS * 1000)));
  return askPerSubmission(deps, m, ref, poll);
}

/** per_submission: isValid over one batch of the pending submissions (the poll-th, in turn). */
async function askPerSubmission(deps: Deps, m: Mission, ref: OracleRef, poll: number): Promise<OracleVerdict> {
  const pending = await deps.database.db
    .select({ id: submissions.id, contentHash: submissions.contentHash })
    .from(submissions)
    .where(pendingOf(m.id, eq(submissions.checkResult, "valid")))
    .orderBy(asc(submissions.seq));
  const batches = Math.max(1, Math.ceil(pending.length / ORACLE_MAX_CALLS_PER_POLL));
  const start = (poll % batches) * ORACLE_MAX_CALLS_PER_POLL;
  const asked = new Set<string>(); // the same content twice (two agents) is one question
  // A slow oracle (each call may take up to the RPC timeout) must not hold the sweeper: a poll
  // stops after ORACLE_POLL_BUDGET_MS and the rest waits for the next poll.
  const started = performance.now();
  for (const s of pending.slice(start, start + ORACLE_MAX_CALLS_PER_POLL)) {
    if (performance.now() - started > ORACLE_POLL_BUDGET_MS) break;
    if (asked.has(s.contentHash)) continue;
    asked.add(s.contentHash);
    const r = await deps.oracle.isValid({
      ...ref,
      missionKey: missionKey(m.id),
      contentHash: contentHashToBytes32(s.contentHash),
    });
    if (!r.ok) return { kind: "failure", reason: r.reason };
    if (r.valid) return { kind: "valid_submission", submissionId: s.id };
  }
  return { kind: "undecided" };
}

/** The pending submission a verdict names, re-read under the mission lock (earliest by seq). */
async function attestedSubmission(tx: Tx, m: Mission, v: OracleVerdict) {
  if (v.kind !== "valid_submission" && v.kind !== "winner_hash") return undefined;
  const [s] = await tx
    .select({ id: submissions.id, submitter: submissions.submitter })
    .from(submissions)
    .where(
      pendingOf(
        m.id,
        eq(submissions.checkResult, "valid"),
        v.kind === "valid_submission" ? eq(submissions.id, v.submissionId) : eq(submissions.contentHash, v.contentHash),
      ),
    )
    .orderBy(asc(submissions.seq))
    .limit(1);
  return s;
}

/**
 * Applies one poll's verdict to a mission in awaiting_oracle; caller's transaction holds the
 * mission row lock. An attested pending submission wins the whole reward (reward − fee), every
 * other submission is not_selected. Otherwise the mission waits for the next poll — unless the
 * oracle window has closed, in which case the default award applies.
 *
 * Why the creator_judges default (default-award.ts: a bounded pool for the earliest verified,
 * content-unique submissions, the rest refunded) and not a full refund: the creator chose the
 * oracle, and a full refund would let a creator collect deliverables for free by naming an oracle
 * that never answers; and not an equal split per submitter, which free identities would farm.
 * No funds are held past the window (plus the grace for deliverables still being checked).
 */
export async function advanceOracle(
  ctx: TxCtx,
  { mission: m, verdict }: { mission: Mission; verdict: OracleVerdict | undefined },
): Promise<void> {
  const { tx, deps, now } = ctx;
  if (!verdict) {
    // The snapshot read before the lock was in another state (a concurrent step moved the
    // mission here): nothing was read yet, so poll on the next sweep.
    await tx.update(missions).set({ nextActionAt: now, updatedAt: now }).where(eq(missions.id, m.id));
    return;
  }
  if (await payAttested(ctx, { mission: m, verdict })) return;
  if (verdict.kind === "failure")
    deps.logger.warn({ mission: m.id, reason: verdict.reason }, "oracle gave no answer; polling again");
  else if (verdict.kind !== "undecided")
    deps.logger.warn({ mission: m.id, verdict }, "oracle named no pending submission of this mission; polling again");
  const windowEnd = oracleWindowEnd(deps, m);
  if (now >= windowEnd) {
    const originalEnd = new Date(m.deadline.getTime() + deps.config.oracleWindowSeconds * 1000);
    if (await holdForChecks(ctx, { mission: m, end: originalEnd, moveWindow: true })) return;
    return expireJudging(ctx, { mission: m, reason: "default_award_oracle_timeout" });
  }
  const next = Math.min(now.getTime() + ORACLE_POLL_SECONDS * 1000, windowEnd.getTime());
  await tx
    .update(missions)
    .set({ nextActionAt: new Date(next), updatedAt: now })
    .where(eq(missions.id, m.id));
}

/**
 * Pays the pending submission a verdict attests (reward − fee, every other one not_selected)
 * through the award path; caller's transaction holds the mission row lock. Returns the winner,
 * or undefined when the verdict names none of the mission's pending submissions.
 */
async function payAttested(ctx: TxCtx, { mission: m, verdict }: { mission: Mission; verdict: OracleVerdict }) {
  const winner = await attestedSubmission(ctx.tx, m, verdict);
  if (!winner) return undefined;
  await payOneWinner(ctx, { mission: m, winner, reason: "oracle_attested" });
  return winner;
}

/** The alternate oracle configured for a mission's oracle (AIP-4 §4): the first one not the same contract. */
function alternateOracle(deps: Deps, m: Mission): OracleRef | undefined {
  const own = verificationIf(m, "oracle")?.params.oracle_contract.toLowerCase();
  if (own === undefined) return undefined;
  return deps.config.aip34.alternateOracles.find((o) => o.address !== own);
}

/** An alternate oracle's reading of a mission, taken outside any transaction (AIP-4 §4 re-run). */
export type AlternateReading = { oracle: OracleRef; verdict: OracleVerdict };

/** Reads the alternate oracle (RPC, no transaction); undefined when none is configured. */
export async function readAlternateOracle(
  ctx: Pick<Ctx, "deps" | "now">,
  { mission: m }: { mission: Mission },
): Promise<AlternateReading | undefined> {
  const oracle = alternateOracle(ctx.deps, m);
  if (!oracle) return undefined;
  return { oracle, verdict: await prepareOracle(ctx, { mission: m, oracle }) };
}

/**
 * AIP-4 §4 "re-run verification with an alternate oracle": applies the alternate's reading to the
 * mission under its row lock (caller's transaction). A mission still waiting for its oracle is paid
 * to the submission the alternate attests, through the same award path as any oracle award; a
 * mission already decided keeps its outcome (no clawback, docs/decisions.md "No free work"), and
 * one still taking submissions is read by its oracle at the deadline as before — the reading is
 * recorded either way. Returns what was done, as data stored on the dispute.
 */
export async function applyAlternateReading(
  ctx: TxCtx,
  { missionId, reading }: { missionId: string; reading: AlternateReading },
): Promise<Record<string, unknown>> {
  const m = await lockMission(ctx.tx, missionId);
  const base = { oracle: reading.oracle.address, method: reading.oracle.method, verdict: reading.verdict.kind };
  if (!m) return { ...base, applied: false, detail: "mission not found" };
  if (m.status !== "escrowed" || m.phase !== "awaiting_oracle")
    return {
      ...base,
      applied: false,
      detail: `mission is ${m.status} (${m.phase}): ${m.status === "open" ? "its oracle decides at the deadline" : "its outcome stands (no clawback)"}`,
    };
  const winner = await payAttested(ctx, { mission: m, verdict: reading.verdict });
  if (!winner)
    return { ...base, applied: false, detail: "the alternate oracle attested no pending submission; polling goes on" };
  return { ...base, applied: true, awarded_submission_id: winner.id, awarded_to: winner.submitter };
}
