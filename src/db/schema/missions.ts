import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { money, oneOf, ts, tsvector, timestamps, isSet } from "./types";
import {
  MISSION_AUDIENCES,
  MISSION_PHASES,
  MISSION_STATUSES,
  PAYOUT_STATUSES,
  REWARD_CHAINS,
  VERIFICATION_TYPES,
} from "../vocabulary";

/** Entries in a mission's eligibility allow-list and block-list, each (allow_list, block_list); published in the manifest. */
export const ELIGIBILITY_LIST_MAX = 200;

/** The recorded award of a creator_judges mission under appeal (src/features/verification/appeal.ts). */
export interface AwardRecord {
  winners: { submission_id: string; agent_id: string; weight: number }[];
  awarded_at: string;
  appeal_deadline: string; // end of the dispute window
  voting_deadline: string | null; // set when disputes reached the quorum
  dispute_stake: string | null; // total disputed stake when the window closed
  outcome: "undisputed" | "upheld" | "overturned" | null; // null while undecided
  /** base rail: the creator's EIP-712 release signatures by escrow key (docs/base-rail.md "Release paths"); used only if the award stands. */
  release_signatures?: Record<string, string>;
}

/** base rail: the escrow terms fixed at creation, and the live deposit behind the mission. */
export interface EscrowRecord {
  chain_id: number;
  contract: string;
  token: string;
  mission_key: string;
  /** Contract v2: the earliest refund-after time (unix seconds) a deposit must carry (fundUntil). Absent on older missions. */
  refund_after?: number;
  /**
   * Contract v4: the signed-only time (unix seconds, 0: none) the deposit is funded with: before it
   * the slot moves only by the funder's signed release or a refund (docs/base-rail.md "Trust model
   * (contract v4)"). Absent on missions of an older contract.
   */
  signed_only_until?: number;
  deposit: {
    id: string;
    status: string;
    tx_hash: string;
    log_index: number;
    funder: string;
    block_number: number;
  } | null;
}

