import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { missions, reviews, reviewStats } from "../../db/schema/index";
import { agentOf, type Ctx, dbOf } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { isId, newId } from "../../lib/ids";
import { assertVisible } from "../../db/mission-visibility";
import type { CreateReviewInput, ReviewWire, UpdateReviewInput } from "./reviews.schemas";
import { parseAgentId } from "../../lib/agent-id";
import { decodeIdCursor, keysetPage } from "../../lib/cursor";

type ReviewRow = typeof reviews.$inferSelect;

function reviewToWire(r: ReviewRow): ReviewWire {
  return {
    id: r.id,
    mission_id: r.missionId,
    reviewer: r.reviewer,
    reviewee: r.reviewee,
    reviewer_role: r.reviewerRole as ReviewWire["reviewer_role"],
    stars: r.stars,
    text: r.text,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/**
 * Count and mean stars of the reviews an agent received (GET /agents/{id}, GET
 * /agents/{id}/reviews; the discovery rating factor). `agentId` is a normalised address.
 */
export async function reviewSummary(db: DbOrTx, agentId: string): Promise<{ count: number; average: number | null }> {
  return (await reviewSummaries(db, [agentId])).get(agentId) ?? { count: 0, average: null };
}

/**
 * The same for many agents at once (ADP discovery), from the per-reviewee counters the
 * reviews_stats trigger keeps: one indexed row per agent, never an aggregate over reviews.
 * average = round(Σ stars / count, 2), exactly `round(avg(stars), 2)`.
 */
async function reviewSummaries(
  db: DbOrTx,
  agentIds: readonly string[],
): Promise<Map<string, { count: number; average: number | null }>> {
  const out = new Map<string, { count: number; average: number | null }>();
  if (agentIds.length === 0) return out;
  const rows = await db
    .select({
      id: reviewStats.reviewee,
      count: reviewStats.count,
      average: sql<number | null>`round(${reviewStats.starsSum}::numeric / nullif(${reviewStats.count}, 0), 2)::float8`,
    })
    .from(reviewStats)
    .where(inArray(reviewStats.reviewee, [...agentIds]));
  for (const r of rows) {
    const count = Number(r.count);
    out.set(r.id, { count, average: count === 0 || r.average == null ? null : Number(r.average) });
  }
  return out;
}

/** Who was paid by a resolved mission: every payout recipient, and the recorded winner. */
function winnersOf(m: { payouts: { agent_id: string }[] | null; winnerAgentId: string | null }): Set<string> {
  const out = new Set((m.payouts ?? []).map((p) => p.agent_id));
  if (m.winnerAgentId) out.add(m.winnerAgentId);
  return out;
}

/**
 * POST /agents/{id}/reviews. After resolution the creator may review each winner and each winner
 * the creator, once per (mission, reviewer, reviewee), never themselves. `resolved` is terminal,
 * so the party check needs no lock; the unique index decides concurrent duplicates.
 */
export async function createReview(
  ctx: Ctx,
  { agentId: rawSubject, review: input }: { agentId: string; review: CreateReviewInput },
): Promise<ReviewWire> {
  const { now } = ctx;
  const caller = agentOf(ctx);
  const reviewee = parseAgentId(rawSubject);
  if (caller === reviewee) throw new AppError("FORBIDDEN", "an agent may not review itself", { reason: "self_review" });
  if (!isId("mis", input.mission_id))
    throw new AppError("INVALID_PARAMETER", "mission_id is not a mission id", { field: "mission_id" });
  const db = dbOf(ctx);
  const [row0] = await db
    .select({
      creator: missions.creator,
      status: missions.status,
      hiddenAt: missions.hiddenAt,
      payouts: missions.payouts,
      winnerAgentId: missions.winnerAgentId,
    })
    .from(missions)
    .where(eq(missions.id, input.mission_id));
  const m = assertVisible(row0, input.mission_id, caller);
  if (m.status !== "resolved") {
    throw new AppError("CONFLICT", "reviews open once the mission is resolved", {
      reason: "mission_not_resolved",
      status: m.status,
    });
  }
  const winners = winnersOf(m);
  let role: "creator" | "winner";
  if (caller === m.creator && winners.has(reviewee)) role = "creator";
  else if (winners.has(caller) && reviewee === m.creator) role = "winner";
  else {
    const party = caller === m.creator || winners.has(caller);
    throw new AppError(
      "FORBIDDEN",
      party
        ? "the creator reviews winners and winners review the creator"
        : "only the mission's creator and its winners may review each other",
      { reason: party ? "not_counterparty" : "not_a_party" },
    );
  }

  const [row] = await db
    .insert(reviews)
    .values({
      id: newId("rev", now.getTime()),
      missionId: input.mission_id,
      reviewer: caller,
      reviewee,
      reviewerRole: role,
      stars: input.stars,
      text: input.text ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [reviews.missionId, reviews.reviewer, reviews.reviewee] })
    .returning();
  if (!row) {
    const [existing] = await db
      .select({ id: reviews.id })
      .from(reviews)
      .where(
        and(eq(reviews.missionId, input.mission_id), eq(reviews.reviewer, caller), eq(reviews.reviewee, reviewee)),
      );
    throw new AppError("CONFLICT", "you already reviewed this agent for this mission; edit it with PUT", {
      reason: "already_reviewed",
      review_id: existing?.id ?? null,
    });
  }
  return reviewToWire(row);
}

async function findReview(db: DbOrTx, reviewee: string, reviewId: string): Promise<ReviewRow | undefined> {
  if (!isId("rev", reviewId)) return undefined;
  const [row] = await db
    .select()
    .from(reviews)
    .where(and(eq(reviews.id, reviewId), eq(reviews.reviewee, reviewee)));
  return row;
}

/** A write matched nothing: say whether the review is missing (404) or someone else's (403). */
async function missedWrite(db: DbOrTx, reviewee: string, reviewId: string): Promise<never> {
  if (!(await findReview(db, reviewee, reviewId))) throw new AppError("NOT_FOUND", `review ${reviewId} not found`);
  throw new AppError("FORBIDDEN", "only the author may change or delete a review", { reason: "not_author" });
}

export async function getReview(
  ctx: Ctx,
  { agentId, reviewId }: { agentId: string; reviewId: string },
): Promise<ReviewWire> {
  const row = await findReview(dbOf(ctx), parseAgentId(agentId), reviewId);
  if (!row) throw new AppError("NOT_FOUND", `review ${reviewId} not found`);
  return reviewToWire(row);
}

/** PUT /agents/{id}/reviews/{review_id}: author only (the condition is in the UPDATE itself). */
export async function updateReview(
  ctx: Ctx,
  { agentId, reviewId, review: input }: { agentId: string; reviewId: string; review: UpdateReviewInput },
): Promise<ReviewWire> {
  const caller = agentOf(ctx);
  const reviewee = parseAgentId(agentId);
  const db = dbOf(ctx);
  const [row] = isId("rev", reviewId)
    ? await db
        .update(reviews)
        .set({
          ...(input.stars !== undefined && { stars: input.stars }),
          ...(input.text !== undefined && { text: input.text }),
          updatedAt: ctx.now,
        })
        .where(and(eq(reviews.id, reviewId), eq(reviews.reviewee, reviewee), eq(reviews.reviewer, caller)))
        .returning()
    : [];
  if (!row) return missedWrite(db, reviewee, reviewId);
  return reviewToWire(row);
}

/** DELETE /agents/{id}/reviews/{review_id}: author only; the pair may then be reviewed afresh. */
export async function deleteReview(
  ctx: Ctx,
  { agentId, reviewId }: { agentId: string; reviewId: string },
): Promise<void> {
  const caller = agentOf(ctx);
  const reviewee = parseAgentId(agentId);
  const db = dbOf(ctx);
  const gone = isId("rev", reviewId)
    ? await db
        .delete(reviews)
        .where(and(eq(reviews.id, reviewId), eq(reviews.reviewee, reviewee), eq(reviews.reviewer, caller)))
        .returning({ id: reviews.id })
    : [];
  if (gone.length === 0) await missedWrite(db, reviewee, reviewId);
}

/** GET /agents/{id}/reviews: newest first, keyset on the time-ordered id, with the summary. */
export async function listReviews(ctx: Ctx, q: { agentId: string; limit: number; cursor?: string | undefined }) {
  const reviewee = parseAgentId(q.agentId);
  const before = decodeIdCursor(q.cursor, "rev");
  const db = dbOf(ctx);
  const [rows, summary] = await Promise.all([
    db
      .select()
      .from(reviews)
      .where(and(eq(reviews.reviewee, reviewee), before ? lt(reviews.id, before) : undefined))
      .orderBy(desc(reviews.id))
      .limit(q.limit + 1),
    reviewSummary(db, reviewee),
  ]);
  const { page, next_cursor } = keysetPage(rows, q.limit);
  return {
    agent_id: reviewee,
    summary,
    reviews: page.map(reviewToWire),
    next_cursor,
  };
}
