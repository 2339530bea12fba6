import { sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { affectedOf } from "../db/rows";
import { purgeFullBuckets } from "../lib/token-bucket";

const KEEP_MS = 3_600_000;
const BATCH = 1000;

/**
 * Expired nonces and sessions are kept an hour (for support), then deleted in bounded batches —
 * one transaction, so a round cut off at shutdown leaves nothing of itself: with a statement's
 * messages already sent, an autocommit DELETE that was waiting on a lock would still commit after
 * the process is gone (docs/operations.md "Graceful shutdown").
 */
export async function purgeExpiredAuth(deps: Deps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - KEEP_MS);
  return deps.database.db.transaction(async (db) => {
    // Rate buckets full again carry nothing (src/lib/token-bucket.ts); 3600: the federation bucket's window.
    const r = deps.config.rateLimits;
    await purgeFullBuckets(
      db,
      deps.clock.now(),
      Math.max(3600, r?.writeIp.windowSeconds ?? 0, r?.writeAgent.windowSeconds ?? 0, r?.sessionIp.windowSeconds ?? 0),
    );
    const nonces = affectedOf(
      await db.execute(
        sql`delete from auth_nonces where nonce in (select nonce from auth_nonces where expires_at < ${before.toISOString()}::timestamptz limit ${BATCH})`,
      ),
    );
    const sessions = affectedOf(
      await db.execute(
        sql`delete from auth_sessions where token_hash in (select token_hash from auth_sessions where expires_at < ${before.toISOString()}::timestamptz limit ${BATCH})`,
      ),
    );
    return nonces + sessions;
  });
}