// AIP-1 §2 mission record plus our fields (docs/design.md "Missions").
export const missions = pgTable(
  "missions",
  {
    id: text("id").primaryKey(), // mis_<ulid>: time-ordered, the keyset pagination key
    creator: text("creator").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    rewardAsset: text("reward_asset").notNull(),
    rewardAmount: money("reward_amount").notNull(),
    rewardChain: text("reward_chain", { enum: REWARD_CHAINS }).notNull(),
    spamFee: money("spam_fee").notNull(),
    verificationType: text("verification_type", { enum: VERIFICATION_TYPES }).notNull(),
    verificationParams: jsonb("verification_params").notNull().$type<Record<string, unknown>>(),
    // AIP-2 §1: the mission type (registered, `slug:type` custom, or freeform) and its validated
    // type_params; AIP-2 §4.1: the submitter ELO gate (0 = none), enforced at submit.
    missionType: text("mission_type").notNull().default("freeform"),
    typeParams: jsonb("type_params").notNull().default({}).$type<Record<string, unknown>>(),
    minSubmitterElo: integer("min_submitter_elo").notNull().default(0),
    // Eligibility (missions.eligibility.ts), enforced at claim and
    // submission: missions won, audience, an allow-list (null = anyone; invite-only otherwise) and
    // the creator's block-list for this mission (its standing one is agent_blocklist).
    minCompleted: integer("min_completed").notNull().default(0),
    audience: text("audience", { enum: MISSION_AUDIENCES }).notNull().default("anyone"),
    allowList: text("allow_list").array(),
    blockList: text("block_list").array().notNull().default([]),
    deadline: ts("deadline").notNull(),
    status: text("status", { enum: MISSION_STATUSES }).notNull(),
    phase: text("phase", { enum: MISSION_PHASES }).notNull(),
    payoutStatus: text("payout_status", { enum: PAYOUT_STATUSES }).notNull().default("not_applicable"),
    tags: text("tags").array().notNull().default([]),
    // Agent Mesh (docs/neighbours.md): the skill (mesh_skills.id) the creator wants used; null: none.
    skillId: text("skill_id"),
    warnings: text("warnings").array().notNull().default([]),
    submissionCount: integer("submission_count").notNull().default(0),
    // Applied amendments (mission_amendments): deadline extensions, top-ups, edits.
    amendmentsCount: integer("amendments_count").notNull().default(0),
    // Claims (docs/decisions.md "Claims"; features/claims): active claims, kept in step under the mission
    // row lock and by the expiry job; the claim policy set at creation; the exclusive hold in force
    // (written by a compare-and-set, see claims.service.ts).
    claimCount: integer("claim_count").notNull().default(0),
    maxClaims: integer("max_claims"),
    // The language the work is asked in and to be delivered in, a BCP 47 tag (null: not stated).
    language: text("language"),
    exclusiveClaimTtl: integer("exclusive_claim_ttl"), // seconds
    exclusiveHolder: text("exclusive_holder"),
    exclusiveUntil: ts("exclusive_until"),
    // Mission Q&A (features/qa): entries in the public thread and the pinned ones, kept in step
    // under the mission row lock with mission_questions.
    qaCount: integer("qa_count").notNull().default(0),
    qaPinnedCount: integer("qa_pinned_count").notNull().default(0),
    winnerSubmissionId: text("winner_submission_id"),
    winnerAgentId: text("winner_agent_id"),
    // The mission's own schedule: the sweeper looks at it when next_action_at has passed
    // (deadline, end of judging, voting deadline, oracle poll). Null once resolved or voided.
    nextActionAt: ts("next_action_at"),
    judgingDeadline: ts("judging_deadline"),
    resolutionReason: text("resolution_reason"),
    feeAmount: money("fee_amount"),
    payouts: jsonb("payouts").$type<{ submission_id: string; agent_id: string; amount: string }[]>(),
    // creator_judges with an `appeal` param: the creator's award, recorded but not yet paid while
    // it can be disputed (phase appeal) or is put to a peer vote (phase voting). Null otherwise.
    award: jsonb("award").$type<AwardRecord>(),
    resolvedAt: ts("resolved_at"),
    voidedAt: ts("voided_at"),
    payoutStatusReason: text("payout_status_reason"),
    // base rail: keccak256(bytes(id)), the key the creator funds on the escrow contract; the live
    // deposit behind the mission (kept in step with escrow_deposits, in the same transactions); and
    // the transaction of the payout (release or refund) once it is broadcast.
    escrowKey: text("escrow_key"),
    escrow: jsonb("escrow").$type<EscrowRecord>(),
    payoutTxHash: text("payout_tx_hash"),
    payoutStatusUpdatedAt: ts("payout_status_updated_at"),
    // Moderation (docs/moderation.md): set while the operator hides the mission from everyone but
    // its creator and the operator (db/mission-visibility.ts); null when visible.
    hiddenAt: ts("hidden_at"),
    hiddenReason: text("hidden_reason"),
    ...timestamps(),
    // The row's version, from a sequence, set on insert and bumped on EVERY update by the
    // missions_row_version trigger (drizzle/0022_reads_mission_version.sql) — unlike updated_at,
    // which moves only with the lifecycle. (id, row_version) names one committed content of the
    // row, so serialized documents keyed by it are never stale on any instance (missions.docs.ts).
    // Not part of MissionRow / MISSION_COLUMNS (src/db/rows.ts): only the list path reads it.
    rowVersion: bigserial("row_version", { mode: "number" }).notNull(),
    search: tsvector("search").generatedAlwaysAs(
      sql`to_tsvector('simple', coalesce(title, '') || ' ' || coalesce(description, ''))`,
    ),
  },
  (t) => [
    // Every list filter has an index ending in id, so keyset pages never sort or scan.
    index("missions_status_id_idx").on(t.status, t.id),
    index("missions_creator_id_idx").on(t.creator, t.id),
    index("missions_type_status_id_idx").on(t.verificationType, t.status, t.id),
    index("missions_mission_type_id_idx").on(t.missionType, t.id), // AIP-2 §4 ?mission_type=
    index("missions_asset_amount_idx").on(t.rewardAsset, t.rewardAmount),
    index("missions_deadline_idx").on(t.deadline),
    // Narrow reward ranges are read one amount at a time, newest first (missions.queries.ts
    // rangeIds); wider ones read ids from it instead of walking the primary key.
    index("missions_amount_id_idx").on(t.rewardAmount, t.id),
    // Narrow deadline windows are read one hour at a time, newest first (rangeIds). The function
    // is created by migration 0029 (an immutable epoch hour: timestamptz arithmetic is only stable).
    index("missions_deadline_hour_id_idx").on(sql`oabp_deadline_hour(${t.deadline})`, t.id),
    index("missions_tags_gin").using("gin", t.tags),
    index("missions_search_gin").using("gin", t.search),
    index("missions_escrow_key_idx").on(t.escrowKey).where(isSet(t.escrowKey)),
    index("missions_next_action_idx").on(t.nextActionAt).where(isSet(t.nextActionAt)),
    // The vocabulary enforced by the database too: a write outside it fails instead of leaving a
    // mission no step knows (docs/lifecycle.md).
    check("missions_status_ck", oneOf(t.status, MISSION_STATUSES)),
    check("missions_phase_ck", oneOf(t.phase, MISSION_PHASES)),
    check("missions_payout_status_ck", oneOf(t.payoutStatus, PAYOUT_STATUSES)),
    check("missions_verification_type_ck", oneOf(t.verificationType, VERIFICATION_TYPES)),
    check("missions_reward_chain_ck", oneOf(t.rewardChain, REWARD_CHAINS)),
    check("missions_audience_ck", oneOf(t.audience, MISSION_AUDIENCES)),
  ],
);

