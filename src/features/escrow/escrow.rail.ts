import type { Deps } from "../../deps";
import type { BaseChain } from "../../lib/base-chain";
import { AppError } from "../../lib/errors";
import { BaseRailMisconfigured, checkBaseRail, type RailProblem } from "./escrow.startup";

// The base rail's availability in this process (docs/base-rail.md "Degrade, never exit"). An
// unreachable RPC or a resolver without RESOLVER_ROLE never stops a process: the rail is marked
// unavailable with the reason (manifest payment_options.base, GET /treasury, GET /ready), new
// base missions are refused with 503 rail_unavailable, and the check runs again in the
// background — every poll interval while the rail is down, every RECHECK_MS while it is up — so
// the rail comes back by itself. Everything else (the ledger rail) keeps serving. The status is
// per process (each process reaches the RPC on its own), kept beside its chain port.

export interface RailStatus {
  available: boolean;
  /** rpc_unavailable | resolver_role_missing | misconfigured; null when available. */
  reason: RailProblem | null;
  detail: string | null;
  checked_at: string | null;
}

const RECHECK_MS = 60_000;
const statuses = new WeakMap<BaseChain, RailStatus & { at: number }>();

/** The last check's outcome; a rail never checked yet counts as available (start-up checked it). */
export function railStatus(deps: Deps): RailStatus | null {
  const chain = deps.chain;
  if (!chain) return null;
  const s = statuses.get(chain);
  if (!s) return { available: true, reason: null, detail: null, checked_at: null };
  const { at: _at, ...status } = s;
  return status;
}

/** Runs the start-up checks again when due (or now with `force`); returns the status. */
export async function refreshRail(deps: Deps, force = false): Promise<RailStatus | null> {
  const chain = deps.chain;
  if (!chain) return null;
  const now = deps.clock.now().getTime();
  const last = statuses.get(chain);
  const every = last?.available === false ? (deps.config.baseRail?.pollMs ?? 4_000) : RECHECK_MS;
  if (!force && last && now >= last.at && now - last.at < every) return railStatus(deps);
  let next: RailStatus;
  try {
    await checkBaseRail(chain, deps.config);
    next = { available: true, reason: null, detail: null, checked_at: new Date(now).toISOString() };
  } catch (err) {
    const kind = err instanceof BaseRailMisconfigured ? err.kind : "rpc_unavailable";
    const detail = err instanceof BaseRailMisconfigured ? err.problems.join("; ") : String(err);
    next = { available: false, reason: kind, detail: detail.slice(0, 500), checked_at: new Date(now).toISOString() };
  }
  if (last?.available !== next.available || last?.reason !== next.reason)
    (next.available ? deps.logger.info.bind(deps.logger) : deps.logger.warn.bind(deps.logger))(
      { reason: next.reason, detail: next.detail },
      next.available ? "base rail available" : "base rail unavailable; ledger rail unaffected, checked again",
    );
  statuses.set(chain, { ...next, at: now });
  return next;
}

/** Marks the role missing at once (a payout's estimate reverted AccessControlUnauthorizedAccount). */
export function markRoleMissing(deps: Deps, detail: string): void {
  if (!deps.chain) return;
  statuses.set(deps.chain, {
    available: false,
    reason: "resolver_role_missing",
    detail,
    checked_at: deps.clock.now().toISOString(),
    at: deps.clock.now().getTime(),
  });
}

/** Base mission creation and funding: 503 rail_unavailable with the reason while the rail is down. */
export function assertRailAvailable(deps: Deps): void {
  const s = railStatus(deps);
  if (s && !s.available)
    throw new AppError("SERVICE_UNAVAILABLE", `the base rail is unavailable on this server (${s.reason})`, {
      reason: "rail_unavailable",
      rail_reason: s.reason,
      detail: s.detail,
    });
}
