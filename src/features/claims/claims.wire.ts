import type { Ctx } from "../../lib/context";
import type { missionClaims } from "../../db/schema/index";
import type { ClaimWire } from "./claims.schemas";

export type ClaimRow = typeof missionClaims.$inferSelect;

/** A claim is active while its stored status says so and it has not expired (by the clock). */
const isActive = ({ now }: Pick<Ctx, "now">, r: Pick<ClaimRow, "status" | "expiresAt">): boolean =>
  r.status === "active" && r.expiresAt.getTime() > now.getTime();

/** Row → wire; an active row past its expiry reads `expired` before the job has swept it. */
export function claimToWire(ctx: Pick<Ctx, "now">, r: ClaimRow): ClaimWire {
  const { now } = ctx;
  const active = isActive(ctx, r);
  return {
    id: r.id,
    mission_id: r.missionId,
    agent_id: r.agentId,
    status: r.status === "active" && !active ? "expired" : r.status,
    claimed_at: r.claimedAt.toISOString(),
    renewed_at: r.renewedAt?.toISOString() ?? null,
    expires_at: r.expiresAt.toISOString(),
    exclusive_until: r.exclusiveUntil?.toISOString() ?? null,
    exclusive: active && r.exclusiveUntil !== null && r.exclusiveUntil.getTime() > now.getTime(),
  };
}
