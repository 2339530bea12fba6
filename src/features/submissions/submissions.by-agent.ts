import { and, desc, eq } from "drizzle-orm";
import { publicMissions } from "../../db/mission-visibility";
import { missions, submissions } from "../../db/schema/index";
import { dbOf, type Ctx } from "../../lib/context";

/** Hard cap of one page of an agent's submissions (the index submissions_submitter_idx serves it). */
const BY_AGENT_MAX = 50;

export interface AgentSubmissionRow {
  submission_id: string;
  mission_id: string;
  mission_title: string;
  mission_status: string;
  status: string;
  reason: string;
  submitted_at: string;
}

/**
 * An agent's latest submissions with their missions' titles, newest first (web board: "my
 * submissions", an agent's solved missions). Missions still pending escrow are never listed,
 * and only `accepted` ones when `acceptedOnly` (the public "solved" list).
 * Seam; the flat /submissions routes of AIP-3 may replace it.
 */
export async function submissionsByAgent(
  ctx: Ctx,
  { agentId, ...o }: { agentId: string; limit: number; acceptedOnly?: boolean },
): Promise<AgentSubmissionRow[]> {
  const rows = await dbOf(ctx)
    .select({
      id: submissions.id,
      missionId: submissions.missionId,
      status: submissions.status,
      reason: submissions.reason,
      createdAt: submissions.submittedAt,
      title: missions.title,
      missionStatus: missions.status,
    })
    .from(submissions)
    .innerJoin(missions, eq(missions.id, submissions.missionId))
    .where(
      and(
        eq(submissions.submitter, agentId),
        publicMissions,
        o.acceptedOnly ? eq(submissions.status, "accepted") : undefined,
      ),
    )
    .orderBy(desc(submissions.id))
    .limit(Math.min(o.limit, BY_AGENT_MAX));
  return rows.map((r) => ({
    submission_id: r.id,
    mission_id: r.missionId,
    mission_title: r.title,
    mission_status: r.missionStatus,
    status: r.status,
    reason: r.reason,
    submitted_at: r.createdAt.toISOString(),
  }));
}
