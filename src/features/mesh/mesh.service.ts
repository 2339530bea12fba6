import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { agents, meshAgents, meshSkills, meshSkillTags } from "../../db/schema/index";
import type { DbOrTx, Tx } from "../../db/client";
import type { Config } from "../../env";
import { assertNotSuspended } from "../../db/suspension";
import { touchAgent } from "../../db/touch-agent";
import { parseAgentId } from "../../lib/agent-id";
import { canonicalJson } from "../../lib/canonical-json";
import { agentOf, dbOf, withTx, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { randomToken, sha256Hex } from "../../lib/hash";
import { isId, newId } from "../../lib/ids";
import { MESH_KEY_PREFIX } from "../auth";
import { checkSchema } from "./mesh.json-schema";
import { actingAgent, checkMeshEndpoint, unknownKey } from "./mesh.private";
import type { RegisterSkillInput, SkillSummaryWire, SkillWire } from "./mesh.schemas";
import { decodeIdCursor, keysetPage } from "../../lib/cursor";

/** Bytes of one skill's input or output JSON Schema (canonical JSON). */
const MESH_SCHEMA_MAX_BYTES = 16 * 1024;
/** Bytes of all one agent's skills (descriptions and schemas) together. */
const MESH_REGISTRY_BYTES_PER_AGENT = 256 * 1024;

// Agent Mesh hub: agent registration onto the directory and the skill registry
// (docs/neighbours.md "Agent Mesh"; the Mesh document's "Agent Lifecycle", "Skill Registration").

/**
 * POST /agents/register. Signed in (session, registry key or mesh key): the caller's own
 * directory row. Anonymous: a fresh address of its own and an API key, shown once, stored hashed.
 */
export async function registerAgent(
  ctx: Ctx,
  input: { name: string; endpoint?: string | undefined; capabilities?: string[] | undefined },
): Promise<{ success: true; agentId: string; message: string; api_key?: string }> {
  const { deps, now, caller } = ctx;
  if (caller.kind === "admin" || caller.kind === "job")
    throw new AppError("FORBIDDEN", "the admin token does not act as an agent");
  if (caller.kind === "anonymous" && caller.reason === "unbound_api_key") throw unknownKey();
  const endpoint = checkMeshEndpoint(deps, { url: input.endpoint, field: "endpoint" });
  const signedIn = caller.kind === "agent";
  const agentId = signedIn ? caller.address : `0x${randomBytes(20).toString("hex")}`;
  // The shared key of a private mesh needs no key of its own (the Mesh document's answer).
  const issueKey = caller.kind === "anonymous" && caller.reason === "none";
  const apiKey = issueKey ? `${MESH_KEY_PREFIX}${randomToken(32)}` : undefined;
  await withTx(ctx, async (tx) => {
    if (signedIn) await assertNotSuspended(tx, agentId, now);
    await touchAgent(tx, agentId, now);
    await tx
      .update(agents)
      .set({
        displayName: input.name,
        ...(input.capabilities ? { capabilities: [...new Set(input.capabilities)] } : {}),
        updatedAt: now,
      })
      .where(eq(agents.id, agentId));
    await tx
      .insert(meshAgents)
      .values({ agentId, endpoint, apiKeyHash: apiKey ? sha256Hex(apiKey) : null, registeredAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: meshAgents.agentId, set: { endpoint, updatedAt: now } });
  });
  return {
    success: true,
    agentId,
    message: "Agent registered successfully",
    ...(apiKey ? { api_key: apiKey } : {}),
  };
}

type SkillRow = typeof meshSkills.$inferSelect & { agentName: string | null };

function toWire(r: SkillRow): SkillWire {
  return {
    id: r.id,
    agent_id: r.agentId,
    agent_name: r.agentName,
    name: r.name,
    description: r.description,
    endpoint: r.endpoint,
    version: r.version,
    input_schema: r.inputSchema ?? null,
    output_schema: r.outputSchema ?? null,
    tags: r.tags,
    rate_limit:
      r.rateMaxCalls !== null && r.ratePeriodMs !== null
        ? { maxCalls: r.rateMaxCalls, periodMs: r.ratePeriodMs }
        : null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

const SKILL_COLUMNS = {
  id: meshSkills.id,
  agentId: meshSkills.agentId,
  name: meshSkills.name,
  description: meshSkills.description,
  endpoint: meshSkills.endpoint,
  version: meshSkills.version,
  inputSchema: meshSkills.inputSchema,
  outputSchema: meshSkills.outputSchema,
  tags: meshSkills.tags,
  rateMaxCalls: meshSkills.rateMaxCalls,
  ratePeriodMs: meshSkills.ratePeriodMs,
  schemaBytes: meshSkills.schemaBytes,
  createdAt: meshSkills.createdAt,
  updatedAt: meshSkills.updatedAt,
  agentName: agents.displayName,
};

const skillsWithAgent = (db: DbOrTx) =>
  db.select(SKILL_COLUMNS).from(meshSkills).leftJoin(agents, eq(agents.id, meshSkills.agentId));

/** Bytes a skill takes from its agent's registry quota: what it stores that the agent chose. */
const byteLength = (s: string) => Buffer.byteLength(s, "utf8");

function checkedSchema(
  schema: Record<string, unknown> | undefined,
  field: string,
  maxBytes: number,
): { schema: Record<string, unknown> | null; bytes: number } {
  if (schema === undefined) return { schema: null, bytes: 0 };
  const text = canonicalJson(schema);
  const bytes = byteLength(text);
  if (bytes > maxBytes)
    throw new AppError("PAYLOAD_TOO_LARGE", `${field} is ${bytes} bytes; at most ${maxBytes}`, {
      field,
      limit_bytes: maxBytes,
    });
  const problems = checkSchema(schema);
  if (problems.length > 0)
    throw new AppError("INVALID_PARAMETER", `${field} is not a schema the hub accepts: ${problems[0]!.message}`, {
      field,
      reason: "invalid_schema",
      problems,
    });
  return { schema, bytes };
}

/**
 * POST /skills: registers (or, same agent and name, replaces) a skill. The agent's mesh row is
 * locked first, so the per-agent bounds (skill count, registry bytes) hold under concurrent
 * registrations on any number of instances.
 */
export async function registerSkill(ctx: Ctx, input: RegisterSkillInput): Promise<SkillWire> {
  const { deps, now } = ctx;
  const agentId = await actingAgent(ctx, { claimed: input.agentId, field: "agentId" });
  const endpoint = checkMeshEndpoint(deps, { url: input.endpoint, field: "endpoint" });
  const inSchema = checkedSchema(input.inputSchema, "inputSchema", MESH_SCHEMA_MAX_BYTES);
  const outSchema = checkedSchema(input.outputSchema, "outputSchema", MESH_SCHEMA_MAX_BYTES);
  const tags = [...new Set(input.tags ?? [])];
  const bytes =
    inSchema.bytes + outSchema.bytes + byteLength(input.description) + byteLength(input.name) + tags.join("").length;
  return withTx(ctx, async (tx) => {
    await assertNotSuspended(tx, agentId, now);
    await touchAgent(tx, agentId, now);
    await tx
      .insert(meshAgents)
      .values({ agentId, endpoint: null, apiKeyHash: null, registeredAt: now, updatedAt: now })
      .onConflictDoNothing();
    await assertRegistryRoom(tx, { agentId, name: input.name, bytes, config: deps.config });
    const values = {
      description: input.description,
      endpoint,
      version: input.version ?? null,
      inputSchema: inSchema.schema,
      outputSchema: outSchema.schema,
      tags,
      rateMaxCalls: input.rateLimit?.maxCalls ?? null,
      ratePeriodMs: input.rateLimit?.periodMs ?? null,
      schemaBytes: bytes,
      updatedAt: now,
    };
    const [row] = await tx
      .insert(meshSkills)
      .values({ id: newId("skl"), agentId, name: input.name, createdAt: now, ...values })
      .onConflictDoUpdate({ target: [meshSkills.agentId, meshSkills.name], set: values })
      .returning({ id: meshSkills.id });
    const id = row!.id;
    await tx.delete(meshSkillTags).where(eq(meshSkillTags.skillId, id));
    if (tags.length > 0) await tx.insert(meshSkillTags).values(tags.map((tag) => ({ tag, skillId: id })));
    return toWire((await skillsWithAgent(tx).where(eq(meshSkills.id, id)))[0]!);
  });
}

/** Locks the agent's mesh row, then checks its skill count and registry bytes with this skill. */
async function assertRegistryRoom(
  tx: Tx,
  input: { agentId: string; name: string; bytes: number; config: Config },
): Promise<void> {
  const { agentId, bytes, config } = input;
  await tx.select({ id: meshAgents.agentId }).from(meshAgents).where(eq(meshAgents.agentId, agentId)).for("update");
  const [usage] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(${meshSkills.schemaBytes}), 0)::int`,
      replaced: sql<number>`coalesce(sum(${meshSkills.schemaBytes}) filter (where ${meshSkills.name} = ${input.name}), 0)::int`,
      exists: sql<boolean>`bool_or(${meshSkills.name} = ${input.name})`,
    })
    .from(meshSkills)
    .where(eq(meshSkills.agentId, agentId));
  const count = Number(usage?.count ?? 0);
  const replacing = usage?.exists === true;
  if (!replacing && count >= config.meshSkillsPerAgent)
    throw new AppError("CONFLICT", `an agent registers at most ${config.meshSkillsPerAgent} skills`, {
      reason: "too_many_skills",
      limit: config.meshSkillsPerAgent,
    });
  const after = Number(usage?.bytes ?? 0) - Number(usage?.replaced ?? 0) + bytes;
  if (after > MESH_REGISTRY_BYTES_PER_AGENT)
    throw new AppError("CONFLICT", `an agent's skills take at most ${MESH_REGISTRY_BYTES_PER_AGENT} bytes`, {
      reason: "registry_quota",
      limit_bytes: MESH_REGISTRY_BYTES_PER_AGENT,
      would_use_bytes: after,
    });
}

