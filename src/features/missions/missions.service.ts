import { and, desc, eq } from "drizzle-orm";
import { checkMinReward } from "./missions.min-reward";
import type { DbOrTx, Tx } from "../../db/client";
import { agentBlocklist, agentRecords, ELIGIBILITY_LIST_MAX, missions } from "../../db/schema/index";
import { normalizeAddress } from "../../lib/address";
import { agentOf, type Ctx, dbOf, viewerOf, withTx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { isId, newId } from "../../lib/ids";
import { onceTx, stableStringify } from "../../lib/idempotency";
import { findAsset, parseUint } from "../../lib/money";
import { pipelined } from "../../db/pipelined";
import { insertRows } from "../../db/insert-rows";
import { recordActivity } from "../reputation";
import { assertSkillExists } from "../mesh";
import { agentAccount, escrowAccount, transfer, treasuryAccount } from "../ledger";
import { voidAndRefund } from "../settlement";
import { baseRailTerms, escrowRecordFor, ESCROW_MAX_RECIPIENTS, refundAfterFor, signedOnlyUntilFor } from "../rail";
import { emitMissionCreated } from "../../db/outbox";
import type { CreateMissionInput, EligibilityInput, ListMissionsFilters, MissionWire } from "./missions.schemas";
import { creatorRecordCompact, type CreatorRecordCompactRow, recordOf } from "../records";
import {
  creatorRecord,
  type ListConditions,
  listWhere,
  MISSION_REF,
  MISSION_WITH_RECORD,
  newestPublic,
  prepared,
  toPrefixTsquery,
} from "./missions.queries";
import {
  type MissionRef,
  missionAnswers,
  missionDocsFor,
  pageBody,
  pageEtag,
  withCreatorRecord,
} from "./missions.docs";
import { assertVisible, findMissionRow, findVisibleMission, lockMission, viewerFor } from "../../db/mission-visibility";
import { validateVerificationParams } from "./missions.verification";
import { validateMissionType } from "./missions.types";
import { missionToWire } from "./missions.wire";
import { withViewerBlockedList } from "./missions.viewer";
import type { MissionRow } from "../../db/rows";
import { assertNotSuspended } from "../../db/suspension";
import { checkPostingGate } from "./missions.gate";
import { listFreshness } from "./missions.cache";
import { decodeIdCursor, keysetPage } from "../../lib/cursor";

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
  return onceTx(ctx, (tx) => insertMission(ctx, tx, missionRow(ctx, input, creator, terms), terms));
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
 * The mission, its event, the creator's activity and record, and on the ledger rail the funding
 * transfer, in two round trips (docs/decisions/storage.md "Writes in few round trips"): everything goes
 * out together, in this order; the transfer's second half (append the entries, move the heads)
 * follows once its locked rows are back.
 */
async function insertMission(
  ctx: Ctx,
  tx: Tx,
  row: ReturnType<typeof missionRow>,
  t: Pick<CreateTerms, "asset" | "amount" | "spamFee">,
): Promise<MissionWire> {
  const { now } = ctx;
  const { creator, id } = row;
  const [, , , , , record] = await pipelined(
    () => assertNotSuspended(tx, creator, now), // docs/moderation.md "Suspension"
    () => (row.skillId !== null ? assertSkillExists(tx, row.skillId) : undefined),
    // The agent row (seen, active) before the ledger rows: the lock order.
    () => recordActivity({ tx, now }, { agentId: creator, seen: true }),
    () => insertRows(tx, missions, [row]),
    // Webhooks: mission.created only once the mission is public (open); a pending_escrow one
    // emits it when its deposit opens it.
    () => (row.status === "open" ? emitMissionCreated(tx, row, now) : undefined),
    // The creator's record as the insert trigger just left it.
    () => recordOf(tx, creator),
    // The funding transfer last: its account locks are then held only until the commit.
    () =>
      row.escrow
        ? undefined
        : transfer(tx, {
            asset: t.asset.symbol,
            kind: "mission_funding",
            ref: id,
            at: now,
            postings: [
              { account: agentAccount(creator), amount: -(t.amount + t.spamFee) },
              { account: escrowAccount(id), amount: t.amount },
              { account: treasuryAccount(id), amount: t.spamFee },
            ],
          }),
  );
  return missionToWire(ctx, { row, viewer: row.creator, record: record ?? null });
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

/** GET /missions/{id}: pending_escrow missions are visible to their creator only. */
export async function getMission(ctx: Ctx, input: { id: string }): Promise<MissionWire> {
  const viewer = viewerOf(ctx);
  // Outside a transaction: the row and its creator's record in one prepared read.
  if (!ctx.tx) {
    const [row] = isId("mis", input.id)
      ? await prepared(ctx.read?.db ?? ctx.deps.database.db).byIdWithRecord.execute({ id: input.id })
      : [];
    // The operator (admin token) reads hidden missions too (docs/moderation.md).
    const m = assertVisible(row, input.id, viewerFor(ctx));
    return withViewerBlocked(
      ctx.read?.db ?? ctx.deps.database.db,
      missionToWire(ctx, { row: m, viewer, record: m.record }),
      viewer,
    );
  }
  const row = await findVisibleMission(ctx, input.id, viewerFor(ctx));
  const record = await recordOf(ctx.tx, row.creator);
  return withViewerBlocked(ctx.tx, missionToWire(ctx, { row, viewer, record: record ?? null }), viewer);
}

/**
 * AIP-2 §4.1 "every eligibility gate": the creator's standing block-list (agents/blocklist) is
 * enforced at submit (403 `blocked`), so the signed-in reader of a mission learns it here first —
 * whether it is blocked, never the list (docs/decisions.md "Eligibility"). One primary-key read.
 */
async function withViewerBlocked(db: DbOrTx, w: MissionWire, viewer: string | undefined): Promise<MissionWire> {
  if (viewer === undefined || viewer === w.creator || w.eligibility.viewer_blocked) return w;
  const [hit] = await db
    .select({ b: agentBlocklist.blocked })
    .from(agentBlocklist)
    .where(and(eq(agentBlocklist.owner, w.creator), eq(agentBlocklist.blocked, viewer)))
    .limit(1);
  return hit ? { ...w, eligibility: { ...w.eligibility, viewer_blocked: true } } : w;
}

/**
 * GET /missions/{id} for an anonymous reader: the mission's cached document (the same
 * bytes lists serve) plus its creator's record, with an ETag from (id, row_version, record). One
 * conditional read by primary key — the row's version and its creator's record, read where the
 * request's reads go (so a write token and every committed change are seen, whichever process
 * wrote) — then, when neither moved, the answer this instance already assembled: no serialisation,
 * no hashing, no copy. Undefined when the reader is not anonymous or the mission is not public:
 * getMission answers those.
 */
export async function missionDocById(ctx: Ctx, id: string): Promise<{ etag: string; body: Buffer } | undefined> {
  if (ctx.tx || ctx.caller.kind !== "anonymous" || !isId("mis", id)) return undefined;
  const db = ctx.read?.db ?? ctx.deps.database.db;
  const [ref] = await prepared(db).refPublicById.execute({ id });
  if (!ref) return undefined;
  const record = JSON.stringify(creatorRecordCompact(ref.record ?? undefined));
  const answers = missionAnswers(ctx.deps);
  const hit = answers.get(id, ref.version);
  if (hit?.record === record) return hit;
  const {
    docs: [doc],
    served: [at],
  } = await missionDocsFor({ deps: ctx.deps, db }, [ref]);
  if (!doc || !at) return undefined;
  const body = withCreatorRecord(doc, record);
  const answer = {
    record,
    etag: pageEtag(ctx, { refs: [at], next: null, records: new Map([[ref.creator, record]]) }),
    body,
    length: body.length,
  };
  answers.set(id, at.version, answer);
  return answer;
}

/**
 * GET /missions as JSON with its ETag (MCP list_missions carries the same bytes), served from the instance's list cache (cleared on every
 * committed mission change; see missions.cache.ts). Filters are zod-validated, so unknown
 * parameters cannot multiply cache keys. A miss assembles the page from serialized missions
 * (missions.docs.ts): one narrow query, the documents from the (id, row_version) cache. The
 * stored text is "etag\nbody", so a hit — and a 304 — costs no hashing. With the list cache off
 * (OABP_LIST_CACHE_BYTES=0) the page goes out as the bytes it was assembled into. Entries are
 * stamped with the database position they include, so a reader presenting a newer write token
 * (OABP-Read-After) gets a refill, never an entry older than its write.
 */
export async function listMissionsDoc(
  ctx: Ctx,
  f: ListMissionsFilters,
): Promise<{ etag: string; body: string | Uint8Array }> {
  return withViewerBlockedList(ctx, await sharedListDoc(ctx, f));
}

/** The page every reader shares (viewer_blocked null), from this instance's list cache. */
async function sharedListDoc(ctx: Ctx, f: ListMissionsFilters): Promise<{ etag: string; body: string | Uint8Array }> {
  if (!ctx.deps.missionLists.enabled) return listMissionsPage(ctx, f);
  const text = await ctx.deps.missionLists.get(
    stableStringify(f),
    async () => {
      const doc = await listMissionsPage(ctx, f);
      return `${doc.etag}\n${doc.body.toString("utf8")}`;
    },
    listFreshness(ctx),
  );
  const nl = text.indexOf("\n");
  return { etag: text.slice(0, nl), body: text.slice(nl + 1) };
}

/** The same list as JSON text (A2A reads it). */
export async function listMissionsJson(ctx: Ctx, f: ListMissionsFilters): Promise<string> {
  return missionDocText(await listMissionsDoc(ctx, f));
}

/** A pre-serialised document's JSON text. */
const missionDocText = ({ body }: { body: string | Uint8Array }) =>
  typeof body === "string" ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");

/** One page as JSON text, from (id, row_version) refs and cached serialized missions. */
async function listMissionsPage(ctx: Ctx, f: ListMissionsFilters): Promise<{ etag: string; body: Buffer }> {
  const { deps } = ctx;
  const db = dbOf(ctx);
  const before = decodeIdCursor(f.cursor, "mis");
  let refs: MissionRef[];
  if (isPlain(f)) {
    refs = await newestPublic(prepared(db).refsPublic, { before, limit: f.limit + 1 });
  } else {
    const where = conditionsOf(ctx, f, before);
    refs = where
      ? await db
          .select(MISSION_REF)
          .from(missions)
          .leftJoin(agentRecords, creatorRecord)
          .where(listWhere(where))
          .orderBy(desc(missions.id))
          .limit(f.limit + 1)
      : [];
  }
  const { page, next_cursor: next } = keysetPage(refs, f.limit);
  const { docs, served } = await missionDocsFor({ deps, db }, page);
  const records = new Map(
    page.map((r) => [r.creator, JSON.stringify(creatorRecordCompact(r.record ?? undefined))] as const),
  );
  return {
    etag: pageEtag(ctx, { refs: served, next, records }),
    body: pageBody(
      docs.map((d, i) => withCreatorRecord(d, records.get(served[i]!.creator))),
      next,
    ),
  };
}

function isPlain(f: ListMissionsFilters): boolean {
  return (
    !f.mission_type &&
    !f.status &&
    !f.verification_type &&
    !f.asset &&
    !f.creator &&
    !f.tag &&
    !f.q &&
    !f.reward_min &&
    !f.reward_max &&
    !f.deadline_after &&
    !f.deadline_before &&
    f.creator_min_paid_ratio === undefined &&
    f.creator_max_never_judged === undefined
  );
}

/** The validated filters as list conditions; null when nothing can match (a query with no words). */
function conditionsOf(ctx: Ctx, f: ListMissionsFilters, before: string | undefined): ListConditions | null {
  let creator: string | undefined;
  if (f.creator) {
    creator = normalizeAddress(f.creator) ?? undefined;
    if (!creator) throw new AppError("INVALID_PARAMETER", "creator must be an EVM address", { field: "creator" });
  }
  const asset = f.asset ? (findAsset(ctx.deps.config.assets, f.asset)?.symbol ?? f.asset) : undefined;
  const tsquery = f.q ? (toPrefixTsquery(f.q) ?? undefined) : undefined;
  if (f.q && !tsquery) return null;
  return {
    statuses: f.status,
    missionTypes: f.mission_type,
    verificationType: f.verification_type,
    asset,
    creator,
    tag: f.tag?.toLowerCase(),
    tsquery,
    rewardMin: f.reward_min,
    rewardMax: f.reward_max,
    deadlineAfter: f.deadline_after ? new Date(f.deadline_after) : undefined,
    deadlineBefore: f.deadline_before ? new Date(f.deadline_before) : undefined,
    creatorMinPaidRatioBp:
      f.creator_min_paid_ratio === undefined ? undefined : Math.ceil(f.creator_min_paid_ratio * 10_000),
    creatorMaxNeverJudged: f.creator_max_never_judged,
    before,
    pageRows: f.limit + 1,
  };
}

/** GET /missions: public statuses only, newest first, keyset cursor on the time-ordered id. */
export async function listMissions(
  ctx: Ctx,
  f: ListMissionsFilters,
): Promise<{ missions: MissionWire[]; next_cursor: string | null }> {
  const before = decodeIdCursor(f.cursor, "mis");
  const db = dbOf(ctx);
  let rows: (Omit<MissionRow, "search"> & { record: CreatorRecordCompactRow | null })[];
  if (isPlain(f)) {
    rows = await newestPublic(prepared(db).listPublic, { before, limit: f.limit + 1 });
  } else {
    const where = conditionsOf(ctx, f, before);
    if (!where) return { missions: [], next_cursor: null };
    rows = await db
      .select(MISSION_WITH_RECORD)
      .from(missions)
      .leftJoin(agentRecords, creatorRecord)
      .where(listWhere(where))
      .orderBy(desc(missions.id))
      .limit(f.limit + 1);
  }
  const { page, next_cursor: next } = keysetPage(rows, f.limit);
  // Each creator's record came joined with its row.
  return {
    missions: page.map((r) => missionToWire(ctx, { row: r, record: r.record })),
    next_cursor: next,
  };
}

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
