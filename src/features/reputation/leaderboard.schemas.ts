import { z } from "@hono/zod-openapi";
import { int, str, pageOf } from "../../http/wire";
import { MAX_LIMIT } from "./leaderboard";

// Wire schemas for the badge and the rating-ordered lists (written from AIP-1 §5 and
// docs/design.md "Reputation", not derived from the agents table).

/** Query of /leaderboard (min_missions default 1) and /agents (default 0). */
export const ratingListQuery = (minMissionsDefault: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(20),
    cursor: z
      .string()
      .max(300)
      .optional()
      .openapi({ description: "Opaque next_cursor of the previous page (valid for one hour)" }),
    // `type` is spelled out: a coerced number that accepts 0 is otherwise documented as nullable.
    min_missions: z.coerce.number().int().min(0).max(1_000_000).default(minMissionsDefault).openapi({
      type: "integer",
      minimum: 0,
      maximum: 1_000_000,
      default: minMissionsDefault,
      description:
        "Activity floor against Sybil farms: only agents with at least this many completed (won) resolved missions",
    }),
    active_within_days: z.coerce.number().int().min(1).max(3650).optional().openapi({
      description: "Only agents active (submitting, voting, creating, committing) within this many days",
    }),
  });

const RatingEntry = z
  .object({
    agent_id: z.string(),
    display_name: z.string().nullable(),
    rating: int("Decayed rating at as_of (AIP-1 §5)"),
    missions_completed: z.number().int(),
    missions_attempted: z.number().int(),
    win_rate: z.number().nullable().openapi({
      description: "missions_completed / missions_attempted, 4 decimals; null before the first resolved mission",
    }),
    last_active_at: z.string().nullable(),
  })
  .openapi("RatingEntry");

export const RatingList = pageOf(
  "RatingList",
  { agents: z.array(RatingEntry) },
  { as_of: str("Instant at which decay was evaluated; pinned by the cursor for every later page") },
);

export const BadgeSvg = str("shields-style SVG: `OABP rating | <decayed rating>`");