function skillIdOf(id: string): string {
  if (!isId("skl", id)) throw new AppError("NOT_FOUND", "no such skill", { reason: "skill_not_found", skill_id: id });
  return id;
}

export async function getSkill(ctx: Ctx, { id }: { id: string }): Promise<SkillWire> {
  const [row] = await skillsWithAgent(dbOf(ctx)).where(eq(meshSkills.id, skillIdOf(id)));
  if (!row) throw new AppError("NOT_FOUND", "no such skill", { reason: "skill_not_found", skill_id: id });
  return toWire(row);
}

/** The skill an invocation or a mission names, with what the hub needs to forward to it. */
export async function skillForInvoke(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ ...SKILL_COLUMNS, agentEndpoint: meshAgents.endpoint })
    .from(meshSkills)
    .leftJoin(agents, eq(agents.id, meshSkills.agentId))
    .leftJoin(meshAgents, eq(meshAgents.agentId, meshSkills.agentId))
    .where(eq(meshSkills.id, skillIdOf(id)));
  if (!row) throw new AppError("NOT_FOUND", "no such skill", { reason: "skill_not_found", skill_id: id });
  return row;
}

/** Whether a skill exists (a mission naming one). */
export async function assertSkillExists(db: DbOrTx, id: string): Promise<void> {
  const [row] = await db
    .select({ id: meshSkills.id })
    .from(meshSkills)
    .where(eq(meshSkills.id, isId("skl", id) ? id : ""));
  if (!row)
    throw new AppError("INVALID_PARAMETER", "skill_id names no registered skill", {
      field: "skill_id",
      reason: "skill_not_found",
    });
}

