import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import { chainPayouts, missions } from "../../db/schema/index";
import { AppError } from "../../lib/errors";
import type { Ctx } from "../../lib/context";

// The server's signed payout decisions, public (docs/custody.md "Signed decisions"): one mission's,
// and the feed of all of them in decision order — what the guardian watch (src/guardian.ts) reads
// to tell a proposal the server decided from one it did not. Decisions carry no secret: the plan
// is on chain anyway once proposed or released.

type Decision = Record<string, unknown>;

export async function missionDecisions(ctx: Pick<Ctx, "deps">, input: { missionId: string }) {
  const db = ctx.deps.database.db;
  const [m] = await db.select({ id: missions.id }).from(missions).where(eq(missions.id, input.missionId));
  if (!m) throw new AppError("NOT_FOUND", `mission ${input.missionId} not found`);
  const rows = await db
    .select({ decision: chainPayouts.decision })
    .from(chainPayouts)
    .where(and(eq(chainPayouts.missionId, m.id), isNotNull(chainPayouts.decision)))
    .orderBy(asc(chainPayouts.id));
  return { mission_id: m.id, decisions: rows.map((r) => r.decision as Decision) };
}

/** Every decision after `cursor` (a payout id; ids are time-ordered), oldest first. */
export async function decisionFeed(ctx: Pick<Ctx, "deps">, input: { cursor?: string | undefined; limit: number }) {
  const rows = await ctx.deps.database.db
    .select({ id: chainPayouts.id, decision: chainPayouts.decision })
    .from(chainPayouts)
    .where(and(isNotNull(chainPayouts.decision), input.cursor ? gt(chainPayouts.id, input.cursor) : undefined))
    .orderBy(asc(chainPayouts.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    decisions: page.map((r) => r.decision as Decision),
    next_cursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}
