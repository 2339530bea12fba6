import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { custodyAlerts } from "../../db/schema/index";
import type { Deps } from "../../deps";

// Reads of the custody alerts (docs/custody.md): GET /transparency lists the open ones, GET
// /metrics counts them all (oabp_custody_alerts_total) and the open ones (oabp_custody_alerts_open).

/** At most this many open alerts are listed (oldest first); the metrics count them all. */
const LISTED = 100;

export async function openCustodyAlerts(deps: Deps, chainId: number) {
  const rows = await deps.database.db
    .select()
    .from(custodyAlerts)
    .where(and(eq(custodyAlerts.chainId, chainId), isNull(custodyAlerts.resolvedAt)))
    .orderBy(asc(custodyAlerts.createdAt), asc(custodyAlerts.id))
    .limit(LISTED);
  return rows.map((a) => ({
    id: a.id,
    kind: a.kind,
    contract: a.contract,
    mission_id: a.missionId,
    mission_key: a.missionKey,
    funder: a.funder,
    payout_id: a.payoutId,
    tx_hash: a.txHash,
    detail: a.detail,
    created_at: a.createdAt.toISOString(),
  }));
}

/** Per kind: every alert ever raised, and the open ones. */
export function custodyAlertCounts(deps: Deps) {
  return deps.database.db
    .select({
      kind: custodyAlerts.kind,
      total: sql<number>`count(*)::int`,
      open: sql<number>`(count(*) filter (where ${custodyAlerts.resolvedAt} is null))::int`,
    })
    .from(custodyAlerts)
    .groupBy(custodyAlerts.kind);
}
