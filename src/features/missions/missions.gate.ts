import { eq } from "drizzle-orm";
import { agents, postingAllowlist } from "../../db/schema/index";
import { dbOf, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { effectiveRating, START_RATING } from "../reputation";

/**
 * The operator's optional posting gate (OABP_POSTING_GATE; docs/moderation.md "Posting gate"),
 * checked by createMission, so REST, MCP and the web form enforce the same rule: `allow_list`
 * admits the addresses on /admin/posting-allowlist, `min_rating` a creator whose effective
 * (decayed) rating reaches OABP_POSTING_MIN_RATING. 403 FORBIDDEN, details.reason says which.
 */
export async function checkPostingGate(ctx: Ctx, creator: string): Promise<void> {
  const { postingGate, postingMinRating } = ctx.deps.config;
  if (postingGate === "off") return;
  const db = dbOf(ctx);
  if (postingGate === "allow_list") {
    const [row] = await db
      .select({ address: postingAllowlist.address })
      .from(postingAllowlist)
      .where(eq(postingAllowlist.address, creator));
    if (!row)
      throw new AppError("FORBIDDEN", "this server only accepts missions from addresses on its posting allow-list", {
        reason: "posting_not_allowed",
        gate: "allow_list",
      });
    return;
  }
  const [row] = await db
    .select({ rating: agents.rating, lastActiveAt: agents.lastActiveAt, decayWeeksApplied: agents.decayWeeksApplied })
    .from(agents)
    .where(eq(agents.id, creator));
  const rating = row ? effectiveRating(ctx, row) : START_RATING;
  if (rating < postingMinRating)
    throw new AppError(
      "FORBIDDEN",
      `posting a mission needs a rating of at least ${postingMinRating}; yours is ${rating}`,
      { reason: "posting_rating_too_low", gate: "min_rating", min_rating: postingMinRating, rating },
    );
}
