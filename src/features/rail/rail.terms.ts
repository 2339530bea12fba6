import type { EscrowRecord } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { AssetConfig, BaseRailConfig } from "../../env";
import { AppError } from "../../lib/errors";
import { assertRailAvailable } from "./rail.status";
import { missionKey } from "../../lib/evm";
import { judgingWindowOf, type Verification } from "../../db/verification";

// What a base-rail mission's creator must escrow, fixed at creation (docs/design.md "Escrow and
// settlement"): the contract, the chain, the token and the mission key keccak256(bytes(id)).

/**
 * The most recipients one MissionEscrow.release pays (the contract's MAX_RECIPIENTS). The server
 * refuses more winners than that on the base rail — at creation (max_winners), at award, and in
 * the default award (split among at most this many) — so every resolution is payable in one
 * release (docs/base-rail.md "Winners fit the contract").
 */
export const ESCROW_MAX_RECIPIENTS = 64;

/**
 * The MissionEscrow version of the contract holding a slot (`address` null: the configured one),
 * from configuration: a retired v2 contract pays with v2's instant release, a v3 one through its
 * two release paths (docs/base-rail.md "Migrating to a new escrow").
 */
export function escrowVersionOf(
  rail: Pick<BaseRailConfig, "escrow" | "escrowVersion" | "retired"> | null,
  address: string | null,
): "2" | "3" | "4" {
  if (!rail) return "4";
  const a = (address ?? rail.escrow).toLowerCase();
  if (a === rail.escrow) return rail.escrowVersion;
  return rail.retired.find((r) => r.address === a)?.version ?? rail.escrowVersion;
}

/** The most winners a mission on this rail may have. */
export const maxWinnersOnRail = (rail: string, otherwise: number) =>
  rail === "base" ? Math.min(ESCROW_MAX_RECIPIENTS, otherwise) : otherwise;

/** The base rail's chain and the asset's token on it; 422 when the rail is off or the asset has no token there. */
export function baseRailTerms(deps: Deps, asset: AssetConfig): { chainId: number; contract: string; token: string } {
  const chain = deps.chain;
  if (!chain) {
    throw new AppError("UNPROCESSABLE", "settlement rail base is not enabled on this server", {
      field: "reward.chain",
      reason: "rail_not_enabled",
      off_reason: deps.config.baseRailOff,
    });
  }
  assertRailAvailable(deps); // 503 rail_unavailable while the RPC is out or the role missing
  const token = asset.addresses.base?.toLowerCase();
  if (!token) {
    throw new AppError("UNPROCESSABLE", `asset ${asset.symbol} has no token address on chain ${chain.chainId}`, {
      field: "reward.asset",
      reason: "asset_not_on_chain",
    });
  }
  return { chainId: chain.chainId, contract: chain.escrow, token };
}

/** After the last moment a payout can be decided, the funder's own exit waits this long more. */
export const REFUND_GRACE_SECONDS = 7 * 86_400;

/**
 * The refund-after time a deposit must carry (contract v2, docs/base-rail.md "Trust model"): the
 * deadline (or a peer vote's voting deadline), the judging or oracle window (creator_judges: the
 * mission's own judging_window_seconds), an appeal's window and its vote (each
 * appeal_window_seconds long, verification/appeal.ts), then a grace period. Before it only the
 * resolver moves the deposit; after it an unreleased deposit is its funder's to take back.
 */
export function refundAfterFor(
  cfg: { judgingWindowSeconds: number; oracleWindowSeconds: number },
  { deadline, verification: v }: { deadline: Date; verification: Verification },
): number {
  const voting = v.type === "peer_vote" ? Date.parse(v.params.voting_deadline) : NaN;
  const closes = Math.max(deadline.getTime(), Number.isFinite(voting) ? voting : 0) / 1000;
  const judging =
    v.type === "creator_judges" ? judgingWindowOf(v.params, cfg.judgingWindowSeconds) : cfg.judgingWindowSeconds;
  const appeal = v.type === "creator_judges" ? v.params.appeal : undefined;
  const appealSeconds = appeal ? 2 * appeal.appeal_window_seconds : 0;
  return Math.ceil(closes + Math.max(judging, cfg.oracleWindowSeconds) + appealSeconds + REFUND_GRACE_SECONDS);
}

/** The escrow record of a new base-rail mission: its terms and its key, no deposit yet. */
export const escrowRecordFor = (
  terms: ReturnType<typeof baseRailTerms>,
  {
    missionId,
    refundAfter,
    signedOnlyUntil,
  }: { missionId: string; refundAfter: number; signedOnlyUntil?: number | undefined },
): EscrowRecord => ({
  chain_id: terms.chainId,
  contract: terms.contract,
  token: terms.token,
  mission_key: missionKey(missionId).toLowerCase(),
  refund_after: refundAfter,
  ...(signedOnlyUntil !== undefined && { signed_only_until: signedOnlyUntil }),
  deposit: null,
});

/**
 * Contract v4's signed-only time of a new deposit (docs/base-rail.md "Trust model (contract v4)"):
 * for creator_judges, the end of its judging window (the deadline + judging_window_seconds) — until
 * then only the creator's signed award moves the slot, after it the default award may be proposed;
 * 0 for every other method (the server decides those releases itself).
 */
export function signedOnlyUntilFor(
  cfg: { judgingWindowSeconds: number },
  { deadline, verification: v }: { deadline: Date; verification: Verification },
): number {
  if (v.type !== "creator_judges") return 0;
  return Math.ceil(deadline.getTime() / 1000 + judgingWindowOf(v.params, cfg.judgingWindowSeconds));
}
