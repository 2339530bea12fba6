import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { chainPayouts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";

// AIP-4 §8.2 gap 3: `treasury_health` in /.well-known/oabp.json and GET /treasury, and new
// submissions to base-rail missions paused while the resolver lacks the gas to pay them. The
// signal is shared by every instance: a payout the settlement worker parked in `pending_gas`
// (the resolver's balance is below what the next transaction costs — the configurable threshold
// is that cost, docs/base-rail.md). `not_applicable` without the base rail (the ledger rail pays
// no gas). One read of a partial index; the manifest keeps the answer for MANIFEST_TTL_MS.

export type TreasuryHealth = "ok" | "low_gas" | "not_applicable";

export async function treasuryHealth(deps: Deps, db: DbOrTx = deps.database.db): Promise<TreasuryHealth> {
  if (!deps.chain) return "not_applicable";
  const [parked] = await db
    .select({ id: chainPayouts.id })
    .from(chainPayouts)
    .where(and(eq(chainPayouts.state, "pending_gas")))
    .limit(1);
  return parked ? "low_gas" : "ok";
}

const MANIFEST_TTL_MS = 5_000;
const lastSeen = new WeakMap<Deps, { at: number; value: TreasuryHealth }>();

/** The manifest's copy: read again when older than MANIFEST_TTL_MS (the injected clock's). */
export async function refreshTreasuryHealth(deps: Deps): Promise<TreasuryHealth> {
  const now = deps.clock.now().getTime();
  const hit = lastSeen.get(deps);
  if (hit && now >= hit.at && now - hit.at < MANIFEST_TTL_MS) return hit.value;
  const value = await treasuryHealth(deps);
  lastSeen.set(deps, { at: now, value });
  return value;
}

/** The last value refreshTreasuryHealth read (before any: ok on the base rail). */
export const cachedTreasuryHealth = (deps: Deps): TreasuryHealth =>
  lastSeen.get(deps)?.value ?? (deps.chain ? "ok" : "not_applicable");

/** A submission to a base-rail mission while the resolver cannot pay gas: 503 treasury_low_gas. */
export async function assertTreasuryCanPay(
  deps: Deps,
  { rewardChain, db }: { rewardChain: string; db?: DbOrTx | undefined },
): Promise<void> {
  if (rewardChain !== "base") return;
  if ((await treasuryHealth(deps, db)) === "low_gas")
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "submissions to base-rail missions are paused: the resolver's gas balance cannot pay settlements (treasury_health low_gas)",
      { reason: "treasury_low_gas" },
    );
}
