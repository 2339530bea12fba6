import type { Ctx } from "../../lib/context";

// AIP-1 §5 decay, a pure function of the stored rating, the last activity and the clock:
// −2 points per FULL week of inactivity beyond a 7-day grace period; decay never takes a rating
// below 1000 (a rating already below 1000 through losses is not decayed further).
// Example: 49 days idle = 7 days grace + 6 full weeks → −12 (1500 → 1488).
export const DECAY_POINTS_PER_WEEK = 2;
export const DECAY_GRACE_MS = 7 * 86_400_000;
export const WEEK_MS = 7 * 86_400_000;
export const DECAY_FLOOR = 1000;

/** Full decay weeks owed since the last activity at `now`. */
export function decayWeeks({ now }: Pick<Ctx, "now">, lastActiveAt: Date | null): number {
  if (!lastActiveAt) return 0;
  const idle = now.getTime() - lastActiveAt.getTime() - DECAY_GRACE_MS;
  return idle <= 0 ? 0 : Math.floor(idle / WEEK_MS);
}

export interface DecayState {
  rating: number; // stored rating (includes decay already written to history)
  lastActiveAt: Date | null;
  decayWeeksApplied: number; // weeks since lastActiveAt already written
}

/** The rating a reader sees at `now`: the stored rating minus the decay not yet written. */
export function effectiveRating(ctx: Pick<Ctx, "now">, s: DecayState): number {
  const pending = Math.max(0, decayWeeks(ctx, s.lastActiveAt) - s.decayWeeksApplied);
  if (pending === 0) return s.rating;
  const floor = Math.min(s.rating, DECAY_FLOOR);
  return Math.max(floor, s.rating - DECAY_POINTS_PER_WEEK * pending);
}