// One row per (tag, mission), kept by the missions_tags trigger: `?tag=` walks (tag, mission_id)
// in list order, so a rare tag costs its own rows and a common one a page — the GIN index on
// missions.tags cannot give the id order, and the planner misjudges rare array elements.
export const missionTags = pgTable(
  "mission_tags",
  {
    tag: text("tag").notNull(),
    missionId: text("mission_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tag, t.missionId] }), index("mission_tags_mission_idx").on(t.missionId)],
);

// Sitemap index (sitemaps.org): public missions in id (creation) order cut into files of
// at most SITEMAP_CHUNK missions. A chunk is the id range [start_id, next chunk's start_id); only
// the last one is open and grows, and a new one starts when it is full, so earlier files keep
// their URLs and crawlers re-read only files whose lastmod moved.
export const sitemapChunks = pgTable("sitemap_chunks", {
  k: integer("k").primaryKey(),
  startId: text("start_id").notNull(),
  // Latest updated_at in a CLOSED chunk: set when the chunk is closed, then raised by the
  // missions_sitemap_lastmod trigger when a mission in its range changes. Null while open (the
  // open chunk's lastmod is read live: at most one chunk of rows). Keeps the index flat.
  lastmod: ts("lastmod"),
});

/**
 * Read-your-writes across instances: one counter per cached read family, bumped at commit by deferred triggers
 * whenever a row the family's answers show changes (drizzle/0035_reads_epoch_card_terms.sql); the
 * missions family is the sum of 64 slot rows (drizzle/0039_writes_commit_without_notify.sql). A cached
 * answer is served only while the counter read by its reader equals the one read before the
 * answer's own queries ran.
 */
export const readEpochs = pgTable("read_epochs", {
  name: text("name").primaryKey(),
  epoch: bigint("epoch", { mode: "number" }).notNull().default(0),
});
