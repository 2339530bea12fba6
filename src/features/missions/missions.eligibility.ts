import { and, eq, gt, sql } from "drizzle-orm";
import { adpCards, agentBlocklist, agents, missions, registryBindings } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import type { Reason } from "../../lib/error-reasons";
import { effectiveRating, START_RATING } from "../reputation";
import { MISSION_COLUMNS, type MissionRow } from "../../db/rows";
import { builtOnce } from "../../db/built-once";
import { isId } from "../../lib/ids";

/** What eligibility reads of a mission: its gates, and whether its creator's standing block-list names the actor. */
export type EligibilityGate = Pick<
  MissionRow,
  "creator" | "minSubmitterElo" | "minCompleted" | "audience" | "allowList" | "blockList"
> & { creatorBlocks: boolean };

// The mission and the creator's standing block of the actor (agent_blocklist) in one read, built once.
const missionForActor = builtOnce("oabp_mission_for_actor", (db) =>
  db
    .select({
      ...MISSION_COLUMNS,
      creatorBlocks: sql<boolean>`exists(select 1 from ${agentBlocklist} where ${agentBlocklist.owner} = ${missions.creator} and ${agentBlocklist.blocked} = ${sql.placeholder("actor")})`,
    })
    .from(missions)
    .where(eq(missions.id, sql.placeholder("id"))),
);

/**
 * The mission by id as an actor about to claim, commit or submit reads it (one round trip: the
 * row and `creatorBlocks` for checkEligibility), through the transaction if any; undefined when
 * there is no such mission. Visibility is the caller's (assertVisible).
 */
export async function findMissionForActor(
  ctx: Pick<Ctx, "deps" | "tx" | "read">,
  { id, actor }: { id: string; actor: string },
): Promise<(MissionRow & { creatorBlocks: boolean }) | undefined> {
  if (!isId("mis", id)) return undefined;
  const [row] = await missionForActor(ctx.tx ?? ctx.read?.db ?? ctx.deps.database.db, { id, actor });
  return row;
}

/** Stable `details.reason` values of a refusal (FORBIDDEN), in the order they are checked. */
/** Stable `details.reason` values of a refusal (FORBIDDEN); the routes that check eligibility declare them. */
export const ELIGIBILITY_REFUSALS = [
  "agents_only",
  "below_min_completed",
  "below_min_submitter_elo",
  "blocked",
  "not_on_allow_list",
] as const satisfies Reason<"FORBIDDEN">[];
type EligibilityReason = (typeof ELIGIBILITY_REFUSALS)[number];

const refuse = (reason: EligibilityReason, message: string, extra: Record<string, unknown> = {}) =>
  new AppError("FORBIDDEN", message, { reason, ...extra });

/**
 * §4.1: may `actor` claim, commit to or submit to this mission? The same
 * check at claim (claims.service.ts), commitment (commit-reveal.ts) and submission
 * (submissions.prepare.ts), so REST and MCP agree, on the mission as findMissionForActor read it.
 * Reads only (no value moves): outside the transaction. Ratings are the decayed ones a reader sees now.
 */
export async function checkEligibility(
  { deps, now }: Pick<Ctx, "deps" | "now">,
  { mission, actor }: { mission: EligibilityGate; actor: string },
): Promise<void> {
  const db = deps.database.db;
  if (mission.blockList.includes(actor)) throw refuse("blocked", "the creator does not accept work from this address");
  if (mission.allowList !== null && !mission.allowList.includes(actor))
    throw refuse("not_on_allow_list", "this mission is invite-only and this address is not on its allow-list");
  if (mission.creatorBlocks) throw refuse("blocked", "the creator does not accept work from this address");
  const [isAgent, row] = await Promise.all([
    mission.audience === "agents" ? registeredAgent(deps, actor, now) : Promise.resolve(true),
    mission.minSubmitterElo > 0 || mission.minCompleted > 0
      ? db
          .select({
            rating: agents.rating,
            lastActiveAt: agents.lastActiveAt,
            decayWeeksApplied: agents.decayWeeksApplied,
            missionsCompleted: agents.missionsCompleted,
          })
          .from(agents)
          .where(eq(agents.id, actor))
          .then((r) => r[0])
      : Promise.resolve(undefined),
  ]);
  if (!isAgent)
    throw refuse(
      "agents_only",
      "this mission is for registered agents: a live registry attestation (POST /attestations/registry) or an ADP agent card (POST /adp/adp.advertise)",
    );
  assertTrackRecord(mission, row, now);
}

/** The mission's floors on the actor's record: its ELO rating (decayed as a reader sees it now) and missions won. */
function assertTrackRecord(
  mission: EligibilityGate,
  row: (Parameters<typeof effectiveRating>[1] & { missionsCompleted: number }) | undefined,
  now: Date,
): void {
  if (mission.minSubmitterElo > 0) {
    const rating = row ? effectiveRating({ now }, row) : START_RATING;
    if (rating < mission.minSubmitterElo)
      throw refuse(
        "below_min_submitter_elo",
        `this mission needs an ELO rating of at least ${mission.minSubmitterElo}; yours is ${rating} (AIP-2 §4.1)`,
        { min_submitter_elo: mission.minSubmitterElo, rating },
      );
  }
  if (mission.minCompleted > 0) {
    const completed = row?.missionsCompleted ?? 0;
    if (completed < mission.minCompleted)
      throw refuse(
        "below_min_completed",
        `this mission needs at least ${mission.minCompleted} missions won; yours: ${completed}`,
        { min_completed: mission.minCompleted, completed },
      );
  }
}

/**
 * audience "agents" (docs/decisions.md "Eligibility"): an address that an agent registry vouches
 * for now (AIP-1 §1.4 binding not expired) or that advertised an ADP agent card here (not revoked).
 */
async function registeredAgent(deps: Deps, actor: string, now: Date): Promise<boolean> {
  const db = deps.database.db;
  const [attested, card] = await Promise.all([
    db
      .select({ a: registryBindings.agentId })
      .from(registryBindings)
      .where(and(eq(registryBindings.agentId, actor), gt(registryBindings.expiresAt, now)))
      .limit(1),
    db
      .select({ a: adpCards.agentId })
      .from(adpCards)
      .where(and(eq(adpCards.agentId, actor), eq(adpCards.revoked, false))),
  ]);
  return attested.length > 0 || card.length > 0;
}
