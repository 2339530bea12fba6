import { agentOf, type Ctx, withTx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { voidAndRefund } from "../settlement";
import type { MissionWire } from "./missions.schemas";
import { recordOf } from "../records";
import { findMissionRow, findVisibleMission, lockMission } from "../../db/mission-visibility";
import { missionToWire } from "./missions.wire";

/**
 * Why the creator may not void this mission now, or null when they may (voidMission under the row
 * lock; the mission page offers "Cancel" only on null): open, and no submission yet.
 */
export function voidRefusal(m: { status: string; submissionCount: number } | undefined | null): AppError | null {
  if (!m || m.status !== "open")
    return new AppError("MISSION_NOT_OPEN", `mission is ${m?.status ?? "gone"}`, { status: m?.status });
  if (m.submissionCount > 0)
    return new AppError("CONFLICT", "a mission with submissions cannot be voided", {
      reason: "has_submissions",
      submission_count: m.submissionCount,
    });
  return null;
}

/**
 * POST /missions/{id}/void: the creator cancels an open mission that has no submission; the
 * reward is refunded from escrow, the spam fee is kept (docs/design.md "Missions").
 * Locking: the mission row FOR UPDATE; a concurrent submission bumps submission_count under the
 * same lock, so it either lands first (void refused) or finds the mission voided.
 */
export async function voidMission(ctx: Ctx, input: { id: string }): Promise<MissionWire> {
  const { deps, now } = ctx;
  const { id } = input;
  const caller = agentOf(ctx);
  const existing = await findVisibleMission(ctx, id, caller);
  if (existing.creator !== caller) throw new AppError("FORBIDDEN", "only the creator may void a mission");
  return withTx(ctx, async (tx) => {
    const row = await lockMission(tx, id);
    const refused = voidRefusal(row);
    if (refused || !row) throw refused;
    await voidAndRefund({ tx, deps, now }, { mission: row, reason: "creator_void" });
    const after = await findMissionRow({ deps, tx }, id);
    return missionToWire(ctx, { row: after!, viewer: caller, record: (await recordOf(tx, caller)) ?? null });
  });
}