/** DELETE /skills/{id}: only its provider (Mesh "Graceful Shutdown": unregister skills). */
export async function deleteSkill(ctx: Ctx, { id }: { id: string }): Promise<{ deleted: true; id: string }> {
  // The shared key of a private mesh speaks for every member (docs/neighbours.md "Private network").
  const shared = ctx.caller.kind === "anonymous" && ctx.caller.reason === "mesh_shared_key";
  const agentId = shared ? undefined : agentOf(ctx);
  const skillId = skillIdOf(id);
  return withTx(ctx, async (tx: Tx) => {
    const gone = await tx
      .delete(meshSkills)
      .where(and(eq(meshSkills.id, skillId), agentId === undefined ? undefined : eq(meshSkills.agentId, agentId)))
      .returning({ id: meshSkills.id });
    if (gone.length === 0) {
      const [other] = await tx.select({ id: meshSkills.id }).from(meshSkills).where(eq(meshSkills.id, skillId));
      if (other) throw new AppError("FORBIDDEN", "only the providing agent removes its skill", { reason: "not_owner" });
      throw new AppError("NOT_FOUND", "no such skill", { reason: "skill_not_found", skill_id: id });
    }
    await tx.delete(meshSkillTags).where(eq(meshSkillTags.skillId, skillId));
    return { deleted: true as const, id: skillId };
  });
}

