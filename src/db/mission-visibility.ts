import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Tx } from "./client";
import { missions } from "./schema/index";
import type { Ctx } from "../lib/context";
import { AppError } from "../lib/errors";
import { isId } from "../lib/ids";
import { MISSION_COLUMNS, preparedMissionById, type MissionRow } from "./rows";
import { builtOnce } from "./built-once";

// The one rule for who sees a mission (docs/decisions.md "Listing"; AIP-1 §6): a pending_escrow mission —
// its deposit not yet confirmed on chain — exists only for its creator; a mission the operator hid
// (hidden_at set; docs/moderation.md) exists only for its creator and the operator. Every read by id goes
// through findVisibleMission, every list through publicMissions, every write's lock through
// lockMission then visibleTo.

/**
 * Lists show what anyone may see: never a pending_escrow mission, never a hidden one. The status
 * is written into the statement, not sent as a parameter: a prepared statement's generic plan
 * then estimates it as its custom plans do, so Postgres keeps the generic one instead of planning
 * each request (bench/README.md "Scale mode").
 */
export const publicMissions: SQL = and(sql`${missions.status} <> 'pending_escrow'`, isNull(missions.hiddenAt))!;

/** The viewer the operator (admin token) reads as: it sees hidden missions. Never an address. */
const OPERATOR_VIEWER = "@operator";

/** A context's viewer for the visibility rule: the signed-in agent, the operator, or nobody. */
export function viewerFor(ctx: Pick<Ctx, "caller">): string | undefined {
  if (ctx.caller.kind === "agent") return ctx.caller.address;
  return ctx.caller.kind === "admin" ? OPERATOR_VIEWER : undefined;
}

type Visible = Pick<MissionRow, "status" | "creator"> & { hiddenAt?: Date | null | undefined };

/**
 * Whether `viewer` may see `m`. `viewer` null means "nobody's own": the verbs that act on a
 * mission as a non-creator (submit, vote, dispute, commit) hide it even from its creator, as
 * before this rule was shared — see each call site. A hidden mission is seen by its creator and
 * by the operator (OPERATOR_VIEWER) only.
 */
export function visibleTo(m: Visible, viewer: string | null | undefined): boolean {
  if (viewer === OPERATOR_VIEWER) return true;
  const own = viewer != null && m.creator === viewer;
  if (m.status === "pending_escrow" && !own) return false;
  return !m.hiddenAt || own;
}

/** The mission by id, or undefined when the id is malformed or there is no such row. */
export async function findMissionRow(
  ctx: Pick<Ctx, "deps" | "tx" | "read">,
  id: string,
): Promise<MissionRow | undefined> {
  if (!isId("mis", id)) return undefined;
  // Inside a transaction read through it (the prepared statement belongs to the pool); a public
  // read goes where src/http/read-after.ts routed it (the replica, or the primary).
  const [row] = ctx.tx
    ? await missionInTx(ctx.tx, { id })
    : await preparedMissionById(ctx.read?.db ?? ctx.deps.database.db).execute({ id });
  return row;
}

/** The mission as `viewer` may see it, or 404 NOT_FOUND (the same answer as a missing id). */
export async function findVisibleMission(
  ctx: Pick<Ctx, "deps" | "tx" | "read">,
  id: string,
  viewer: string | null | undefined,
): Promise<MissionRow> {
  const m = await findMissionRow(ctx, id);
  return assertVisible(m, id, viewer);
}

/** 404 unless `m` exists and `viewer` may see it. */
export function assertVisible<M extends Visible>(m: M | undefined, id: string, viewer: string | null | undefined): M {
  if (!m || !visibleTo(m, viewer)) throw new AppError("NOT_FOUND", `mission ${id} not found`);
  return m;
}

/**
 * The mission row, locked FOR UPDATE for the rest of `tx` (lock order: mission → agents →
 * ledger, reputation.service.ts). Undefined when there is no such row.
 */
export async function lockMission(tx: Tx, id: string): Promise<MissionRow | undefined> {
  const [m] = await lockedMission(tx, { id });
  return m;
}

// The two mission reads every submit and award makes inside its transaction, built once (src/db/built-once.ts).
const missionInTx = builtOnce("oabp_mission_in_tx", (db) =>
  db
    .select(MISSION_COLUMNS)
    .from(missions)
    .where(eq(missions.id, sql.placeholder("id"))),
);
const lockedMission = builtOnce("oabp_mission_locked", (db) =>
  db
    .select(MISSION_COLUMNS)
    .from(missions)
    .where(eq(missions.id, sql.placeholder("id")))
    .for("update"),
);
