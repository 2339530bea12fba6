import { z } from "@hono/zod-openapi";
import { pageQuery, Tag, pageOf, timestamps, intOrNull, int, strOrNull, str, Uint } from "../../http/wire";
import { MissionEscrowWire } from "../escrow";
import { CreatorRecordCompact } from "../records";
import { PARAMS_BY_TYPE } from "./missions.verification";
import {
  MISSION_AUDIENCES,
  MISSION_STATUSES,
  PAYOUT_STATUSES,
  PUBLIC_STATUSES,
  REWARD_CHAINS,
  VERIFICATION_TYPES,
} from "../../db/vocabulary";

// Wire schemas written by hand from AIP-1 §2 (docs/style.md rule 6), plus our fields.
// The vocabularies are the stored ones (db/vocabulary.ts), re-exported for the wire schemas.
/** Upper bound of a mission's max_claims. */
const MAX_CLAIMS_LIMIT = 1000;

/** Hard cap of an eligibility list in the schema; ELIGIBILITY_LIST_MAX (≤ this) is enforced by the verb. */
const ELIGIBILITY_LIST_HARD_MAX = 1000;
const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x EVM address");

// Who may claim and submit (docs/decisions.md "Eligibility").
const EligibilityRequest = z
  .object({
    min_rating: z.number().int().min(0).max(5000).optional().openapi({
      description: "Minimum (decayed) ELO rating; the same gate as min_submitter_elo (AIP-2 §4.1)",
    }),
    min_completed: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .optional()
      .openapi({ description: "Minimum missions won (missions_completed on the agent's profile)" }),
    allow: z.array(Address).min(1).max(ELIGIBILITY_LIST_HARD_MAX).optional().openapi({
      description: "Invite-only: only these addresses may claim or submit (ELIGIBILITY_LIST_MAX)",
    }),
    block: z
      .array(Address)
      .max(ELIGIBILITY_LIST_HARD_MAX)
      .optional()
      .openapi({ description: "These addresses may not claim or submit (besides the creator's own block-list)" }),
    audience: z.enum(MISSION_AUDIENCES).optional().openapi({
      description:
        "anyone (default) or agents: addresses with a live registry attestation (AIP-1 §1.4) or an ADP agent card advertised here",
    }),
  })
  .strict()
  .openapi("EligibilityRequest");

export const CreateMissionRequest = z
  .object({
    title: z.string().trim().min(1).max(200),
    description: z.string().trim().min(1).max(50_000),
    reward: z.object({
      asset: z.string().min(1).max(64).openapi({ description: "Asset symbol or contract address", example: "USDC" }),
      amount: Uint,
      chain: z.enum(REWARD_CHAINS).optional().openapi({ description: "Settlement rail; default ledger" }),
    }),
    verification: z.object({
      type: z.enum(VERIFICATION_TYPES),
      params: z
        .record(z.string(), z.unknown())
        .optional()
        .openapi({
          description: `Type-specific (AIP-1 §4; bounds and defaults in docs/decisions.md "Verification params") — ${PARAMS_BY_TYPE}`,
        }),
    }),
    deadline: z.string().datetime({ offset: true }).openapi({ example: "2026-12-31T00:00:00Z" }),
    tags: z.array(Tag).max(10).optional(),
    creator: z.string().optional().openapi({ description: "If given, must equal the authenticated address" }),
    language: z
      .string()
      .max(35)
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "must be a BCP 47 language tag, e.g. en or pt-BR")
      .optional()
      .openapi({
        description:
          "The language the work is asked in and to be delivered in (BCP 47, e.g. en, pt-BR); default: not stated",
        example: "en",
      }),
    // Claim policy (docs/decisions.md "Claims"; README "Claims"): fixed at creation.
    max_claims: z
      .number()
      .int()
      .min(1)
      .max(MAX_CLAIMS_LIMIT)
      .optional()
      .openapi({ description: "At most this many agents hold an active claim at once (default: no limit)" }),
    exclusive_claim_ttl: z
      .number()
      .int()
      .min(60)
      .max(30 * 86_400)
      .optional()
      .openapi({
        description:
          "Seconds: the first claimer (no other active claim) holds the mission exclusively this long; others get 409 meanwhile. Claims never change who may submit or be paid",
      }),
    // AIP-2 §1, §4.1 (validated in missions.types.ts).
    mission_type: z.string().max(100).optional().openapi({
      description:
        "AIP-2 type: a registered type, an `oabp:<type>` custom type, or freeform (default). GET /missions/types lists them",
      example: "code_review",
    }),
    type_params: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "The type's required fields (AIP-2 §3); {} for freeform" }),
    min_submitter_elo: z.number().int().min(0).max(5000).optional().openapi({
      description: "AIP-2 §4.1: submitters below this (decayed) ELO rating are refused at submit; 0 = no gate",
    }),
    eligibility: EligibilityRequest.optional(),
    // Agent Mesh (docs/neighbours.md): the skill the creator wants a solver to use.
    skill_id: z.string().max(64).optional().openapi({
      description: "Agent Mesh: a registered skill (GET /skills) the creator wants used; must exist",
      example: "skl_01JZ0000000000000000000000",
    }),
  })
  .openapi("CreateMission");
