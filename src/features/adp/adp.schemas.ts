import { z } from "@hono/zod-openapi";
import { intOrNull, str, bool } from "../../http/wire";
import { SkillSummary } from "../mesh";
import { DEFAULT_LIMIT, DEFAULT_MIN_SCORE } from "./adp.ranking";

// Wire schemas of the ADP methods (§4, Tables 8–9) and of the two ranking lists.

const CardObject = z
  .record(z.string(), z.unknown())
  .openapi({ description: "An ADP Agent Card, exactly as advertised (signature included)" });

export const DescribeRequest = z
  .object({
    agent_id: z.string().min(1).max(64).optional().openapi({
      description: "An agent (0x address) whose advertised card to return; absent: this server's own card",
    }),
    fields: z.array(z.string().min(1).max(64)).max(32).optional().openapi({
      description: "Top-level fields wanted; id and name always come; a partial card carries no signature",
    }),
  })
  .openapi("AdpDescribeRequest");
export type DescribeInput = z.infer<typeof DescribeRequest>;

export const AdvertiseResponse = z
  .object({
    stored: z.literal(true),
    agent_id: str("The EVM address the card is bound to"),
    card_id: z.string(),
    seq: z.number().int().nullable(),
    signed: z.boolean(),
    revoked: bool("ADP §6.4: empty tools and endpoints; left out of discovery"),
    unchanged: bool("The stored card was already exactly this one"),
  })
  .openapi("AdpAdvertiseResponse");

export const DiscoverRequest = z
  .object({
    tags: z
      .array(z.string().min(1).max(130))
      .max(32)
      .optional()
      .openapi({ description: 'Skill tags: exact, prefix ("nlp/*") and parent matching, aliases applied' }),
    query: z
      .string()
      .max(1024)
      .optional()
      .openapi({ description: "Natural-language description of the capability wanted" }),
    limit: z.number().int().min(1).max(50).default(DEFAULT_LIMIT),
    min_score: z.number().min(0).max(1).default(DEFAULT_MIN_SCORE),
  })
  .openapi("AdpDiscoverRequest");
export type DiscoverInput = z.infer<typeof DiscoverRequest>;

const Factors = z
  .object({ tags: z.number(), text: z.number(), reputation: z.number(), availability: z.number(), rating: z.number() })
  .openapi("AdpFactors", {
    description:
      "Each factor in [0, 1]; score = 0.30·tags + 0.25·text + 0.20·reputation + 0.15·availability + 0.10·rating",
  });
const TagMatch = z.object({ query: z.string(), rule: z.enum(["exact", "prefix", "parent"]) });
const Weights = z.object({
  tags: z.number(),
  text: z.number(),
  reputation: z.number(),
  availability: z.number(),
  rating: z.number(),
});

const scored = {
  score: z.number().openapi({ description: "Composite score in [0, 1]" }),
  factors: Factors,
  matched_tags: z.array(z.string()).openapi({ description: "The agent's skill tags that matched a query tag" }),
  tag_matches: z.array(TagMatch).openapi({ description: "Which ADP §3.6.1 rule matched each matched query tag" }),
};

export const DiscoverResponse = z
  .object({
    results: z.array(
      z.object({
        agent_card: CardObject,
        agent_id: z.string(),
        ...scored,
        online: z.boolean(),
        cold_start: z.boolean(),
        imported_elo: intOrNull("AIP-3 imported reputation (live imports), apart from the local rating the score uses"),
        mesh_skills: z.array(SkillSummary).openapi({
          description:
            "Agent Mesh skills this agent provides (the first 10; GET /skills?agent=), beside the card: a signed card is never altered",
        }),
      }),
    ),
    weights: Weights,
  })
  .openapi("AdpDiscoverResponse");
export type DiscoverWire = z.infer<typeof DiscoverResponse>;

export const RankQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_LIMIT),
  min_score: z.coerce.number().min(0).max(1).default(DEFAULT_MIN_SCORE),
});
export type RankQueryInput = z.infer<typeof RankQuery>;

export const MissionCandidates = z
  .object({
    mission_id: z.string(),
    candidates: z.array(
      z.object({
        agent_id: z.string(),
        card_id: z.string(),
        name: z.string(),
        ...scored,
        online: z.boolean(),
        cold_start: z.boolean(),
      }),
    ),
    weights: Weights,
    as_of: z.string(),
  })
  .openapi("MissionCandidates");
export type MissionCandidatesWire = z.infer<typeof MissionCandidates>;

export const RecommendedMissions = z
  .object({
    agent_id: z.string(),
    missions: z.array(
      z.object({
        mission_id: z.string(),
        title: z.string(),
        tags: z.array(z.string()),
        reward: z.object({ asset: z.string(), amount: z.string() }),
        deadline: z.string(),
        ...scored,
      }),
    ),
    source: z.enum(["card", "profile", "none"]).openapi({
      description: "Where the agent's skills came from: its advertised ADP card, else its profile capabilities",
    }),
    overloaded: z.boolean(),
    weights: Weights,
    as_of: z.string(),
  })
  .openapi("RecommendedMissions");
export type RecommendedMissionsWire = z.infer<typeof RecommendedMissions>;
