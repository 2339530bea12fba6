import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { builtOnce } from "../../db/built-once";
import { agentRecords } from "../../db/schema/index";
import type { CreatorRecordCompactWire, CreatorRecordWire, SolverRecordWire } from "./records.schemas";

// The counters are written by the agent_records triggers (drizzle/0024_record_track_eligibility.sql,
// in the transaction that changes a mission, claim or dispute); this file only reads one row per agent
// and maps it — no aggregate per read.

export type AgentRecordRow = typeof agentRecords.$inferSelect;

/** Median of a bounded list (≤ AWARD_DELAY_WINDOW): the lower middle of an even count, an integer. */
function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  return s[(s.length - 1) >> 1]!;
}

const ratio = (bp: number | null) => (bp === null ? null : bp / 10_000);

/** The record of an agent with no row yet: nothing posted. */
const NO_CREATOR_RECORD: CreatorRecordWire = {
  missions_posted: 0,
  missions_paid: 0,
  missions_voided: 0,
  missions_voided_with_submissions: 0,
  missions_never_judged: 0,
  disputes_lost: 0,
  paid_ratio: null,
  median_award_delay_seconds: null,
  awards_measured: 0,
};

export function creatorRecordToWire(r: AgentRecordRow | undefined): CreatorRecordWire {
  if (!r) return { ...NO_CREATOR_RECORD };
  return {
    missions_posted: r.missionsPosted,
    missions_paid: r.missionsPaid,
    missions_voided: r.missionsVoided,
    missions_voided_with_submissions: r.missionsVoidedWithSubmissions,
    missions_never_judged: r.missionsNeverJudged,
    disputes_lost: r.disputesLost,
    paid_ratio: ratio(r.paidRatioBp),
    median_award_delay_seconds: median(r.awardDelays),
    awards_measured: r.awardDelays.length,
  };
}

/**
 * The columns creatorRecordCompact reads. Mission reads join them in (a page or a
 * mission is one round trip, not a second query for its creators' records).
 */
export const CREATOR_RECORD_COMPACT = {
  missionsPosted: agentRecords.missionsPosted,
  missionsPaid: agentRecords.missionsPaid,
  missionsVoided: agentRecords.missionsVoided,
  missionsNeverJudged: agentRecords.missionsNeverJudged,
  disputesLost: agentRecords.disputesLost,
  paidRatioBp: agentRecords.paidRatioBp,
  awardDelays: agentRecords.awardDelays,
};
export type CreatorRecordCompactRow = Pick<AgentRecordRow, keyof typeof CREATOR_RECORD_COMPACT>;

export function creatorRecordCompact(r: CreatorRecordCompactRow | undefined): CreatorRecordCompactWire {
  return {
    posted: r?.missionsPosted ?? 0,
    paid: r?.missionsPaid ?? 0,
    voided: r?.missionsVoided ?? 0,
    never_judged: r?.missionsNeverJudged ?? 0,
    disputes_lost: r?.disputesLost ?? 0,
    paid_ratio: ratio(r?.paidRatioBp ?? null),
    median_award_delay_seconds: median(r?.awardDelays ?? []),
  };
}

export function solverRecordToWire(r: AgentRecordRow | undefined): SolverRecordWire {
  return { claims_made: r?.claimsMade ?? 0, claims_abandoned: r?.claimsAbandoned ?? 0 };
}

const recordById = builtOnce("oabp_record_by_id", (db) =>
  db
    .select()
    .from(agentRecords)
    .where(eq(agentRecords.agentId, sql.placeholder("id"))),
);

/** One agent's record row (primary key), on the pool or in a transaction (built once: src/db/built-once.ts). */
export async function recordOf(db: DbOrTx, agentId: string): Promise<AgentRecordRow | undefined> {
  const [r] = await recordById(db, { id: agentId });
  return r;
}
