import type { MissionWire } from "./missions.schemas";
import { escrowToWire } from "../escrow";
import { serverChecks, typeSchemaPath } from "./missions.types";
import { wireSha256 } from "../../lib/hash";
import { receiptPath } from "../../lib/receipt-path";
import { missionViewPath } from "../../lib/view-paths";
import type { MissionRow } from "../../db/rows";
import type { Deps } from "../../deps";
import { creatorRecordCompact, type CreatorRecordCompactRow } from "../records";

/**
 * The mission's eligibility on the wire. The lists' contents are the creator's
 * business (an invite list names its invitees, a block-list its grudges): others see counts, and a
 * signed-in reader of an invite-only mission whether it is on the list.
 */
function eligibilityToWire(
  m: Pick<MissionRow, "creator" | "minSubmitterElo" | "minCompleted" | "audience" | "allowList" | "blockList">,
  viewer: string | undefined,
): MissionWire["eligibility"] {
  const own = viewer !== undefined && viewer === m.creator;
  return {
    min_rating: m.minSubmitterElo,
    min_completed: m.minCompleted,
    audience: m.audience,
    invite_only: m.allowList !== null,
    allow_count: m.allowList?.length ?? null,
    allow: own ? m.allowList : null,
    viewer_allowed: m.allowList !== null && viewer !== undefined ? own || m.allowList.includes(viewer) : null,
    block_count: m.blockList.length,
    block: own && m.blockList.length > 0 ? m.blockList : null,
    // The mission's own list here; the creator's standing list is added by the detail read
    // (withViewerBlocked), the one answer an agent reads before it submits.
    viewer_blocked: viewer !== undefined && !own ? m.blockList.includes(viewer) : null,
  };
}

/** AIP-1 §4.2 target_hash in the §3 "0x…" form on the wire (stored sha256:<hex>). */
function wireParams(p: Record<string, unknown>): Record<string, unknown> {
  return typeof p.target_hash === "string" ? { ...p, target_hash: wireSha256(p.target_hash) } : p;
}

/**
 * Sealed answers: a first_valid_match `expected` literal
 * (match_mode substring or exact) is the answer itself, so while the mission can still be won it
 * is served to its creator only; others see `expected_sealed: true`. A regex pattern stays public
 * (it describes the form of an answer, and solvers need it). Once the mission is resolved or voided
 * the terms are served whole, so anyone can recompute a receipt's mission_hash (AIP-1 §6.1).
 */
function verificationParamsFor(
  m: Pick<MissionRow, "verificationType" | "verificationParams" | "creator" | "status">,
  viewer: string | undefined,
): Record<string, unknown> {
  const p = m.verificationParams;
  const decided = m.status === "resolved" || m.status === "voided";
  if (
    m.verificationType !== "first_valid_match" ||
    p.expected === undefined ||
    p.match_mode === "regex" ||
    decided ||
    viewer === m.creator
  )
    return p;
  const { expected: _sealed, ...rest } = p;
  return { ...rest, expected_sealed: true };
}

const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** A decided mission's resolution: its winners, each linking its signed receipt once resolved. */
function resolutionToWire(m: Omit<MissionRow, "search">, publicUrl: string): MissionWire["resolution"] {
  if (m.winnerSubmissionId === null) return null;
  const receipt = (submissionId: string) =>
    m.status === "resolved" ? `${publicUrl}${receiptPath(m.id, submissionId)}` : null;
  return {
    winner_submission_id: m.winnerSubmissionId,
    winner_agent_id: m.winnerAgentId,
    // AIP-1 §6.1: the winner's signed receipt (one per paid submission; see resolution.winners).
    receipt_uri: receipt(m.winnerSubmissionId),
    // AIP-1 §6.1: every winner links its own receipt.
    winners: (m.payouts ?? []).map((p) => ({ ...p, receipt_uri: receipt(p.submission_id) })),
    fee_amount: m.feeAmount,
    resolved_at: isoOrNull(m.resolvedAt),
  };
}

/** What a mission becomes on the wire: the row, who reads it, and its creator's record when the read fetched it. */
interface MissionToWire {
  row: MissionRow;
  /** The reader: the creator's answers are unsealed for the creator. */
  viewer?: string | undefined;
  /** The creator's record as the read fetched it (null: fetched, no record yet); left out, no `creator_record`. */
  record?: CreatorRecordCompactRow | null;
}