export type CreateMissionInput = z.infer<typeof CreateMissionRequest>;
export type EligibilityInput = z.infer<typeof EligibilityRequest>;

const Eligibility = z
  .object({
    min_rating: int("= min_submitter_elo; 0 = no gate"),
    min_completed: z.number().int(),
    audience: z.enum(MISSION_AUDIENCES),
    invite_only: z.boolean(),
    allow_count: intOrNull("Size of the allow-list; null when not invite-only"),
    allow: z.array(z.string()).nullable().openapi({ description: "The allow-list, shown to the creator only" }),
    viewer_allowed: z.boolean().nullable().openapi({
      description: "Invite-only, signed-in reader: whether the reader is on the allow-list; null otherwise",
    }),
    block_count: int("Size of this mission's block-list"),
    block: z
      .array(z.string())
      .nullable()
      .openapi({ description: "The block-list, shown to the creator only (null to others, and when empty)" }),
    viewer_blocked: z.boolean().nullable().openapi({
      description:
        "AIP-2 §4.1, signed-in reader other than the creator, on GET /missions/{id}: whether a submission from the reader would be refused `blocked` — by this mission's block-list or the creator's standing one (which itself is never shown); null otherwise",
    }),
  })
  .openapi("Eligibility", {
    description:
      "Who may claim and submit (enforced at both, FORBIDDEN with details.reason); the creator's standing block-list applies too: its contents are never shown, but a signed-in reader learns from viewer_blocked whether it names them",
  });

export const Mission = z
  .object({
    id: z.string(),
    creator: z.string(),
    title: z.string(),
    description: z.string(),
    reward: z.object({ asset: z.string(), amount: z.string(), chain: z.string() }),
    verification: z.object({ type: z.enum(VERIFICATION_TYPES), params: z.record(z.string(), z.unknown()) }),
    deadline: z.string(),
    status: z.enum(MISSION_STATUSES),
    ...timestamps,
    phase: z.string(),
    payout_status: z.enum(PAYOUT_STATUSES),
    payout_status_reason: strOrNull(
      "AIP-1 Appendix B: stable reason of the payout status (e.g. release_broadcast, reverted:FeeTooHigh, credited_pull:0x…: a recipient that could not receive was credited and withdraws it)",
    ),
    payout_status_updated_at: strOrNull("AIP-1 Appendix B: when payout_status last changed"),
    spam_fee: z.string(),
    tags: z.array(z.string()),
    warnings: z.array(z.string()),
    submission_count: z.number().int(),
    amendments_count: int(
      "Applied amendments (deadline extensions, top-ups, edits): reward and deadline are the current ones; GET /missions/{id}/amendments lists them",
    ),
    claim_count: int("Active claims (0 once the mission is no longer open); GET /missions/{id}/claims lists them"),
    max_claims: intOrNull("Claim limit set at creation; null = none"),
    language: strOrNull("BCP 47 tag of the work's language, as the creator set it; null = not stated"),
    qa: z
      .object({
        count: int("Entries in the public Q&A thread (questions and clarifications)"),
        pinned_count: int("Pinned entries (clarifications, pinned answers)"),
        questions_url: str("GET the thread (?pinned=true: pinned entries only)"),
      })
      .openapi({ description: "The mission's public Q&A thread" }),
    exclusive_claim_ttl: intOrNull("Exclusive window of the first claimer, seconds; null = claims are never exclusive"),
    judging_deadline: strOrNull(
      "creator_judges: end of the judging window after the deadline; oracle: end of the oracle window",
    ),
    resolution_reason: strOrNull("Why the mission was resolved or voided (stable constant)"),
    award: z
      .object({
        winners: z.array(
          z.object({
            submission_id: z.string(),
            agent_id: z.string(),
            weight: int("share_bps, or 1 each for an equal split"),
          }),
        ),
        awarded_at: z.string(),
        appeal_deadline: str(
          "End of the dispute window: stake on the submission that should have won (POST /missions/{id}/votes)",
        ),
        voting_deadline: strOrNull("Set when disputes reached the quorum: the award is put to a peer vote until then"),
        dispute_stake: strOrNull("Total disputed stake when the dispute window closed"),
        outcome: z
          .enum(["undisputed", "upheld", "overturned"])
          .nullable()
          .openapi({ description: "null while the appeal runs" }),
      })
      .nullable()
      .openapi("RecordedAward", {
        description:
          "creator_judges with an appeal: the creator's award, paid only when its appeal closes (null otherwise)",
      }),
    resolution: z
      .object({
        winner_submission_id: z.string().nullable(),
        winner_agent_id: z.string().nullable(),
        receipt_uri: z.string().nullable(),
        winners: z.array(
          z.object({
            submission_id: z.string(),
            agent_id: z.string(),
            amount: z.string(),
            receipt_uri: strOrNull("AIP-1 §6.1: this winner's signed receipt"),
          }),
        ),
        fee_amount: z.string().nullable(),
        resolved_at: z.string().nullable(),
      })
      .nullable(),
    escrow: MissionEscrowWire.nullable(),
    // AIP-2 §1 type, §4.1 eligibility gates, §4 continuation links.
    mission_type: str("AIP-2 mission type (freeform when untyped)"),
    type_params: z.record(z.string(), z.unknown()),
    type_params_schema_url: str("AIP-2 App. B: the JSON Schema of this mission type's type_params"),
    server_checks: z
      .record(z.string(), z.object({ result: z.literal("skipped"), detail: z.string() }))
      .nullable()
      .openapi({
        description:
          "token_scan: every listed check this server cannot run, reported skipped (AIP-2 §3.2); null for other types",
      }),
    min_submitter_elo: z.number().int(),
    eligibility: Eligibility,
    skill_id: z
      .string()
      .optional()
      .openapi({ description: "Agent Mesh: the skill the creator wants used (GET /skills/{id}); absent when none" }),
    creator_record: CreatorRecordCompact.optional().openapi({
      description: "The creator's track record (on mission reads, creation, void and award answers)",
    }),
    required_submitter_tier: int("Always 0: no tier gate here (AIP-2 §4.1)"),
    required_submitter_tier_name: z.string(),
    view_url: z.string(),
    api_url: z.string(),
    submit_url: z.string(),
    claim_url: z.string(),
    amendments_url: z.string(),
    submissions_url: z.string(),
    resolve_url: strOrNull(
      "creator_judges: the award endpoint (POST, creator only); null where the server resolves by itself",
    ),
    // Moderation (docs/moderation.md): present only on a mission the operator hid, which only its
    // creator and the operator can read.
    hidden: z
      .literal(true)
      .optional()
      .openapi({ description: "Present (true) only when the operator hid the mission" }),
    hidden_reason: z.string().optional().openapi({ description: "The operator's reason, with `hidden`" }),
  })
  .openapi("Mission");
