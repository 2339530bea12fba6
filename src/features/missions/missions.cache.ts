import type { Database } from "../../db/client";
import { ResponseCache } from "../../lib/response-cache";

/** Channel notified on commit by the trigger on `missions` (drizzle/0001_missions_notify.sql). */
export const MISSIONS_CHANGED = "oabp_missions_changed";

/**
 * The mission-list cache of this instance. It is cleared on every committed change to missions
 * made by any instance (LISTEN), and whenever the LISTEN connection is (re)established, since
 * notifications sent while it was down are lost.
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
