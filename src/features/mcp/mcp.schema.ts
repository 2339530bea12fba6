import { z } from "@hono/zod-openapi";

// The MCP tools' JSON Schemas, generated from the REST zod schemas (docs/style.md "Declare once, derive
// the rest"): a tool's `inputSchema` is its argument schema (the REST body or query schema, plus
// the path ids) and its `outputSchema` the REST route's 200 schema, so neither can drift from
// REST. tools/list is read by every client and often pasted into a model's context, so both are
// compacted (docs/mcp.md "Schemas and size"): inputs keep every field, type, enum, bound and requirement but
// drop regex patterns and string length caps (the server still enforces them); outputs keep the
// top level only — every field with its JSON type — which is what a client needs to read
// `structuredContent` (the required lists would add a quarter again; docs/mcp.md "Schemas and size").

type Json = Record<string, unknown>;
const DROP = new Set(["$schema", "pattern", "maxLength", "additionalProperties", "propertyNames"]);
const MAX_DESCRIPTION = 160;

function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (DROP.has(k)) continue;
    if (k === "description" && typeof v === "string")
      out[k] = v.length > MAX_DESCRIPTION ? `${v.slice(0, MAX_DESCRIPTION - 1)}…` : v;
    else if (k === "properties" && v && typeof v === "object")
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, compact(s)]));
    else out[k] = compact(v);
  }
  return out;
}

const generate = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;

/** A tool's inputSchema: the argument schema as the server parses it, compacted. */
export function inputSchemaOf(schema: z.ZodType): Json {
  return compact(generate(schema, "input")) as Json;
}

/** The JSON type(s) of a generated property, without its inner structure. */
function shallow(s: Json): Json {
  if (typeof s.type === "string" || Array.isArray(s.type)) {
    const t: Json = { type: s.type };
    if (Array.isArray(s.enum) && s.enum.length <= 12) t.enum = s.enum;
    return t;
  }
  if (Array.isArray(s.enum)) return { enum: s.enum };
  const alts = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (alts) {
    const types = [...new Set(alts.flatMap((a) => (a.type === undefined ? [] : [a.type].flat())))];
    if (types.length && types.length === alts.length) return { type: types.length === 1 ? types[0] : types };
  }
  return {};
}

/** A tool's outputSchema: the REST 200 schema's top level (every field and its JSON type). */
export function outputSchemaOf(schema: z.ZodType): Json {
  const props = (generate(schema, "output").properties ?? {}) as Record<string, Json>;
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, shallow(v)])),
  };
}