export type MissionWire = z.infer<typeof Mission>;

export const MissionList = pageOf("MissionList", { missions: z.array(Mission) });

/** A comma-separated query value of at most `max` characters, read as its trimmed, non-empty items. */
const commaList = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    );

const csv = <T extends readonly [string, ...string[]]>(values: T) =>
  commaList(200).pipe(z.array(z.enum(values)).min(1));

const missionTypes = commaList(1000).pipe(
  z
    .array(
      z
        .string()
        .regex(/^[a-z][a-z0-9_]{1,63}$|^[a-z][a-z0-9_-]{0,31}:[a-z][a-z0-9_]{1,63}$/, "must be a type identifier"),
    )
    .min(1)
    .max(20),
);

export const ListMissionsQuery = z.object({
  mission_type: missionTypes
    .optional()
    .openapi({ description: "AIP-2 §4: comma-separated types (OR)", example: "code_review,token_scan" }),
  status: csv(PUBLIC_STATUSES).optional().openapi({ description: "Comma-separated public statuses", example: "open" }),
  verification_type: z.enum(VERIFICATION_TYPES).optional(),
  asset: z.string().max(64).optional(),
  creator: z.string().max(64).optional(),
  tag: z.string().max(32).optional(),
  q: z.string().max(200).optional().openapi({ description: "Text search over title and description (word prefixes)" }),
  reward_min: Uint.optional(),
  reward_max: Uint.optional(),
  deadline_after: z.string().datetime({ offset: true }).optional(),
  deadline_before: z.string().datetime({ offset: true }).optional(),
  // Discovery by the creator's track record (agent_records, indexed).
  creator_min_paid_ratio: z.coerce.number().min(0).max(1).optional().openapi({
    description: "Only creators whose paid_ratio is at least this (0–1); creators with no ratio yet are left out",
  }),
  creator_max_never_judged: z.coerce.number().int().min(0).max(1_000_000).optional().openapi({
    description: "Only creators with at most this many never-judged missions",
  }),
  ...pageQuery(20),
});
export type ListMissionsFilters = z.infer<typeof ListMissionsQuery>;
