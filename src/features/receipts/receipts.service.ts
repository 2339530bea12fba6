import { and, desc, eq, gt } from "drizzle-orm";
import { chainPayouts, ledgerEntries, submissions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { dbOf, type Ctx } from "../../lib/context";
import { findMission, type MissionRow as Mission } from "../../db/rows";
import type { ChainPayoutState } from "../../db/vocabulary";
import { viewerFor, visibleTo } from "../../db/mission-visibility";
import { AppError } from "../../lib/errors";
import { wireSha256 } from "../../lib/hash";
import { missionToWire } from "../missions";
import { agentAccount } from "../ledger";
import { signReceipt } from "../../lib/receipt-sign";
import { missionHash, submissionHash } from "./receipts.hashes";
import { verifyReceipt, type ReceiptVerification } from "./receipts.verify";
import { manifestObject } from "../manifest";

const SPEC_VERSION = "AIP-1@0.3.8";
/**
 * A receipt asked for while the award it would prove is under appeal (verification/appeal.ts):
 * still 404 — the document does not exist — but saying when it will, and what decides it.
 */
function notYet(m: Mission, submissionId: string, notFound: () => AppError): AppError {
  const award = m.award;
  const awarded = award?.winners.some((w) => w.submission_id === submissionId);
  if (!award || !awarded || award.outcome !== null) return notFound();
  const closes = award.voting_deadline ?? award.appeal_deadline;
  return new AppError(
    "NOT_FOUND",
    `no receipt yet: submission ${submissionId} is awarded, and is paid when the appeal closes at ${closes} ` +
      "if the award stands; the receipt exists from then",
    {
      reason: "appeal_open",
      available_after: closes,
      appeal_deadline: award.appeal_deadline,
      voting_deadline: award.voting_deadline,
      fix: `ask again after ${closes} (oabp watch <mission> --wait-appeal waits for it)`,
    },
  );
}

/**
 * The §6.1 receipt of one paid submission of a resolved mission, built from stored rows at request
 * time: issued_at is the resolution time, so the document — and, ed25519 being deterministic, its
 * signature — is the same on every request until the active key rotates. Unknown, unpaid or
 * unresolved → NOT_FOUND, and so is a mission the caller may not see (a hidden one answers only its
 * creator and the operator, as the mission itself does: docs/moderation.md "Hidden missions"). Settlement is the ledger rail: status "credited", chain_id null, and
 * ledger_entry_hash = the hash of the winner's credit entry in the mission_payout transfer.
 */
/** The resolved mission the viewer may see and its payout to the submission; a pending one is not yet. */
async function paidMission(
  ctx: Ctx,
  { missionId, submissionId }: { missionId: string; submissionId: string },
  notFound: () => AppError,
) {
  const m = await findMission(ctx.deps, missionId);
  const paid =
    m?.status === "resolved" && m.resolvedAt ? m.payouts?.find((p) => p.submission_id === submissionId) : undefined;
  if (m && !m.resolvedAt && visibleTo(m, viewerFor(ctx))) throw notYet(m, submissionId, notFound);
  if (!m || !m.resolvedAt || !paid || !visibleTo(m, viewerFor(ctx))) throw notFound();
  return { m, paid, resolvedAt: m.resolvedAt };
}

export async function getReceipt(ctx: Ctx, { missionId, submissionId }: { missionId: string; submissionId: string }) {
  const { deps } = ctx;
  const notFound = () => new AppError("NOT_FOUND", `no receipt for submission ${submissionId} of mission ${missionId}`);
  const { m, paid, resolvedAt } = await paidMission(ctx, { missionId, submissionId }, notFound);
  const db = dbOf(ctx);
  const [sub] = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.missionId, missionId)));
  if (!sub || sub.status !== "accepted") throw notFound();
  const settlement =
    m.rewardChain === "base"
      ? await chainSettlement(deps, m, paid.amount, sub.submitter)
      : await ledgerSettlement(deps, { mission: m, submitter: sub.submitter, amount: paid.amount });
  // Re-issued as settlement progresses (§6.1): issued_at is the resolution time on the ledger
  // rail, and the latest settlement step on chain, so each new state is a new signed document.
  // A receipt re-signed after a key rotation is dated no earlier than the active key's
  // valid_from, so the key that signs it covers its issued_at (AIP-1 §6.1 rotation, §9 keys).
  const progressed = settlement.progressedAt ?? resolvedAt;
  const keyFrom = new Date(deps.receiptKeys.published[0]!.valid_from);
  const issuedAt = (progressed.getTime() >= keyFrom.getTime() ? progressed : keyFrom).toISOString();
  return signReceipt(
    {
      type: "oabp.mission_receipt" as const,
      spec_version: SPEC_VERSION,
      issuer: deps.config.publicUrl,
      issued_at: issuedAt,
      mission_id: m.id,
      submission_id: sub.id,
      agent_id: sub.submitter,
      content_hash: sub.contentHash,
      mission_hash: missionHash({
        id: m.id,
        creator: m.creator,
        title: m.title,
        description: m.description,
        reward: { asset: m.rewardAsset, amount: m.rewardAmount, chain: m.rewardChain },
        verification: missionToWire({ deps }, { row: m }).verification, // as GET serves it
        deadline: m.deadline.toISOString(),
        created_at: m.createdAt.toISOString(),
      }),
      submission_hash: submissionHash({
        id: sub.id,
        mission_id: m.id,
        submitter: sub.submitter,
        content_hash: wireSha256(sub.contentHash),
        submitted_at: sub.submittedAt.toISOString(),
      }),
      verification: {
        type: m.verificationType,
        result: "accepted" as const,
        decided_at: (sub.decidedAt ?? resolvedAt).toISOString(),
        verifier: `oabp://${new URL(deps.config.publicUrl).host}`,
      },
      settlement: settlement.body,
    },
    deps.receiptKeys,
  );
}

