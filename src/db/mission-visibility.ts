import { eq, ne, type SQL } from "drizzle-orm";
import type { Tx } from "./client";
import { missions } from "./schema/index";
import type { Ctx } from "../lib/context";
import { AppError } from "../lib/errors";
import { isId } from "../lib/ids";
import { MISSION_COLUMNS, preparedMissionById, type MissionRow } from "./rows";

type Mission = Omit<MissionRow, "search">;

// The one rule for who sees a mission (docs/decisions.md "Listing"; AIP-1 §6): a pending_escrow mission —
// its deposit not yet confirmed on chain — exists only for its creator. Every read by id goes
// through findVisibleMission, every list through publicMissions, every write's lock through
// lockMission then visibleTo.

/** Lists show what anyone may see: never a pending_escrow mission. */
export const publicMissions: SQL = ne(missions.status, "pending_escrow");

/**
 * Whether `viewer` may see `m`. `viewer` null means "nobody's own": the verbs that act on a
 * mission as a non-creator (submit, vote, dispute, commit) hide it even from its creator, as
 * before this rule was shared — see each call site.
 */
export function visibleTo(m: Pick<Mission, "status" | "creator">, viewer: string | null | undefined): boolean {
  return m.status !== "pending_escrow" || (viewer != null && m.creator === viewer);
}

/** The mission by id, or undefined when the id is malformed or there is no such row. */
export async function findMissionRow(ctx: Pick<Ctx, "deps" | "tx" | "read">, id: string): Promise<Mission | undefined> {
  if (!isId("mis", id)) return undefined;
  // Inside a transaction read through it (the prepared statement belongs to the pool); a public
  // read goes where src/http/read-after.ts routed it (the replica, or the primary).
  const [row] = ctx.tx
    ? await ctx.tx.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, id))
    : await preparedMissionById(ctx.read?.db ?? ctx.deps.database.db).execute({ id });
  return row;
}

/** The mission as `viewer` may see it, or 404 NOT_FOUND (the same answer as a missing id). */
export async function findVisibleMission(
  ctx: Pick<Ctx, "deps" | "tx" | "read">,
  id: string,
  viewer: string | null | undefined,
): Promise<Mission> {
  const m = await findMissionRow(ctx, id);
  return assertVisible(m, id, viewer);
}

/** 404 unless `m` exists and `viewer` may see it. */
export function assertVisible<M extends Pick<Mission, "status" | "creator">>(
  m: M | undefined,
  id: string,
  viewer: string | null | undefined,
): M {
  if (!m || !visibleTo(m, viewer)) throw new AppError("NOT_FOUND", `mission ${id} not found`);
  return m;
}

/**
 * The mission row, locked FOR UPDATE for the rest of `tx` (lock order: mission → agents →
 * ledger, reputation.service.ts). Undefined when there is no such row.
 */
export async function lockMission(tx: Tx, id: string): Promise<Mission | undefined> {
  const [m] = await tx.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, id)).for("update");
  return m;
}
