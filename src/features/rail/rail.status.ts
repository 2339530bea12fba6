import type { Deps } from "../../deps";
import type { BaseChain } from "../../lib/base-chain";
import { AppError } from "../../lib/errors";
import { BaseRailMisconfigured, checkBaseRail, type RailProblem } from "./rail.startup";

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
  if (!force && last && !dueAgain(deps, last, now)) return railStatus(deps);
  const next = await checkNow(deps, chain, new Date(now).toISOString());
  if (last?.available !== next.available || last?.reason !== next.reason) logChange(deps, next);
  statuses.set(chain, { ...next, at: now });
  return next;
}

function logChange(deps: Deps, next: RailStatus): void {
  const fields = { reason: next.reason, detail: next.detail };
  if (next.available) deps.logger.info(fields, "base rail available");
  else deps.logger.warn(fields, "base rail unavailable; ledger rail unaffected, checked again");
}

/** Checked again every poll interval while the rail is down, every RECHECK_MS while it is up. */
function dueAgain(deps: Deps, last: RailStatus & { at: number }, now: number): boolean {
  const every = last.available ? RECHECK_MS : (deps.config.baseRail?.pollMs ?? 4_000);
  return now < last.at || now - last.at >= every;
}

async function checkNow(deps: Deps, chain: BaseChain, checkedAt: string): Promise<RailStatus> {
  try {
    await checkBaseRail(chain, deps.config);
    return { available: true, reason: null, detail: null, checked_at: checkedAt };
  } catch (err) {
    const misconfigured = err instanceof BaseRailMisconfigured ? err : null;
    return {
      available: false,
      reason: misconfigured?.kind ?? "rpc_unavailable",
      detail: (misconfigured?.problems.join("; ") ?? String(err)).slice(0, 500),
      checked_at: checkedAt,
    };
  }
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