/** Ledger rail: status "credited", chain_id null, the hash of the winner's credit entry. */
export async function ledgerSettlement(
  deps: Deps,
  { mission: m, submitter, amount }: { mission: Mission; submitter: string; amount: string },
) {
  // One credit entry per winner account (a transfer merges postings per account).
  const [entry] = await deps.database.db
    .select({ hash: ledgerEntries.hash })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.kind, "mission_payout"),
        eq(ledgerEntries.ref, m.id),
        eq(ledgerEntries.account, agentAccount(submitter)),
        eq(ledgerEntries.asset, m.rewardAsset),
        gt(ledgerEntries.amount, "0"),
      ),
    )
    .orderBy(desc(ledgerEntries.createdAt))
    .limit(1);
  if (!entry) throw new Error(`mission ${m.id} is resolved but has no payout entry for ${submitter}`);
  return {
    progressedAt: null,
    body: {
      status: "credited" as const,
      asset: m.rewardAsset,
      amount,
      // The mission's whole protocol fee (one fee per mission, however many winners).
      fee_amount: m.feeAmount ?? "0",
      chain_id: null,
      ledger_entry_hash: entry.hash,
    },
  };
}

/**
 * base rail: the release's state. queued/pending_gas → "queued", broadcast and confirmed-but-not-
 * final → "broadcast" (with tx_hash; §6.1 treats both as provisional), final → "settled" — or
 * "credited" when the token refused the transfer to this winner and the escrow credited it (a
 * pull credit the winner withdraws; not in their wallet).
 */
async function chainSettlement(deps: Deps, m: Mission, amount: string, recipient: string) {
  const [p] = await deps.database.db
    .select()
    .from(chainPayouts)
    .where(and(eq(chainPayouts.missionId, m.id), eq(chainPayouts.kind, "release")));
  if (!p) throw new Error(`mission ${m.id} is resolved on the base rail but has no release`);
  const status = creditedTo(p, recipient) ? ("credited" as const) : RELEASE_STATUS[p.state];
  const txHash = p.minedTxHash ?? p.txHash;
  return {
    progressedAt: p.finalAt ?? p.confirmedAt ?? p.broadcastAt ?? null,
    body: {
      status,
      asset: m.rewardAsset,
      amount,
      fee_amount: m.feeAmount ?? "0",
      chain_id: p.chainId,
      ...(txHash ? { tx_hash: txHash } : {}),
    },
  };
}

/** The receipt's status for each state of the release (before a pull credit is considered). */
const RELEASE_STATUS = {
  queued: "queued",
  pending_gas: "queued",
  broadcast: "broadcast",
  confirmed: "broadcast",
  final: "settled",
  failed: "failed",
} as const satisfies Record<ChainPayoutState, string>;

/** The token refused the transfer to this winner, and the escrow credited it (a pull credit). */
function creditedTo(p: typeof chainPayouts.$inferSelect, recipient: string): boolean {
  return (
    (p.state === "final" || p.state === "confirmed") &&
    (p.reason ?? "").startsWith("credited_pull:") &&
    p.reason!.slice("credited_pull:".length).split(",").includes(recipient.toLowerCase())
  );
}

/**
 * POST /receipts/verify. A receipt naming this server as issuer is checked
 * against this server's own keys only — a caller-supplied manifest cannot vouch for a receipt
 * forged in our name. Any other manifest speaks only for the origin it was fetched from
 * (`manifest_origin`, §6.1 step 5: the keys come from the issuer's /.well-known/oabp.json), so
 * the receipt's issuer must equal that origin.
 */
export function verifyReceiptFor(
  ctx: Ctx,
  {
    receipt,
    manifest,
    manifestOrigin,
  }: { receipt: unknown; manifest?: Record<string, unknown> | undefined; manifestOrigin?: string | undefined },
): Promise<ReceiptVerification> {
  const { deps } = ctx;
  const ours = new URL(deps.config.publicUrl).origin;
  const issuer = typeof receipt === "object" && receipt !== null ? (receipt as { issuer?: unknown }).issuer : undefined;
  if (!manifest || (typeof issuer === "string" && originOf(issuer) === ours)) {
    return verifyReceipt(receipt, manifestObject(deps), { issuer: deps.config.publicUrl });
  }
  const origin = manifestOrigin ? originOf(manifestOrigin) : undefined;
  if (!origin)
    throw new AppError(
      "INVALID_PARAMETER",
      "manifest_origin (the origin the manifest was fetched from) is required with a manifest",
      { field: "manifest_origin" },
    );
  return verifyReceipt(receipt, manifest, { issuer: origin });
}

function originOf(url: string): string | undefined {
  try {
    const o = new URL(url).origin;
    return o === "null" ? undefined : o;
  } catch {
    return undefined;
  }
}