/**
 * GET /skills: oldest first, keyset pages on the id. Each filter walks an index ending in id:
 * (tag, skill_id), (name, id), (agent_id, id); combined, the most selective one leads and the rest
 * are conditions on the page it reads.
 */
export async function listSkills(
  ctx: Ctx,
  q: {
    tag?: string | undefined;
    name?: string | undefined;
    agent?: string | undefined;
    limit: number;
    cursor?: string | undefined;
  },
): Promise<{ skills: SkillWire[]; next_cursor: string | null }> {
  const after = decodeIdCursor(q.cursor, "skl");
  const conds = [];
  if (after) conds.push(gt(meshSkills.id, after));
  if (q.name !== undefined) conds.push(eq(meshSkills.name, q.name));
  if (q.agent !== undefined) conds.push(eq(meshSkills.agentId, parseAgentId(q.agent)));
  if (q.tag !== undefined) {
    const tag = q.tag.trim().toLowerCase();
    const tagged = dbOf(ctx)
      .select({ id: meshSkillTags.skillId })
      .from(meshSkillTags)
      .where(and(eq(meshSkillTags.tag, tag), after ? gt(meshSkillTags.skillId, after) : undefined));
    conds.push(inArray(meshSkills.id, tagged));
  }
  const rows = await skillsWithAgent(dbOf(ctx))
    .where(conds.length > 0 ? and(...conds) : undefined)
    .orderBy(asc(meshSkills.id))
    .limit(q.limit + 1);
  const { page, next_cursor } = keysetPage(rows, q.limit);
  return { skills: page.map(toWire), next_cursor };
}

/** Skills listed on a provider's agent record, page and cards: the first ones registered. */
const SKILLS_ON_RECORD = 50;

/** A provider's skills for its agent record, page and cards (oldest first, at most SKILLS_ON_RECORD). */
export async function skillsOfAgent(db: DbOrTx, agentId: string): Promise<SkillSummaryWire[]> {
  return db
    .select({
      id: meshSkills.id,
      name: meshSkills.name,
      description: meshSkills.description,
      version: meshSkills.version,
      tags: meshSkills.tags,
    })
    .from(meshSkills)
    .where(eq(meshSkills.agentId, agentId))
    .orderBy(asc(meshSkills.id))
    .limit(SKILLS_ON_RECORD);
}

/** How many skills an ADP discovery page shows beside each card. */
const SKILLS_PER_CARD = 10;

/** Skills beside each card of an ADP discovery page: the first SKILLS_PER_CARD of each agent, one query. */
export async function skillsOfAgents(
  db: DbOrTx,
  agentIds: readonly string[],
): Promise<Map<string, SkillSummaryWire[]>> {
  const out = new Map<string, SkillSummaryWire[]>();
  if (agentIds.length === 0) return out;
  const ranked = db.$with("ranked").as(
    db
      .select({
        id: meshSkills.id,
        agentId: meshSkills.agentId,
        name: meshSkills.name,
        description: meshSkills.description,
        version: meshSkills.version,
        tags: meshSkills.tags,
        n: sql<number>`row_number() over (partition by ${meshSkills.agentId} order by ${meshSkills.id})`.as("n"),
      })
      .from(meshSkills)
      .where(inArray(meshSkills.agentId, [...agentIds])),
  );
  const rows = await db
    .with(ranked)
    .select()
    .from(ranked)
    .where(lte(ranked.n, SKILLS_PER_CARD))
    .orderBy(asc(ranked.agentId), asc(ranked.id));
  for (const { agentId, n: _n, ...skill } of rows) {
    const list = out.get(agentId) ?? [];
    list.push(skill);
    out.set(agentId, list);
  }
  return out;
}
