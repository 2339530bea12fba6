import { sql } from "drizzle-orm";
import { checkMinReward } from "./missions.min-reward";
import type { DbOrTx } from "../../db/client";
import { agentRecords, ELIGIBILITY_LIST_MAX, missions, webhookEvents } from "../../db/schema/index";
import { normalizeAddress } from "../../lib/address";
import { agentOf, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { onceTx } from "../../lib/idempotency";
import { findAsset, parseUint } from "../../lib/money";
import { fromRaised, jsonRow, rowFromJson } from "../../db/write-functions";
import { rowsOf, type MissionRow } from "../../db/rows";
import { DECAY_WINDOW, withDecayWritten } from "../reputation";
import { assertSkillExists } from "../mesh";
import { agentAccount, escrowAccount, treasuryAccount, transferArg } from "../ledger";
import { baseRailTerms, escrowRecordFor, ESCROW_MAX_RECIPIENTS, refundAfterFor, signedOnlyUntilFor } from "../rail";
import { emittedIn, eventRow, missionCreated, wakeEventHubs } from "../../db/outbox";
import type { CreateMissionInput, EligibilityInput, MissionWire } from "./missions.schemas";
import { validateVerificationParams } from "./missions.verification";
import { validateMissionType } from "./missions.types";
import { missionToWire } from "./missions.wire";
import { checkPostingGate } from "./missions.gate";

/**
 * POST /missions. On the ledger rail the creator's balance is debited reward + spam fee in the
 * same transaction that writes the mission, so a mission is never open without escrow (AIP-1 §6).
 * Locking: the creator's ledger account row (FOR UPDATE) serialises concurrent creations; the
 * idempotency key row (unique index) makes a retried request run once.
 */
export async function createMission(ctx: Ctx, input: CreateMissionInput): Promise<MissionWire> {
  const creator = agentOf(ctx);
  // The suspension check runs first thing in the transaction below.
  await checkPostingGate(ctx, creator);
  if (input.creator !== undefined && normalizeAddress(input.creator) !== creator) {
    throw new AppError("FORBIDDEN", "creator must be the authenticated address", { field: "creator" });
  }
  const terms = createTerms(ctx, input);
  return insertMission(ctx, missionRow(ctx, input, creator, terms), terms);
}

type CreateTerms = ReturnType<typeof createTerms>;

/** The request checked against the deployment: asset, amount, rail, deadline, verification, eligibility. */
function createTerms(ctx: Ctx, input: CreateMissionInput) {
  const { deps, now } = ctx;
  const asset = findAsset(deps.config.assets, input.reward.asset);
  if (!asset) {
    throw new AppError("UNPROCESSABLE", `unknown asset ${input.reward.asset}`, {
      field: "reward.asset",
      reason: "unknown_asset",
      known: deps.config.assets.map((a) => a.symbol),
    });
  }
  const amount = parseUint(input.reward.amount);
  if (amount <= 0n)
    throw new AppError("INVALID_PARAMETER", "reward.amount must be a positive integer", { field: "reward.amount" });
  checkMinReward(asset, amount); // before the transaction that takes the spam fee
  const chain = input.reward.chain ?? "ledger";
  // The base rail needs the chain port and the asset's token there (422 otherwise).
  const railTerms = chain === "base" ? baseRailTerms(deps, asset) : null;
  const deadline = new Date(input.deadline);
  if (deadline.getTime() <= now.getTime()) {
    throw new AppError("UNPROCESSABLE", "deadline must be in the future", {
      field: "deadline",
      reason: "deadline_in_past",
    });
  }
  const checked = verificationTerms(ctx, input, deadline, { asset: asset.symbol, amount });
  assertFitsRail(chain, checked.verification);
  const spamFee = parseUint(asset.spam_fee);
  const gate = eligibilityOf(input, agentOf(ctx), ELIGIBILITY_LIST_MAX);
  return { asset, amount, chain, railTerms, deadline, spamFee, gate, ...checked };
}

/** The mission type (AIP-2) and the verification method with its parameters, and their warnings. */
function verificationTerms(
  ctx: Ctx,
  input: CreateMissionInput,
  deadline: Date,
  reward: { asset: string; amount: bigint },
) {
  const { config } = ctx.deps;
  // AIP-2 first: a type the method cannot verify at all (§3.9) is the clearer error.
  const typed = validateMissionType({
    missionType: input.mission_type,
    typeParams: input.type_params,
    verification: { type: input.verification.type, params: input.verification.params ?? {} },
  });
  const { verification, params, warnings } = validateVerificationParams(
    {
      deadline,
      assets: config.assets,
      knownOracles: config.oracles.map((o) => o.address),
      rpcConfigured: config.rpcUrl !== undefined,
      reward,
      defaultAppeal: config.defaultAppeal,
      judgingWindowSeconds: config.judgingWindowSeconds,
    },
    { type: input.verification.type, params: input.verification.params },
  );
  warnings.push(...typed.warnings);
  return { typed, verification, params, warnings };
}

/** Winners fit the contract: one release pays at most ESCROW_MAX_RECIPIENTS. */
function assertFitsRail(chain: string, verification: CreateTerms["verification"]): void {
  if (
    chain === "base" &&
    verification.type === "creator_judges" &&
    verification.params.max_winners > ESCROW_MAX_RECIPIENTS
  ) {
    throw new AppError(
      "UNPROCESSABLE",
      `verification.params.max_winners: at most ${ESCROW_MAX_RECIPIENTS} on the base rail (one escrow release pays at most ${ESCROW_MAX_RECIPIENTS} recipients)`,
      { field: "verification.params.max_winners", reason: "too_many_winners_for_rail", max: ESCROW_MAX_RECIPIENTS },
    );
  }
}

/** The new mission's row; a base-rail one waits, unlisted, until its deposit is confirmed on chain (AIP-1 §6). */
function missionRow(ctx: Ctx, input: CreateMissionInput, creator: string, t: CreateTerms) {
  const { deps, now } = ctx;
  const id = newId("mis", now.getTime());
  const escrow = t.railTerms
    ? escrowRecordFor(t.railTerms, {
        missionId: id,
        refundAfter: refundAfterFor(deps.config, { deadline: t.deadline, verification: t.verification }),
        signedOnlyUntil:
          deps.chain?.versionOf() === "4"
            ? signedOnlyUntilFor(deps.config, { deadline: t.deadline, verification: t.verification })
            : undefined,
      })
    : null;
  return {
    id,
    creator,
    title: input.title,
    description: input.description,
    rewardAsset: t.asset.symbol,
    rewardAmount: t.amount.toString(),
    rewardChain: t.chain,
    spamFee: t.spamFee.toString(),
    verificationType: input.verification.type,
    verificationParams: t.params,
    missionType: t.typed.missionType,
    typeParams: t.typed.typeParams,
    minSubmitterElo: t.gate.minSubmitterElo,
    minCompleted: t.gate.minCompleted,
    audience: t.gate.audience,
    allowList: t.gate.allowList,
    blockList: t.gate.blockList,
    deadline: t.deadline,
    status: escrow ? "pending_escrow" : "open",
    phase: escrow ? "awaiting_escrow" : "accepting_submissions",
    payoutStatus: "not_applicable",
    tags: [...new Set(input.tags ?? [])],
    skillId: input.skill_id ?? null,
    warnings: t.warnings,
    submissionCount: 0,
    amendmentsCount: 0,
    claimCount: 0,
    qaCount: 0,
    qaPinnedCount: 0,
    maxClaims: input.max_claims ?? null,
    language: input.language ?? null,
    exclusiveClaimTtl: input.exclusive_claim_ttl ?? null,
    exclusiveHolder: null,
    exclusiveUntil: null,
    winnerSubmissionId: null,
    winnerAgentId: null,
    nextActionAt: t.deadline, // the sweeper closes submissions at the deadline
    judgingDeadline: null,
    resolutionReason: null,
    feeAmount: null,
    payouts: null,
    award: null,
    resolvedAt: null,
    voidedAt: null,
    payoutStatusReason: null,
    payoutStatusUpdatedAt: null,
    escrowKey: escrow?.mission_key ?? null,
    escrow,
    payoutTxHash: null,
    hiddenAt: null,
    hiddenReason: null,
    createdAt: now,
    updatedAt: now,
  } satisfies Omit<MissionRow, "search">;
}

/**
 * The mission, the creator's activity, its event and on the ledger rail its funding transfer, in
 * one statement: the write function `oabp_create_mission` (drizzle/0042_writes_sql_functions.sql;
 * docs/decisions/storage.md "A write is one statement"), on its own as one implicit transaction,
 * or inside the transaction that claims an Idempotency-Key. Decay owed by the creator is written
 * first, in a transaction of its own, and the statement sent again.
 */
async function insertMission(
  ctx: Ctx,
  row: ReturnType<typeof missionRow>,
  t: Pick<CreateTerms, "asset" | "amount" | "spamFee">,
): Promise<MissionWire> {
  const { now, deps } = ctx;
  const { creator, id } = row;
  if (row.skillId !== null) await assertSkillExists(ctx.tx ?? deps.database.db, row.skillId);
  const open = row.status === "open";
  const arg = JSON.stringify({
    mission: jsonRow(missions, row),
    // Webhooks: mission.created only once the mission is public (open); a pending_escrow one
    // emits it when its deposit opens it.
    event: open ? jsonRow(webhookEvents, eventRow(missionCreated(row, now))) : null,
    transfer: row.escrow
      ? null
      : transferArg({
          asset: t.asset.symbol,
          kind: "mission_funding",
          ref: id,
          at: now,
          postings: [
            { account: agentAccount(creator), amount: -(t.amount + t.spamFee) },
            { account: escrowAccount(id), amount: t.amount },
            { account: treasuryAccount(id), amount: t.spamFee },
          ],
        }).arg,
    now: now.toISOString(),
    ...DECAY_WINDOW,
  });
  const run = async (db: DbOrTx): Promise<MissionWire> => {
    const [r] = rowsOf<{ record: unknown }>(await db.execute(sql`select oabp_create_mission(${arg}::jsonb) as record`));
    return missionToWire(ctx, { row, viewer: creator, record: rowFromJson(agentRecords, r?.record) ?? null });
  };
  const once = async () => {
    if (ctx.tx || ctx.idempotency)
      return onceTx(ctx, (tx) => {
        if (open) emittedIn(tx);
        return run(tx);
      });
    const wire = await run(deps.database.db);
    if (open) wakeEventHubs(deps.database, "emitted");
    return wire;
  };
  return withDecayWritten(ctx, { agentId: creator, run: once, refused: fromRaised });
}

/**
 * The create request's eligibility as columns. `min_rating` is the AIP-2 §4.1
 * min_submitter_elo under its earlier name; giving both with different values is refused. Lists
 * are normalised (lowercase, deduplicated) and bounded by ELIGIBILITY_LIST_MAX.
 */
function eligibilityOf(input: CreateMissionInput, creator: string, listMax: number) {
  const e: EligibilityInput = input.eligibility ?? {};
  if (e.min_rating !== undefined && input.min_submitter_elo !== undefined && e.min_rating !== input.min_submitter_elo)
    throw new AppError("UNPROCESSABLE", "eligibility.min_rating and min_submitter_elo disagree (they are one gate)", {
      field: "eligibility.min_rating",
      reason: "conflicting_min_rating",
    });
  const list = (field: "allow" | "block") => {
    const raw = e[field];
    if (raw === undefined) return undefined;
    const out = new Set<string>();
    for (const a of raw) {
      const n = normalizeAddress(a);
      if (!n)
        throw new AppError("INVALID_PARAMETER", `eligibility.${field}: ${a} is not a valid address (EIP-55)`, {
          field: `eligibility.${field}`,
        });
      out.add(n);
    }
    if (out.size > listMax)
      throw new AppError("UNPROCESSABLE", `eligibility.${field}: at most ${listMax} addresses`, {
        field: `eligibility.${field}`,
        reason: "list_too_long",
        max: listMax,
      });
    return [...out];
  };
  const allow = list("allow");
  const block = list("block") ?? [];
  const blocked = new Set(block);
  const both = allow?.filter((a) => blocked.has(a)) ?? [];
  if (both.length > 0)
    throw new AppError("UNPROCESSABLE", "an address cannot be on both the allow-list and the block-list", {
      field: "eligibility",
      reason: "allowed_and_blocked",
      addresses: both.slice(0, 10),
    });
  if (blocked.has(creator))
    throw new AppError("UNPROCESSABLE", "eligibility.block: the creator cannot block itself", {
      field: "eligibility.block",
      reason: "self_blocked",
    });
  return {
    minSubmitterElo: e.min_rating ?? input.min_submitter_elo ?? 0,
    minCompleted: e.min_completed ?? 0,
    audience: e.audience ?? ("anyone" as const),
    allowList: allow ?? null,
    blockList: block,
  };
}
