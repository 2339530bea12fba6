import { sql } from "drizzle-orm";
import { chainWorkers } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { Ctx } from "../../lib/context";
import type { BaseChain, Heads } from "../../lib/base-chain";

// Chain reads shared by the watcher and the settlement worker of one process, and the workers'
// heartbeats (docs/base-rail.md "Liveness"). The heads are read at most once per poll interval
// (OABP_CHAIN_POLL_MS, on the injected clock): the idle RPC load is the watcher's ≤ 4 requests
// per poll, ≤ 1 request/s by default. This cache is an optimisation only — any process may read
// the chain anew — so it is no global state.

const headsCache = new WeakMap<BaseChain, { at: number; heads: Heads }>();

export const pollMsOf = (deps: Deps) => deps.config.baseRail?.pollMs ?? 4_000;

export async function chainHeads(deps: Deps, chain: BaseChain): Promise<Heads> {
  const now = deps.clock.now().getTime();
  const hit = headsCache.get(chain);
  if (hit && now - hit.at < pollMsOf(deps) && now >= hit.at) return hit.heads;
  const heads = await chain.heads();
  headsCache.set(chain, { at: now, heads });
  return heads;
}

/** True when this process polled the chain less than one interval ago (the caller skips its round). */
const lastRound = new WeakMap<BaseChain, number>();
export function pollDue(deps: Deps, chain: BaseChain): boolean {
  const now = deps.clock.now().getTime();
  const last = lastRound.get(chain);
  if (last !== undefined && now - last < pollMsOf(deps) && now >= last) return false;
  lastRound.set(chain, now);
  return true;
}

/** One row per (chain, worker): the last run, the last healthy run, the last error. */
export async function recordWorkerRun(
  { deps, now }: Pick<Ctx, "deps" | "now">,
  { run: r, name = "settlement" }: { run: { ok: true } | { ok: false; error: string }; name?: string },
): Promise<void> {
  const chainId = deps.chain?.chainId;
  if (chainId === undefined) return;
  const error = r.ok ? null : r.error.slice(0, 300);
  await deps.database.db
    .insert(chainWorkers)
    .values({ chainId, name, lastRunAt: now, lastOkAt: r.ok ? now : null, lastError: error })
    .onConflictDoUpdate({
      target: [chainWorkers.chainId, chainWorkers.name],
      set: { lastRunAt: now, lastError: error, ...(r.ok ? { lastOkAt: now } : {}) },
      // Several processes run the same worker: the latest run wins, an older one never rolls it back.
      setWhere: sql`${chainWorkers.lastRunAt} <= ${now.toISOString()}::timestamptz`,
    });
}
