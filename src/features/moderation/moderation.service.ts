import { and, asc, desc, eq, gt, lt, type SQL } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { assertNotSuspended, suspensionOf } from "../../db/suspension";
import { appendAudit } from "../../db/audit";
import { findMissionRow, findVisibleMission, lockMission } from "../../db/mission-visibility";
import { missionReports, missions, operatorAudit, postingAllowlist, suspensions } from "../../db/schema/index";
import type { AuditAction, ReportReason } from "../../db/vocabulary";
import { parseAgentId } from "../../lib/agent-id";
import type { Tx } from "../../db/client";
import { agentOf, dbOf, withTx, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { isId, newId } from "../../lib/ids";
import { takeToken } from "../../lib/token-bucket";
import { missionToWire } from "../missions";
import { voidAndRefund } from "../settlement";
import type { AllowlistList, AuditList, Report, ReportList, Suspension } from "./moderation.schemas";
import { lastOf } from "../../lib/item-at";

// Moderation and operator control. Every operator verb
// acts and appends its audit row in ONE transaction, so the log holds exactly what was done.

const REFUNDABLE = new Set(["open", "pending_escrow"]);

/**
 * POST /admin/missions/{id}/hide: the mission leaves every public read (db/mission-visibility.ts)
 * and stays readable by its creator and the operator. By default hiding moves no money: the
 * mission runs its course (a hidden mission takes no new submissions, claims or votes; what is
 * already in motion settles). `refund: true` also voids an open or pending_escrow mission and
 * refunds its creator through the settlement path (ledger: one transfer; base: a refund payout).
 */
export async function hideMission(ctx: Ctx, input: { id: string; reason: string; refund: boolean }) {
  const { deps, now } = ctx;
  return withTx(ctx, async (tx) => {
    const m = await lockMission(tx, input.id);
    if (!m) throw new AppError("NOT_FOUND", `mission ${input.id} not found`);
    if (m.hiddenAt) throw new AppError("CONFLICT", "the mission is already hidden", { reason: "already_hidden" });
    if (input.refund && !REFUNDABLE.has(m.status))
      throw new AppError("CONFLICT", `a ${m.status} mission cannot be voided and refunded; hide it without refund`, {
        reason: "not_refundable",
        status: m.status,
      });
    if (input.refund) await voidAndRefund({ tx, deps, now }, { mission: m, reason: "operator_hide" });
    await tx
      .update(missions)
      .set({ hiddenAt: now, hiddenReason: input.reason, updatedAt: now })
      .where(eq(missions.id, m.id));
    await appendAudit(tx, {
      at: now,
      action: "mission.hide",
      target: m.id,
      detail: { reason: input.reason, refund: input.refund, status_before: m.status },
    });
    const after = await findMissionRow({ deps, tx }, m.id);
    return { mission: missionToWire({ deps }, { row: after! }), refunded: input.refund };
  });
}

/** POST /admin/missions/{id}/unhide: back in every public read, as it is now (a refund stands). */
export async function unhideMission(ctx: Ctx, input: { id: string; reason?: string | undefined }) {
  const { deps, now } = ctx;
  return withTx(ctx, async (tx) => {
    const m = await lockMission(tx, input.id);
    if (!m) throw new AppError("NOT_FOUND", `mission ${input.id} not found`);
    if (!m.hiddenAt) throw new AppError("CONFLICT", "the mission is not hidden", { reason: "not_hidden" });
    await tx.update(missions).set({ hiddenAt: null, hiddenReason: null, updatedAt: now }).where(eq(missions.id, m.id));
    await appendAudit(tx, {
      at: now,
      action: "mission.unhide",
      target: m.id,
      detail: { reason: input.reason ?? null },
    });
    const after = await findMissionRow({ deps, tx }, m.id);
    return { mission: missionToWire({ deps }, { row: after! }), refunded: false };
  });
}

function suspensionWire(address: string, s: Awaited<ReturnType<typeof suspensionOf>>): z.infer<typeof Suspension> {
  return {
    address,
    suspended: s !== undefined,
    reason: s?.reason ?? null,
    suspended_at: s?.suspendedAt.toISOString() ?? null,
    until: s?.until?.toISOString() ?? null,
  };
}

/** GET /admin/agents/{address}/suspension. */
export async function getSuspension(ctx: Ctx, input: { address: string }) {
  const address = parseAgentId(input.address);
  return suspensionWire(address, await suspensionOf(dbOf(ctx), address, ctx.now));
}

/** POST /admin/agents/{address}/suspend (again: replaces the reason and end). */
export async function suspendAgent(ctx: Ctx, input: { address: string; reason: string; until?: string | undefined }) {
  const { now } = ctx;
  const address = parseAgentId(input.address);
  const until = input.until ? new Date(input.until) : null;
  if (until && until.getTime() <= now.getTime())
    throw new AppError("UNPROCESSABLE", "until must be in the future", { field: "until", reason: "until_in_past" });
  return withTx(ctx, async (tx) => {
    const row = { address, reason: input.reason, suspendedAt: now, until };
    await tx
      .insert(suspensions)
      .values(row)
      .onConflictDoUpdate({ target: suspensions.address, set: { reason: row.reason, suspendedAt: now, until } });
    await appendAudit(tx, {
      at: now,
      action: "agent.suspend",
      target: address,
      detail: { reason: input.reason, until: until?.toISOString() ?? null },
    });
    return suspensionWire(address, row);
  });
}

/** Takes `address` off an operator list (the suspensions, the posting allow-list); false when it was not on it. */
async function takeOff(tx: Tx, list: typeof suspensions | typeof postingAllowlist, address: string): Promise<boolean> {
  const gone = await tx.delete(list).where(eq(list.address, address)).returning({ address: list.address });
  return gone.length > 0;
}

/** POST /admin/agents/{address}/unsuspend: 404 when the address is not suspended. */
export async function unsuspendAgent(ctx: Ctx, input: { address: string; reason?: string | undefined }) {
  const { now } = ctx;
  const address = parseAgentId(input.address);
  return withTx(ctx, async (tx) => {
    if (!(await takeOff(tx, suspensions, address)))
      throw new AppError("NOT_FOUND", `${address} is not suspended`, { reason: "not_suspended" });
    await appendAudit(tx, {
      at: now,
      action: "agent.unsuspend",
      target: address,
      detail: { reason: input.reason ?? null },
    });
    return suspensionWire(address, undefined);
  });
}

type ReportRow = typeof missionReports.$inferSelect;
function reportWire(r: ReportRow): z.infer<typeof Report> {
  return {
    id: r.id,
    mission_id: r.missionId,
    reporter: r.reporter,
    reason: r.reason,
    note: r.note,
    status: r.status,
    created_at: r.createdAt.toISOString(),
    resolved_at: r.resolvedAt?.toISOString() ?? null,
    resolution_note: r.resolutionNote,
  };
}

/**
 * POST /missions/{id}/reports: a signed-in agent reports a mission it can see (not its own). One
 * open report per reporter per mission (409 already_reported); OABP_REPORT_RATE per agent (429).
 */
export async function reportMission(
  ctx: Ctx,
  input: { missionId: string; reason: ReportReason; note?: string | undefined },
) {
  const { deps, now } = ctx;
  const reporter = agentOf(ctx);
  await assertNotSuspended(deps.database.db, reporter, now); // docs/moderation.md "Suspension"
  const m = await findVisibleMission(ctx, input.missionId, reporter);
  if (m.creator === reporter)
    throw new AppError("FORBIDDEN", "a creator cannot report their own mission", { reason: "own_mission" });
  const policy = deps.config.reportRate;
  const verdict = await takeToken(deps.database.db, `report:agent:${reporter}`, policy, now);
  if (!verdict.ok)
    throw new AppError(
      "RATE_LIMITED",
      `at most ${policy.quota} reports per ${policy.windowSeconds} s; retry after ${verdict.retryAfterSeconds} s`,
      { reason: "rate_limited", policy: "report-agent", retry_after_seconds: verdict.retryAfterSeconds },
    );
  return withTx(ctx, async (tx) => {
    const row: ReportRow = {
      id: newId("rep", now.getTime()),
      missionId: m.id,
      reporter,
      reason: input.reason,
      note: input.note ?? null,
      status: "open",
      createdAt: now,
      resolvedAt: null,
      resolutionNote: null,
    };
    const inserted = await tx
      .insert(missionReports)
      .values(row)
      .onConflictDoNothing()
      .returning({ id: missionReports.id });
    if (inserted.length === 0) {
      const [open] = await tx
        .select({ id: missionReports.id })
        .from(missionReports)
        .where(
          and(
            eq(missionReports.missionId, m.id),
            eq(missionReports.reporter, reporter),
            eq(missionReports.status, "open"),
          ),
        );
      throw new AppError("CONFLICT", "you already have an open report on this mission", {
        reason: "already_reported",
        report_id: open?.id ?? null,
      });
    }
    return reportWire(row);
  });
}

/** GET /admin/reports: by status (default open), oldest first, keyset cursor on the report id. */
export async function listReports(
  ctx: Ctx,
  q: { status: ReportRow["status"]; mission_id?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<z.infer<typeof ReportList>> {
  if (q.cursor !== undefined && !isId("rep", q.cursor))
    throw new AppError("INVALID_PARAMETER", "cursor is not valid", { field: "cursor" });
  const conds: SQL[] = [eq(missionReports.status, q.status)];
  if (q.mission_id) conds.push(eq(missionReports.missionId, q.mission_id));
  if (q.cursor) conds.push(gt(missionReports.id, q.cursor));
  const rows = await dbOf(ctx)
    .select()
    .from(missionReports)
    .where(and(...conds))
    .orderBy(asc(missionReports.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return { reports: page.map(reportWire), next_cursor: rows.length > q.limit ? lastOf(page, "reports").id : null };
}

/** POST /admin/reports/{id}/resolve and /dismiss: closes an open report (409 report_closed otherwise). */
export async function closeReport(
  ctx: Ctx,
  input: { id: string; outcome: "resolved" | "dismissed"; note?: string | undefined },
) {
  const { now } = ctx;
  if (!isId("rep", input.id)) throw new AppError("NOT_FOUND", `report ${input.id} not found`);
  return withTx(ctx, async (tx) => {
    const [r] = await tx.select().from(missionReports).where(eq(missionReports.id, input.id)).for("update");
    if (!r) throw new AppError("NOT_FOUND", `report ${input.id} not found`);
    if (r.status !== "open")
      throw new AppError("CONFLICT", `the report is already ${r.status}`, {
        reason: "report_closed",
        status: r.status,
      });
    const [after] = await tx
      .update(missionReports)
      .set({ status: input.outcome, resolvedAt: now, resolutionNote: input.note ?? null })
      .where(eq(missionReports.id, r.id))
      .returning();
    await appendAudit(tx, {
      at: now,
      action: input.outcome === "resolved" ? "report.resolve" : "report.dismiss",
      target: r.id,
      detail: { mission_id: r.missionId, note: input.note ?? null },
    });
    return reportWire(after!);
  });
}

/** GET /admin/posting-allowlist: by address, keyset cursor on the address. */
export async function listAllowlist(
  ctx: Ctx,
  q: { cursor?: string | undefined; limit: number },
): Promise<z.infer<typeof AllowlistList>> {
  const rows = await dbOf(ctx)
    .select()
    .from(postingAllowlist)
    .where(q.cursor ? gt(postingAllowlist.address, q.cursor.toLowerCase()) : undefined)
    .orderBy(asc(postingAllowlist.address))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return {
    gate: ctx.deps.config.postingGate,
    entries: page.map((r) => ({ address: r.address, note: r.note, added_at: r.addedAt.toISOString() })),
    next_cursor: rows.length > q.limit ? lastOf(page, "page").address : null,
  };
}

/** PUT /admin/posting-allowlist/{address}: add (or re-note) an address. */
export async function allowPosting(ctx: Ctx, input: { address: string; note?: string | undefined }) {
  const { now } = ctx;
  const address = parseAgentId(input.address);
  return withTx(ctx, async (tx) => {
    const [row] = await tx
      .insert(postingAllowlist)
      .values({ address, note: input.note ?? null, addedAt: now })
      .onConflictDoUpdate({ target: postingAllowlist.address, set: { note: input.note ?? null } })
      .returning();
    await appendAudit(tx, {
      at: now,
      action: "posting_allowlist.add",
      target: address,
      detail: { note: input.note ?? null },
    });
    return { address: row!.address, note: row!.note, added_at: row!.addedAt.toISOString() };
  });
}

/** DELETE /admin/posting-allowlist/{address}: 404 when it is not listed. */
export async function disallowPosting(ctx: Ctx, input: { address: string }) {
  const { now } = ctx;
  const address = parseAgentId(input.address);
  await withTx(ctx, async (tx) => {
    if (!(await takeOff(tx, postingAllowlist, address)))
      throw new AppError("NOT_FOUND", `${address} is not on the posting allow-list`);
    await appendAudit(tx, { at: now, action: "posting_allowlist.remove", target: address });
  });
}

/** GET /admin/audit: newest first, keyset cursor on the sequence number. */
export async function listAudit(
  ctx: Ctx,
  q: { action?: AuditAction | undefined; cursor?: string | undefined; limit: number },
): Promise<z.infer<typeof AuditList>> {
  let before: number | undefined;
  if (q.cursor !== undefined) {
    if (!/^[1-9][0-9]{0,15}$/.test(q.cursor))
      throw new AppError("INVALID_PARAMETER", "cursor is not valid", { field: "cursor" });
    before = Number(q.cursor);
  }
  const rows = await dbOf(ctx)
    .select()
    .from(operatorAudit)
    .where(
      and(
        q.action ? eq(operatorAudit.action, q.action) : undefined,
        before !== undefined ? lt(operatorAudit.seq, before) : undefined,
      ),
    )
    .orderBy(desc(operatorAudit.seq))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return {
    entries: page.map((r) => ({
      seq: Number(r.seq),
      at: r.at.toISOString(),
      action: r.action,
      target: r.target,
      detail: r.detail,
    })),
    next_cursor: rows.length > q.limit ? String(lastOf(page, "page").seq) : null,
  };
}
