import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { missions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { dbOf, type Ctx } from "../../lib/context";

/** How long the status page's counts may be stale: counting is a scan, never on a hot path. */
const COUNTS_TTL_MS = 60_000;
const memo = new WeakMap<Deps, { at: number; value: Promise<Record<string, number>> }>();

/** Missions per status for the status page, recomputed at most once a minute per instance. */
export function missionCountsByStatus(deps: Deps): Promise<Record<string, number>> {
  const now = deps.clock.now().getTime();
  const hit = memo.get(deps);
  if (hit && now - hit.at < COUNTS_TTL_MS) return hit.value;
  const value = deps.database.db
    .select({ status: missions.status, n: sql<number>`count(*)::int` })
    .from(missions)
    .groupBy(missions.status)
    .then((rows) => Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])));
  memo.set(deps, { at: now, value });
  value.catch(() => memo.delete(deps));
  return value;
}

/** A creator's own missions still waiting for their escrow deposit (never in public lists). */
export async function pendingMissionsOf(
  ctx: Ctx,
  { creator, limit = 20 }: { creator: string; limit?: number },
): Promise<{ id: string; title: string; created_at: string }[]> {
  const rows = await dbOf(ctx)
    .select({ id: missions.id, title: missions.title, createdAt: missions.createdAt })
    .from(missions)
    .where(and(eq(missions.creator, creator), eq(missions.status, "pending_escrow")))
    .orderBy(desc(missions.id))
    .limit(Math.min(limit, 50));
  return rows.map((r) => ({ id: r.id, title: r.title, created_at: r.createdAt.toISOString() }));
}

/** The board's summary: listed open missions and their total reward per asset (one grouped scan). */
export async function openRewardTotals(ctx: Ctx): Promise<{ asset: string; count: number; total: string }[]> {
  const rows = await dbOf(ctx)
    .select({
      asset: missions.rewardAsset,
      n: sql<number>`count(*)::int`,
      total: sql<string>`coalesce(sum(${missions.rewardAmount}), 0)::text`,
    })
    .from(missions)
    .where(and(eq(missions.status, "open"), isNull(missions.hiddenAt)))
    .groupBy(missions.rewardAsset)
    .orderBy(missions.rewardAsset);
  return rows.map((r) => ({ asset: r.asset, count: Number(r.n), total: String(r.total) }));
}
