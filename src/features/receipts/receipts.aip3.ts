import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { and, eq } from "drizzle-orm";
import { getAddress } from "viem";
import { chainPayouts, missions, submissions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import { isId } from "../../lib/ids";
import { visibleTo } from "../../db/mission-visibility";
import { ledgerSettlement } from "./receipts.service";

// AIP-3 §10 settlement receipt: agent + mission + artifact + settlement in one EIP-191 signed
// record, by the same secp256k1 key as AIP-3 attestations (manifest `issuer_address`). Apart from
// (and in addition to) the AIP-1 §6.1 ed25519 receipt. Built from stored rows at request time;
// the id, issued_at and (RFC 6979) signature are stable until the settlement progresses.

const SETTLEMENT_RECEIPT_VERSION = "AIP-3/1.0";
type SettlementStatus = "queued" | "pending_gas" | "broadcast" | "confirmed" | "failed";

/** rec_<uuid-v4 form>, derived from the submission and its settlement state (stable per state). */
function receiptId(parts: string[]): string {
  const h = createHash("sha256").update(parts.join("|")).digest("hex");
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `rec_${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** §10.2: canonical JSON without signature and signature_algo. */
export const settlementPayload = (r: Record<string, unknown>): string => {
  const { signature: _s, signature_algo: _a, ...rest } = r;
  return canonicalize(rest)!;
};

/**
 * GET /api/submissions/{id}/receipt. 200 once settled (confirmed, or failed for good), 202 while
 * the payout is queued, short of gas or broadcast; 404 for an unknown submission and for one that
 * was not paid (no settlement to attest); 404 as well when `viewer` may not see the mission (a hidden
 * one answers only its creator and the operator: docs/moderation.md "Hidden missions").
 */
export async function settlementReceipt(
  deps: Deps,
  { submissionId, viewer }: { submissionId: string; viewer: string | undefined },
): Promise<{ status: 200 | 202; body: Record<string, unknown> }> {
  const { sub, m, paid } = await paidWinner(deps, submissionId, viewer);
  const { status, tx, at, extra } =
    m.rewardChain === "base"
      ? await chainState(deps, m)
      : // Ledger rail: credited in the resolution's own transaction — final at once, no chain tx.
        {
          status: "confirmed" as const,
          tx: null,
          at: m.resolvedAt,
          extra: {
            ledger_entry_hash: (
              await ledgerSettlement(deps, { mission: m, submitter: sub.submitter, amount: paid.amount })
            ).body.ledger_entry_hash,
          },
        };
  const unsigned = {
    receipt_type: "settlement",
    spec_version: SETTLEMENT_RECEIPT_VERSION,
    receipt_id: receiptId([sub.id, status, tx ?? ""]),
    issued_at: at.toISOString(),
    issuer: deps.config.publicUrl,
    mission_id: m.id,
    agent_id: getAddress(sub.submitter),
    artifact_hash: sub.contentHash, // sha256:<hex> of the submitted deliverable bytes
    reward_asset: m.rewardAsset,
    reward_amount: paid.amount,
    settlement_tx: tx,
    settlement_chain: m.rewardChain === "base" ? "base" : "ledger",
    settlement_status: status,
    ...extra,
  };
  const signature = await deps.attestation.account.signMessage({ message: settlementPayload(unsigned) });
  const body = { ...unsigned, signature, signature_algo: "eth_personal_sign" };
  return { status: status === "confirmed" || status === "failed" ? 200 : 202, body };
}

/** The submission, its mission and its payout: 404 unless a visible, paid winner. */
async function paidWinner(deps: Deps, submissionId: string, viewer: string | undefined) {
  const db = deps.database.db;
  const [sub] = isId("sub", submissionId)
    ? await db.select().from(submissions).where(eq(submissions.id, submissionId))
    : [];
  if (!sub) throw new AppError("NOT_FOUND", `submission ${submissionId} not found`);
  const [m] = await db.select().from(missions).where(eq(missions.id, sub.missionId));
  if (!m || !visibleTo(m, viewer)) throw new AppError("NOT_FOUND", `submission ${submissionId} not found`);
  const paid = m.status === "resolved" ? m.payouts?.find((p) => p.submission_id === sub.id) : undefined;
  if (!m.resolvedAt || !paid || sub.status !== "accepted") {
    throw new AppError("NOT_FOUND", `submission ${submissionId} has no settlement (not a paid winner)`, {
      reason: "not_paid",
      status: sub.status,
    });
  }
  return { sub, m: { ...m, resolvedAt: m.resolvedAt }, paid };
}

/** Base rail: the release payout's state, transaction and time. */
async function chainState(
  deps: Deps,
  m: typeof missions.$inferSelect & { resolvedAt: Date },
): Promise<{ status: SettlementStatus; tx: string | null; at: Date; extra: Record<string, unknown> }> {
  const [p] = await deps.database.db
    .select()
    .from(chainPayouts)
    .where(and(eq(chainPayouts.missionId, m.id), eq(chainPayouts.kind, "release")));
  // A final release is confirmed; every other state names itself (none before the release exists).
  const state = p?.state ?? "queued";
  const status = state === "final" ? "confirmed" : (state as SettlementStatus);
  return {
    status,
    tx: p ? (p.minedTxHash ?? p.txHash) : null,
    at: (p && lastProgress(p)) ?? m.resolvedAt,
    extra: status === "failed" ? { failure_reason: m.payoutStatusReason ?? "payout_failed" } : {},
  };
}

/** When the release last progressed (final, confirmed, broadcast); null before its broadcast. */
const lastProgress = (p: typeof chainPayouts.$inferSelect): Date | null =>
  p.finalAt ?? p.confirmedAt ?? p.broadcastAt ?? null;