/** Row → AIP-1 §2 wire shape (explicit mapping, docs/style.md rule 6); the URLs under the context's public URL. */
export function missionToWire(
  { deps }: { deps: Pick<Deps, "config"> },
  { row: m, viewer, record: creatorRecord }: MissionToWire,
): MissionWire {
  const { publicUrl } = deps.config;
  return {
    id: m.id,
    creator: m.creator,
    title: m.title,
    description: m.description,
    reward: { asset: m.rewardAsset, amount: m.rewardAmount, chain: m.rewardChain },
    verification: { type: m.verificationType, params: wireParams(verificationParamsFor(m, viewer)) },
    deadline: m.deadline.toISOString(),
    status: m.status,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
    phase: m.phase,
    payout_status: m.payoutStatus,
    // AIP-1 Appendix B: why the payout is in that state and since when.
    payout_status_reason: m.payoutStatusReason,
    payout_status_updated_at: isoOrNull(m.payoutStatusUpdatedAt),
    spam_fee: m.spamFee,
    tags: m.tags,
    warnings: m.warnings,
    submission_count: m.submissionCount,
    amendments_count: m.amendmentsCount,
    // Claims only mean something while the mission is open (docs/decisions.md "Claims").
    claim_count: m.status === "open" ? m.claimCount : 0,
    max_claims: m.maxClaims,
    language: m.language,
    exclusive_claim_ttl: m.exclusiveClaimTtl,
    // Mission Q&A: the thread's counts, kept on the mission row.
    qa: {
      count: m.qaCount,
      pinned_count: m.qaPinnedCount,
      questions_url: `${publicUrl}/api/missions/${m.id}/questions`,
    },
    judging_deadline: isoOrNull(m.judgingDeadline),
    resolution_reason: m.resolutionReason,
    // The creator's release signatures stay server-side (they reach the chain with the release).
    award: m.award ? (({ release_signatures: _sigs, ...a }) => a)(m.award) : null,
    resolution: resolutionToWire(m, publicUrl),
    escrow: escrowToWire(m),
    mission_type: m.missionType,
    type_params: m.typeParams,
    // AIP-2 App. B: the JSON Schema this mission's type_params follow.
    type_params_schema_url: `${publicUrl}${typeSchemaPath(m.missionType)}`,
    server_checks: serverChecks(m.missionType, m.typeParams),
    // AIP-2 §4.1: the ELO gate is enforced at submit; there is no tier gate ("0 / Newcomer").
    min_submitter_elo: m.minSubmitterElo,
    eligibility: eligibilityToWire(m, viewer),
    // Agent Mesh (docs/neighbours.md): present only on missions that name a skill.
    ...(m.skillId ? { skill_id: m.skillId } : {}),
    required_submitter_tier: 0,
    required_submitter_tier_name: "Newcomer",
    // The HTML mission page; the JSON stays at /missions/{id} (api_url).
    view_url: `${publicUrl}${missionViewPath(m.id)}`,
    // AIP-2 §4 continuation links.
    api_url: `${publicUrl}/api/missions/${m.id}`,
    submit_url: `${publicUrl}/api/missions/${m.id}/submit`,
    claim_url: `${publicUrl}/api/missions/${m.id}/claims`,
    amendments_url: `${publicUrl}/api/missions/${m.id}/amendments`,
    submissions_url: `${publicUrl}/api/missions/${m.id}/submissions`,
    // The only externally callable resolution step: the creator's award (POST, creator only).
    resolve_url: m.verificationType === "creator_judges" ? `${publicUrl}/api/missions/${m.id}/award` : null,
    // Only its creator and the operator ever read a hidden mission (db/mission-visibility.ts).
    ...(m.hiddenAt ? { hidden: true as const, hidden_reason: m.hiddenReason ?? "" } : {}),
    // Given by the reads that fetched it (null = fetched, no record yet). Last:
    // cached list documents omit it and a page appends it (missions.docs.ts withCreatorRecord).
    ...(creatorRecord !== undefined && { creator_record: creatorRecordCompact(creatorRecord ?? undefined) }),
  };
}
