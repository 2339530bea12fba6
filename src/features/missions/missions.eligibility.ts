import { eq } from "drizzle-orm";
import { agents } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import { effectiveRating, START_RATING } from "../reputation";
import type { MissionRow } from "../../db/rows";

/**
 * AIP-2 §4.1: the ELO gate the mission shows (min_submitter_elo) is the one enforced here, on the
 * decayed rating a reader sees now. Not a value move: read outside the submission transaction.
 */
export async function checkEligibility(
  deps: Deps,
  mission: Pick<MissionRow, "minSubmitterElo">,
  submitter: string,
  now: Date,
): Promise<void> {
  if (mission.minSubmitterElo <= 0) return;
  const [row] = await deps.database.db
    .select({ rating: agents.rating, lastActiveAt: agents.lastActiveAt, decayWeeksApplied: agents.decayWeeksApplied })
    .from(agents)
    .where(eq(agents.id, submitter));
  const rating = row ? effectiveRating(row, now) : START_RATING;
  if (rating < mission.minSubmitterElo) {
    throw new AppError(
      "FORBIDDEN",
      `this mission needs an ELO rating of at least ${mission.minSubmitterElo}; yours is ${rating} (AIP-2 §4.1)`,
      { reason: "below_min_submitter_elo", min_submitter_elo: mission.minSubmitterElo, rating },
    );
  }
}
