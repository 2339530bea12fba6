import { like, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { perDatabase } from "../../db/prepared";
import { readEpochs } from "../../db/schema/index";
import type { Ctx } from "../../lib/context";
import type { Freshness } from "../../lib/response-cache";

/**
 * The `read_epochs` slot rows ('missions/0' …): every commit that changes a mission or a creator
 * record bumps one of them, and the missions epoch is their sum (docs/decisions/storage.md "Commits
 * without NOTIFY").
 */
const MISSIONS_EPOCH = "missions%";

/**
 * The missions epoch of one database handle, read so that every caller gets a value read by a
 * query SENT after it asked (so it includes every commit that preceded its request), while
 * concurrent callers share queries: one in flight at a time, and those who ask meanwhile share
 * the next one.
 */
const epochReader = perDatabase((db: Db) => {
  const q = db
    .select({ epoch: sql`coalesce(sum(${readEpochs.epoch}), 0)`.mapWith(Number) })
    .from(readEpochs)
    .where(like(readEpochs.name, MISSIONS_EPOCH))
    .prepare("oabp_missions_epoch_sum");
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
 * (OABP-Read-After) and every mission commit before the request (the epoch, read where the
 * list's queries go — the replica or the primary).
 */
export function listFreshness(ctx: Ctx): Freshness | undefined {
  if (ctx.tx) return ctx.read;
  const db = ctx.read?.db ?? ctx.deps.database.db;
  return { after: ctx.read?.after, stamp: ctx.read?.stamp, epoch: epochReader(db) };
}
