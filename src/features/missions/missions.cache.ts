import { eq } from "drizzle-orm";
import type { Database, Db } from "../../db/client";
import { perDatabase } from "../../db/prepared";
import { readEpochs } from "../../db/schema/index";
import type { Ctx } from "../../lib/context";
import { type Freshness, ResponseCache } from "../../lib/response-cache";

/** Channel notified on commit by the trigger on `missions` (drizzle/0001_missions_notify.sql). */
export const MISSIONS_CHANGED = "oabp_missions_changed";

/** The `read_epochs` row bumped by every commit that changes a mission or a creator record. */
const MISSIONS_EPOCH = "missions";

/**
 * The mission-list cache of this instance. It is cleared on every committed change to missions
 * made by any instance (LISTEN), and whenever the LISTEN connection is (re)established, since
 * notifications sent while it was down are lost. The NOTIFY arrives after the commit, so on
 * Postgres every read also checks the missions epoch (listFreshness): exact, not eventual.
 */
export async function missionListCache(database: Database, maxBytes: number): Promise<ResponseCache> {
  const cache = new ResponseCache(maxBytes);
  if (cache.enabled)
    await database.listen(
      MISSIONS_CHANGED,
      () => cache.invalidate(),
      () => cache.invalidate(),
    );
  return cache;
}

/**
 * The missions epoch of one database handle, read so that every caller gets a value read by a
 * query SENT after it asked (so it includes every commit that preceded its request), while
 * concurrent callers share queries: one in flight at a time, and those who ask meanwhile share
 * the next one.
 */
const epochReader = perDatabase((db: Db) => {
  const q = db
    .select({ epoch: readEpochs.epoch })
    .from(readEpochs)
    .where(eq(readEpochs.name, MISSIONS_EPOCH))
    .prepare("oabp_missions_epoch");
  const run = async () => (await q.execute())[0]?.epoch ?? 0;
  let inflight: Promise<number> | undefined;
  let queued: Promise<number> | undefined;
  const start = (): Promise<number> => {
    const p = run().finally(() => {
      if (inflight === p) inflight = undefined;
    });
    inflight = p;
    return p;
  };
  return (): Promise<number> => {
    if (inflight === undefined) return start();
    if (queued === undefined) {
      const after = inflight;
      queued = after
        .catch(() => undefined)
        .then(() => {
          queued = undefined;
          return start();
        });
    }
    return queued;
  };
});

/**
 * How a cached mission list may be served to this reader: including the reader's write token
 * (OABP-Read-After) and, on Postgres, every mission commit before the request (the epoch, read
 * where the list's queries go — the replica or the primary).
 */
export function listFreshness(ctx: Ctx): Freshness | undefined {
  if (ctx.deps.database.kind !== "postgres" || ctx.tx) return ctx.read;
  const db = ctx.read?.db ?? ctx.deps.database.db;
  return { after: ctx.read?.after, stamp: ctx.read?.stamp, epoch: epochReader(db) };
}
