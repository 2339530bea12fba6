import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import { chainPayouts, escrowDeposits, missions, submissions, webhookDeliveries } from "../../db/schema/index";
import type { Ctx } from "../../lib/context";
import { PromText, processMetrics } from "../../lib/metrics";
import { renderEscrowMetrics } from "../escrow";

// GET /metrics: this process's request, RPC and job metrics (src/lib/metrics.ts)
// plus gauges read from the database at scrape time. The database gauges are GLOBAL — the same
// on every instance of a fleet (aggregate them with max(), not sum()) — while the process metrics
// are per instance. Every query is bounded: counts stop at DEPTH_CAP (a gauge at the cap reads
// "at least"), lags are a min() over a partial index.

const DEPTH_CAP = 100_000;

/** Rows waiting in each queue (bounded count over the queue's partial index). */
const QUEUES = {
  checks: { table: submissions, where: isNotNull(submissions.nextCheckAt) },
  webhook_deliveries: { table: webhookDeliveries, where: eq(webhookDeliveries.status, "pending") },
  payouts: { table: chainPayouts, where: isNotNull(chainPayouts.nextCheckAt) },
  deposits: { table: escrowDeposits, where: isNotNull(escrowDeposits.nextCheckAt) },
} as const;

/** Each job kind's due time and the rows it has work in (min() over the job's partial index). */
const JOB_DUE = {
  verification_checks: { table: submissions, at: submissions.nextCheckAt, where: isNotNull(submissions.nextCheckAt) },
  webhook_deliveries: {
    table: webhookDeliveries,
    at: webhookDeliveries.nextAttemptAt,
    where: eq(webhookDeliveries.status, "pending"),
  },
  settlement: { table: chainPayouts, at: chainPayouts.nextCheckAt, where: isNotNull(chainPayouts.nextCheckAt) },
  sweep_due_missions: { table: missions, at: missions.nextActionAt, where: isNotNull(missions.nextActionAt) },
} as const;

export async function scrapeMetrics(ctx: Ctx): Promise<string> {
  const db = ctx.deps.database.db;
  const now = ctx.now;
  const nowIso = now.toISOString();
  const out = new PromText();
  processMetrics.render(out);

  const depths = await Promise.all(
    Object.entries(QUEUES).map(async ([queue, q]) => {
      const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(
        db
          .select({ one: sql`1` })
          .from(q.table)
          .where(q.where)
          .limit(DEPTH_CAP)
          .as("q"),
      );
      return [queue, r?.n ?? 0] as const;
    }),
  );
  out.family("oabp_queue_depth", "gauge", `Rows waiting per queue, capped at ${DEPTH_CAP} (global: the database)`);
  for (const [queue, n] of depths) out.sample("oabp_queue_depth", { queue }, n);

  // Job lag: how late the oldest due item of each job kind is (0 when nothing is overdue).
  const lagRows = await Promise.all(
    Object.entries(JOB_DUE).map(async ([job, d]) => {
      const [r] = await db
        .select({ at: sql<string | Date | null>`min(${d.at})` })
        .from(d.table)
        .where(and(d.where, lte(d.at, now)));
      return [job, r?.at] as const;
    }),
  );
  out.family(
    "oabp_job_lag_seconds",
    "gauge",
    "Age of the oldest overdue item per job kind, by the server clock (global: the database)",
  );
  for (const [job, at] of lagRows) {
    const t = at ? new Date(at).getTime() : null;
    out.sample("oabp_job_lag_seconds", { job }, t === null ? 0 : Math.max(0, (now.getTime() - t) / 1000));
  }

  // Resolver gas: wei paid for mined payout transactions (gasUsed × effectiveGasPrice).
  const gas = await db
    .select({
      chainId: chainPayouts.chainId,
      kind: chainPayouts.kind,
      wei: sql<string>`coalesce(sum(${chainPayouts.gasSpentWei}), 0)::text`,
      n: sql<number>`count(${chainPayouts.gasSpentWei})::int`,
    })
    .from(chainPayouts)
    .where(isNotNull(chainPayouts.gasSpentWei))
    .groupBy(chainPayouts.chainId, chainPayouts.kind);
  out.family(
    "oabp_resolver_gas_spent_wei",
    "counter",
    "Wei the resolver paid for mined payouts (global: the database)",
  );
  for (const g of gas)
    out.sample("oabp_resolver_gas_spent_wei", { chain_id: String(g.chainId), kind: g.kind }, BigInt(g.wei));
  out.family("oabp_resolver_payouts_mined", "gauge", "Payouts with a mined transaction (global: the database)");
  for (const g of gas) out.sample("oabp_resolver_payouts_mined", { chain_id: String(g.chainId), kind: g.kind }, g.n);

  await renderEscrowMetrics(ctx, out);

  out.family("oabp_scrape_timestamp_seconds", "gauge", "Server clock at this scrape");
  out.sample("oabp_scrape_timestamp_seconds", {}, Date.parse(nowIso) / 1000);
  return out.toString();
}
