import { and, desc, eq, inArray } from "drizzle-orm";
import { missionClaims, missions, submissions } from "../../db/schema/index";
import type { Deps } from "../../deps";

// Who keeps the parties' share of the connection slots (docs/events.md "Connection slots"): a
// signed-in agent with a stake in a live (open or escrowed) mission — its creator, one of its
// submitters (so its winners), or an agent holding an active claim on it. Addresses and fresh
// keys with no work in any mission are not parties, so they cannot buy the share.

/** The agent's latest submissions looked at: a party has one on a live mission among them. */
const RECENT_SUBMISSIONS = 100;
const LIVE = ["open", "escrowed"] as const;

/** Whether `agent` (lowercase address) is a party of some live mission: at most three index probes. */
export async function isLiveParty(deps: Deps, agent: string): Promise<boolean> {
  const { db } = deps.database;
  const created = await db
    .select({ id: missions.id })
    .from(missions)
    .where(and(eq(missions.creator, agent), inArray(missions.status, LIVE)))
    .limit(1);
  if (created.length > 0) return true;
  const claimed = await db
    .select({ id: missionClaims.id })
    .from(missionClaims)
    .where(and(eq(missionClaims.agentId, agent), eq(missionClaims.status, "active")))
    .limit(1);
  if (claimed.length > 0) return true;
  const recent = db
    .select({ missionId: submissions.missionId })
    .from(submissions)
    .where(eq(submissions.submitter, agent))
    .orderBy(desc(submissions.id))
    .limit(RECENT_SUBMISSIONS)
    .as("recent");
  const submitted = await db
    .select({ id: missions.id })
    .from(recent)
    .innerJoin(missions, eq(missions.id, recent.missionId))
    .where(inArray(missions.status, LIVE))
    .limit(1);
  return submitted.length > 0;
}
