import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { settle } from "./disputes.resolve";
import { disputeToWire, type Row } from "./disputes.wire";
import { findVisibleMission } from "../../db/mission-visibility";
import type { Tx } from "../../db/client";
import { disputes } from "../../db/schema/index";
import { dbOf, withTx, type Ctx, type TxCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { disputeKey, newDisputeId } from "./disputes.ids";
import type { DisputeType } from "../manifest";
import { boundPerMission, DisputeRateLimited } from "./disputes.bounds";
import { FILING_LIMITS, RESOLUTION_WINDOW_MS } from "./disputes.rules";
import { qualify, type Filer, type Mission, type Qualified } from "./disputes.qualify";
import type { DisputeWire, FileDisputeInput } from "./disputes.schemas";
import type { DisputeStatus } from "../../db/vocabulary";
import { lastOf } from "../../lib/item-at";

// AIP-4 disputes: filing (§2), the §1 qualification rules, §6.1 limits, resolution (§3) and the
// §4 corrective actions. Who resolves (docs/aip-3-4.md): non_payment and dup_claim are decided by
// the server from its own records at filing; bad_spec on a creator_judges award under appeal
// follows the appeal's peer vote; otherwise the operator (`server`) rules, or the creator concedes
// a bad_spec (`creator`, upheld only). Open disputes past their deadline expire (§3.1).

export type { Filer } from "./disputes.qualify";

export { DisputeRateLimited } from "./disputes.bounds";

/** reset_at of a limit without a window (dup_claim: 3 per mission, ever): it never resets. */
export const NEVER_RESETS = new Date("9999-12-31T23:59:59.999Z");

/** §6.1: the filer bucket's filings of this type in the rule's window and scope; 429 at the limit. */
async function checkFilingLimit(
  tx: Tx,
  { bucket, m, t, q, now }: { bucket: string; m: Mission; t: DisputeType; q: Qualified; now: Date },
) {
  const rule = FILING_LIMITS[t];
  const scope = [eq(disputes.filerBucket, bucket), eq(disputes.disputeType, t)];
  if (rule.windowMs !== null) scope.push(gt(disputes.filedAt, new Date(now.getTime() - rule.windowMs)));
  if (rule.scope === "mission") scope.push(eq(disputes.missionId, m.id));
  if (rule.scope === "oracle" && q.oracleUrl) scope.push(eq(disputes.oracleUrl, q.oracleUrl));
  const recent = await tx
    .select({ filedAt: disputes.filedAt })
    .from(disputes)
    .where(and(...scope))
    .orderBy(asc(disputes.filedAt))
    .limit(rule.limit);
  if (recent.length >= rule.limit)
    throw new DisputeRateLimited(
      rule.windowMs === null ? NEVER_RESETS : new Date(recent[0]!.filedAt.getTime() + rule.windowMs),
      t,
    );
}

/** The new dispute's row: open, deadline per §3.1. */
function newDisputeRow({
  m,
  input,
  filer,
  bucket,
  q,
  now,
}: {
  m: Mission;
  input: FileDisputeInput;
  filer: Filer;
  bucket: string;
  q: Qualified;
  now: Date;
}): Row {
  const t = input.dispute_type;
  const evidence: Record<string, unknown> = { ...input.evidence };
  // AIP-4 §7.2: how a filer from another hub was identified, on the public record.
  if ("crossServer" in filer && filer.crossServer) evidence.cross_server_identity = filer.crossServer;
  return {
    id: newDisputeId(now.getTime()),
    disputeType: t,
    missionId: m.id,
    submissionId: q.submissionId,
    otherSubmissionId: q.otherSubmissionId ?? null,
    filedBy: "address" in filer ? filer.address : "anonymous",
    filerBucket: bucket,
    oracleUrl: q.oracleUrl ?? null,
    evidence,
    status: "open",
    outcome: null,
    rationale: null,
    resolutionActor: null,
    correctiveAction: null,
    filedAt: now,
    resolutionDeadline: new Date(now.getTime() + RESOLUTION_WINDOW_MS[t]),
    resolvedAt: null,
  };
}

/**
 * non_payment and dup_claim are decided at once from the server's own records (§3.1: "servers MAY
 * resolve faster"); the others stay open.
 */
async function decideAtFiling(ctx: TxCtx, { row, m, q }: { row: Row; m: Mission; q: Qualified }): Promise<Row> {
  if (row.disputeType === "non_payment")
    return settle(ctx, {
      d: row,
      r: {
        outcome: "upheld",
        actor: "server",
        rationale: `verified ${ctx.deps.config.aip34.paymentSlaHours} h ago and payout_status is still ${m.payoutStatus}`,
      },
    });
  if (row.disputeType !== "dup_claim" || !q.pair) return row;
  const [s, other] = q.pair;
  const first = s.seq < other.seq ? s : other;
  return settle(ctx, {
    d: row,
    r: {
      outcome: s.status === "accepted" ? "upheld" : "rejected",
      actor: "server",
      rationale: `arrival order under the mission lock: ${first.id} at ${first.submittedAt.toISOString()} (seq ${first.seq}) came first and ${first.status === "accepted" ? "was awarded" : "is the earliest"}`,
    },
  });
}

/**
 * POST /api/disputes. Locking: a transaction-scoped advisory lock on the filer bucket serialises
 * one filer's filings, so the §6.1 count and the insert agree (across instances: it is Postgres').
 */
export async function fileDispute(
  ctx: Ctx,
  { filer, dispute: input }: { filer: Filer; dispute: FileDisputeInput },
): Promise<DisputeWire> {
  const { deps, now } = ctx;
  // Hidden from everyone while pending_escrow, its creator included (nothing to dispute yet).
  const m = await findVisibleMission(ctx, input.mission_id, null);
  const q = await qualify(deps, { m, input, filer, now });
  const bucket = "address" in filer ? filer.address : `anon:${filer.anonymousIp}`;
  return withTx(ctx, async (tx) => {
    // Lock order: the mission's filings, then the filer's (the per-mission bound and the per-mission
    // dup_claim count hold across filers and instances).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`dispute-mission:${m.id}`}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`dispute:${bucket}`}))`);
    await boundPerMission({ tx, deps }, { m, filer, bucket, t: input.dispute_type });
    await checkFilingLimit(tx, { bucket, m, t: input.dispute_type, q, now });
    const row = newDisputeRow({ m, input, filer, bucket, q, now });
    await tx.insert(disputes).values(row);
    return disputeToWire(await decideAtFiling({ tx, deps, now }, { row, m, q }));
  });
}

export async function getDispute(ctx: Ctx, { id }: { id: string }): Promise<DisputeWire> {
  const key = disputeKey(id);
  const [d] = key ? await dbOf(ctx).select().from(disputes).where(eq(disputes.id, key)) : [];
  if (!d) throw new AppError("NOT_FOUND", `dispute ${id} not found`);
  return disputeToWire(d);
}

/** Soft byte budget of one list page. */
export const LIST_PAGE_BYTES = 256 * 1024;

/** GET /api/disputes (§2.4): public, newest first, keyset on the time-ordered id. */
export async function listDisputes(
  ctx: Ctx,
  q: {
    mission_id?: string | undefined;
    status?: DisputeStatus | undefined;
    limit: number;
    cursor?: string | undefined;
  },
) {
  let before: string | undefined;
  if (q.cursor) {
    before = disputeKey(Buffer.from(q.cursor, "base64url").toString("utf8")) ?? undefined;
    if (!before) throw new AppError("INVALID_PARAMETER", "cursor is not valid", { field: "cursor" });
  }
  const where = [];
  if (q.mission_id) where.push(eq(disputes.missionId, q.mission_id));
  if (q.status) where.push(eq(disputes.status, q.status));
  if (before) where.push(lt(disputes.id, before));
  const rows = await dbOf(ctx)
    .select()
    .from(disputes)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(disputes.id))
    .limit(q.limit + 1);
  // A page is bounded in bytes as well as rows (evidence may be ~30 kB a dispute): it stops at
  // LIST_PAGE_BYTES (at least one row) and the cursor continues from there.
  const page: DisputeWire[] = [];
  let bytes = 0;
  for (const r of rows.slice(0, q.limit)) {
    const w = disputeToWire(r);
    bytes += JSON.stringify(w).length;
    if (page.length > 0 && bytes > LIST_PAGE_BYTES) break;
    page.push(w);
  }
  const more = rows.length > page.length;
  return {
    disputes: page,
    next_cursor: more ? Buffer.from(lastOf(page, "disputes").dispute_id).toString("base64url") : null,
  };
}
