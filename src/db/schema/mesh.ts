import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps } from "./types";

// Agent Mesh (docs/neighbours.md "Agent Mesh"): what `POST /agents/register` adds to the agent
// directory row (agents.id). An agent registered without signing in gets an address of its own
// and an API key; only the key's sha256 is stored (api_key_hash null: it signed in instead).
export const meshAgents = pgTable(
  "mesh_agents",
  {
    agentId: text("agent_id").primaryKey(), // lowercase 0x address, as agents.id
    endpoint: text("endpoint"),
    apiKeyHash: text("api_key_hash"),
    registeredAt: ts("registered_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [uniqueIndex("mesh_agents_api_key_uq").on(t.apiKeyHash)],
);

// Skills a provider agent registers (Mesh "Skill Registration"): one per (agent, name).
// schema_bytes is the stored size of the two JSON Schemas, summed per agent against its quota.
export const meshSkills = pgTable(
  "mesh_skills",
  {
    id: text("id").primaryKey(), // skl_<ulid>: time-ordered, the keyset pagination key
    agentId: text("agent_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    endpoint: text("endpoint"),
    version: text("version"),
    inputSchema: jsonb("input_schema").$type<Record<string, unknown>>(),
    outputSchema: jsonb("output_schema").$type<Record<string, unknown>>(),
    tags: text("tags").array().notNull().default([]),
    rateMaxCalls: integer("rate_max_calls"),
    ratePeriodMs: integer("rate_period_ms"),
    schemaBytes: integer("schema_bytes").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("mesh_skills_agent_name_uq").on(t.agentId, t.name),
    // Discovery filters (GET /skills): every filter has an index ending in id (keyset pages).
    index("mesh_skills_name_id_idx").on(t.name, t.id),
    index("mesh_skills_agent_id_idx").on(t.agentId, t.id),
  ],
);

// One row per (tag, skill), written with the skill: `?tag=` walks (tag, skill_id) in id order,
// as mission_tags does for missions (a GIN index on the array cannot give the id order).
export const meshSkillTags = pgTable(
  "mesh_skill_tags",
  {
    tag: text("tag").notNull(),
    skillId: text("skill_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tag, t.skillId] }), index("mesh_skill_tags_skill_idx").on(t.skillId)],
);
