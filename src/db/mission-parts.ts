import { and, asc, eq, type SQL } from "drizzle-orm";
import type { DbOrTx, Tx } from "./client";
import { missionAmendments, submissions } from "./schema/index";

// A mission's parts that several features read: its pending submissions (every verification step
// decides among them, settlement rejects the rest) and its top-ups (the amendments that fund it),
// one of them found by its own escrow slot key (the watcher and the custody checks read it).

/** A mission's pending submissions that also match `also`: the rows a decision is about. */
export function pendingOf(missionId: string, ...also: (SQL | undefined)[]): SQL | undefined {
  return and(eq(submissions.missionId, missionId), eq(submissions.status, "pending"), ...also);
}

/**
 * A mission's top-ups (its amendments of kind top_up) that also match `also` (a status, a rail),
 * in amendment order. Under the mission row lock when what is read decides a value.
 */
export function topUpsOf(tx: Tx, missionId: string, ...also: SQL[]) {
  return tx
    .select()
    .from(missionAmendments)
    .where(and(eq(missionAmendments.missionId, missionId), eq(missionAmendments.kind, "top_up"), ...also))
    .orderBy(asc(missionAmendments.seq));
}

/** The pending base-rail top-up amendment whose slot key this is. */
export async function topUpByKey(db: DbOrTx, key: string): Promise<typeof missionAmendments.$inferSelect | undefined> {
  const [a] = await db
    .select()
    .from(missionAmendments)
    .where(eq(missionAmendments.escrowKey, key.toLowerCase()))
    .limit(1);
  return a;
}
