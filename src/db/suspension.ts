import { eq, sql } from "drizzle-orm";
import { fromRaised } from "./write-functions";
import type { DbOrTx } from "./client";
import { suspensions } from "./schema/index";

// The one check every verb that starts something new calls (docs/moderation.md "Suspension"):
// a suspended address may not create missions, submit, claim, commit, vote or dispute, but what
// it already has in motion still settles (payouts, refunds, default awards). One indexed read.

export interface SuspensionRow {
  address: string;
  reason: string;
  suspendedAt: Date;
  until: Date | null;
}

/** The suspension in force for `address` at `now`, or undefined (an expired one is not in force). */
export async function suspensionOf(db: DbOrTx, address: string, now: Date): Promise<SuspensionRow | undefined> {
  const [row] = await db.select().from(suspensions).where(eq(suspensions.address, address.toLowerCase()));
  if (!row || (row.until && row.until.getTime() <= now.getTime())) return undefined;
  return row;
}

/**
 * 403 FORBIDDEN with details.reason `suspended` when `address` is suspended at `now`. Call it
 * first thing in a verb that starts new activity (inside its transaction when there is one). The
 * check is the write functions' own (`oabp_assert_not_suspended`, drizzle/0042_writes_sql_functions.sql).
 */
export async function assertNotSuspended(db: DbOrTx, address: string, now: Date): Promise<void> {
  await db
    .execute(sql`select oabp_assert_not_suspended(${address}, ${now.toISOString()}::timestamptz)`)
    .catch((e: unknown) => {
      throw fromRaised(e);
    });
}
