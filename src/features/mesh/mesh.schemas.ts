import { z } from "@hono/zod-openapi";
import { pageQuery, Tag, pageOf, str, exampleId, recordOf } from "../../http/wire";
import { pathId } from "../../http/params";

// Agent Mesh wire shapes (docs/protocols/agent-mesh-skill-protocol.txt, served as the Mesh
// document; docs/neighbours.md "Agent Mesh"). Requests take the document's spellings (camelCase:
// agentId, inputSchema, rateLimit); skill records answer in its discovery spelling (snake_case).

/**
 * Mesh "Skill Metadata Schema": snake_case is recommended, not required, so camelCase
 * (`webSearch`) is accepted too: a letter, then letters, digits and underscores.
 */
const SKILL_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const MAX_SKILL_TAGS = 10;

const JsonSchemaObject = z
  .record(z.string(), z.unknown())
  .openapi({ description: "JSON Schema (a bounded subset: no $ref or pattern; see docs/neighbours.md)" });

export const RegisterAgentRequest = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({ example: "SearchBot" }),
    endpoint: z.string().max(2048).optional().openapi({
      description: "Where the hub forwards invocations of skills that name no endpoint of their own (https)",
      example: "https://searchbot.example/mesh",
    }),
    capabilities: z
      .array(z.string().trim().min(1).max(64))
      .max(32)
      .optional()
      .openapi({ example: ["web_search", "data_extraction"] }),
  })
  .openapi("MeshRegisterAgent");

export const RegisterAgentResponse = z
  .object({
    success: z.literal(true),
    agentId: str("The agent's address in the directory (GET /agents/{id})"),
    message: z.string(),
    api_key: z.string().optional().openapi({
      description:
        "Issued only to a caller that registered without signing in: send it as X-API-Key. Shown once; only its hash is stored",
    }),
  })
  .openapi("MeshRegisterAgentResult");

export const RegisterSkillRequest = z
  .object({
    agentId: z.string().max(64).optional().openapi({ description: "If given, must be the caller's own id" }),
    name: z
      .string()
      .regex(SKILL_NAME, "1-64 letters, digits and underscores, starting with a letter (snake_case recommended)")
      .openapi({ example: "web_search" }),
    description: z.string().trim().min(1).max(2000),
    endpoint: z.string().max(2048).optional().openapi({
      description: "Where the hub POSTs a skill_invocation message (https); default: the agent's endpoint",
    }),
    version: z.string().max(64).optional().openapi({ example: "1.0.0" }),
    inputSchema: JsonSchemaObject.optional(),
    outputSchema: JsonSchemaObject.optional(),
    tags: z.array(Tag).max(MAX_SKILL_TAGS).optional(),
    rateLimit: z
      .object({
        maxCalls: z.number().int().min(1).max(1_000_000),
        periodMs: z.number().int().min(1000).max(86_400_000),
      })
      .optional()
      .openapi({ description: "Invocations per caller through the hub: maxCalls per periodMs" }),
  })
  .openapi("MeshRegisterSkill");
export type RegisterSkillInput = z.infer<typeof RegisterSkillRequest>;

export const Skill = recordOf("MeshSkill", "skl", {
  agent_id: z.string(),
  agent_name: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  endpoint: z.string().nullable(),
  version: z.string().nullable(),
  input_schema: z.record(z.string(), z.unknown()).nullable(),
  output_schema: z.record(z.string(), z.unknown()).nullable(),
  tags: z.array(z.string()),
  rate_limit: z.object({ maxCalls: z.number().int(), periodMs: z.number().int() }).nullable(),
});
export type SkillWire = z.infer<typeof Skill>;

/** A provider's skill as its agent record, page and cards list it (GET /skills/{id} has the rest). */
export const SkillSummary = z
  .object({ id: z.string(), ...Skill.pick({ name: true, description: true, version: true, tags: true }).shape })
  .openapi("MeshSkillSummary");
export type SkillSummaryWire = z.infer<typeof SkillSummary>;

export const SkillList = pageOf("MeshSkillList", { skills: z.array(Skill) });

const format = z.enum(["mesh", "oabp"]).optional().openapi({
  description:
    "mesh: the Mesh document's dialect (its error envelope; discovery as a bare array, the next page in a Link header); oabp: this server's. Default: mesh in private-network mode, else oabp (docs/neighbours.md \"Mesh dialect\")",
});
/** The dialect switch every Mesh route takes (src/http/mesh-dialect.ts reads it). */
export const MeshFormatQuery = z.object({ format });

export const SkillQuery = z.object({
  tag: z.string().max(32).optional().openapi({ description: "Skills carrying this tag" }),
  name: z.string().max(64).optional().openapi({ description: "Skills of this exact name (any provider)" }),
  agent: z.string().max(64).optional().openapi({ description: "Skills of this provider agent" }),
  format,
  ...pageQuery(),
});

export const SkillIdParam = z.object({
  id: pathId("id", exampleId("skl")),
});

export const InvokeRequest = z
  .object({
    from: z.string().max(64).optional().openapi({ description: "If given, must be the caller's own id" }),
    payload: z.unknown().openapi({ description: "The skill's input, validated against its inputSchema" }),
  })
  .openapi("MeshInvoke");

/** Mesh "Skill Response Format", as the hub answers a successful invocation. */
export const InvokeResponse = z
  .object({
    success: z.literal(true),
    result: z.unknown(),
    error: z.null(),
    metadata: z.object({
      skillName: z.string(),
      version: z.string().nullable(),
      processingTimeMs: z.number(),
      timestamp: z.string(),
      invocationId: str("The id of the skill_invocation message forwarded"),
      provider: z.string(),
    }),
  })
  .openapi("MeshSkillResponse");
export type InvokeResponseWire = z.infer<typeof InvokeResponse>;

export const DeletedSkill = z.object({ deleted: z.literal(true), id: z.string() }).openapi("MeshSkillDeleted");
