import { and, eq, isNotNull, sql } from "drizzle-orm";
import { publicMissions } from "../../db/mission-visibility";
import { agents, missions, submissions } from "../../db/schema/index";
import { PUBLIC_STATUSES } from "../../db/vocabulary";
import type { Ctx } from "../../lib/context";

// GET /stats: public counters for directories — missions by status, volume paid
// per asset, agents. Whole-table aggregates, so never on a hot path: one reading per instance per
// STATS_TTL_MS (on the injected clock) and the same max-age for shared caches in front.

export const STATS_TTL_MS = 60_000;
const caches = new WeakMap<object, { at: number; doc: Stats }>();

export type Stats = Awaited<ReturnType<typeof read>>;

export async function publicStats(ctx: Ctx): Promise<Stats> {
  const key = ctx.deps.database;
  const t = ctx.now.getTime();
  const hit = caches.get(key);
  if (hit && t >= hit.at && t - hit.at < STATS_TTL_MS) return hit.doc;
  const doc = await read(ctx);
  caches.set(key, { at: t, doc });
  return doc;
}

async function read(ctx: Ctx) {
  const db = ctx.deps.database.db;
  const [byStatus, paid, [agentCount]] = await Promise.all([
    db
      .select({ status: missions.status, n: sql<number>`count(*)::int` })
      .from(missions)
      .where(publicMissions)
      .groupBy(missions.status),
    db
      .select({
        asset: missions.rewardAsset,
        amount: sql<string>`coalesce(sum(${submissions.payoutAmount}), 0)::text`,
        payouts: sql<number>`count(*)::int`,
        missions: sql<number>`count(distinct ${submissions.missionId})::int`,
      })
      .from(submissions)
      .innerJoin(missions, eq(missions.id, submissions.missionId))
      .where(and(eq(submissions.status, "accepted"), isNotNull(submissions.payoutAmount), publicMissions))
      .groupBy(missions.rewardAsset),
    db.select({ n: sql<number>`count(*)::int` }).from(agents),
  ]);
  const counts = new Map(byStatus.map((r) => [r.status, r.n]));
  const byAsset = new Map(paid.map((p) => [p.asset, p]));
  const assets = [...new Set([...ctx.deps.config.assets.map((a) => a.symbol), ...byAsset.keys()])];
  return {
    as_of: ctx.now.toISOString(),
    missions: {
      total: PUBLIC_STATUSES.reduce((s, st) => s + (counts.get(st) ?? 0), 0),
      by_status: Object.fromEntries(PUBLIC_STATUSES.map((st) => [st, counts.get(st) ?? 0])) as Record<
        (typeof PUBLIC_STATUSES)[number],
        number
      >,
    },
    volume_paid: assets.map((asset) => ({
      asset,
      amount: byAsset.get(asset)?.amount ?? "0",
      payouts: byAsset.get(asset)?.payouts ?? 0,
      missions: byAsset.get(asset)?.missions ?? 0,
    })),
    agents: agentCount?.n ?? 0,
    transparency: "/transparency",
  };
}
