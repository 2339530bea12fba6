import { canonicalJson } from "../../lib/canonical-json";

// The skill schemas' JSON Schema subset (docs/neighbours.md "Agent Mesh"). A skill's input and
// output schemas are checked once when the skill is registered (size, depth, known keywords), and
// every invocation's payload is validated against the input schema before it is forwarded.
// Bounded by construction: no $ref (a schema is a finite tree), at most MAX_SCHEMA_DEPTH levels
// and OABP_MESH_SCHEMA_MAX_BYTES bytes, so one validation visits each (schema node, value node)
// pair at most once; no `pattern` (a regex would need the RE2 worker's time budget per string).

export const MAX_SCHEMA_DEPTH = 16;
/** Validation stops collecting after this many problems (the answer names the first ones). */
export const MAX_REPORTED_ERRORS = 10;

const TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"] as const;
type JsonType = (typeof TYPES)[number];

// Annotations: accepted and ignored (JSON Schema 2020-12 treats `format` as an annotation too).
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
]);
const SUBSCHEMA_MAPS = new Set(["properties"]);
const SUBSCHEMAS = new Set(["items", "not"]);
const SUBSCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf"]);
const COUNTS = new Set(["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]);
const NUMBERS = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]);
const OTHERS = new Set(["type", "required", "additionalProperties", "enum", "const", "uniqueItems"]);

export type SchemaProblem = { path: string; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Problems with a schema as registered (empty: acceptable). */
export function checkSchema(schema: unknown): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  walk(schema, "#", 1, out);
  return out.slice(0, MAX_REPORTED_ERRORS);
}

function walk(s: unknown, path: string, depth: number, out: SchemaProblem[]): void {
  if (out.length >= MAX_REPORTED_ERRORS) return;
  if (typeof s === "boolean") return;
  if (!isObject(s)) return void out.push({ path, message: "a schema must be an object or a boolean" });
  if (depth > MAX_SCHEMA_DEPTH)
    return void out.push({ path, message: `schemas nest at most ${MAX_SCHEMA_DEPTH} levels deep` });
  for (const [k, v] of Object.entries(s)) {
    const at = `${path}/${k}`;
    if (ANNOTATIONS.has(k)) continue;
    if (SUBSCHEMA_MAPS.has(k)) {
      if (!isObject(v)) out.push({ path: at, message: "must be an object of schemas" });
      else for (const [name, sub] of Object.entries(v)) walk(sub, `${at}/${name}`, depth + 1, out);
    } else if (SUBSCHEMAS.has(k) || k === "additionalProperties") {
      walk(v, at, depth + 1, out);
    } else if (SUBSCHEMA_LISTS.has(k)) {
      if (!Array.isArray(v) || v.length === 0) out.push({ path: at, message: "must be a non-empty array of schemas" });
      else v.forEach((sub, i) => walk(sub, `${at}/${i}`, depth + 1, out));
    } else if (COUNTS.has(k)) {
      if (!Number.isSafeInteger(v) || (v as number) < 0)
        out.push({ path: at, message: "must be a non-negative integer" });
    } else if (NUMBERS.has(k)) {
      if (typeof v !== "number" || !Number.isFinite(v) || (k === "multipleOf" && v <= 0))
        out.push({ path: at, message: k === "multipleOf" ? "must be a positive number" : "must be a number" });
    } else if (k === "type") {
      const list = Array.isArray(v) ? v : [v];
      if (list.length === 0 || !list.every((t) => TYPES.includes(t as JsonType)))
        out.push({ path: at, message: `must be one of ${TYPES.join(", ")} or a list of them` });
    } else if (k === "required") {
      if (!Array.isArray(v) || !v.every((x) => typeof x === "string"))
        out.push({ path: at, message: "must be an array of property names" });
    } else if (k === "enum") {
      if (!Array.isArray(v) || v.length === 0) out.push({ path: at, message: "must be a non-empty array" });
    } else if (k === "uniqueItems") {
      if (typeof v !== "boolean") out.push({ path: at, message: "must be a boolean" });
    } else if (!OTHERS.has(k)) {
      out.push({
        path: at,
        message: `keyword ${k} is not supported by the hub (no $ref, pattern, patternProperties, if/then/else)`,
      });
    }
  }
}

const typeOf = (v: unknown): JsonType =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "array"
      : typeof v === "number"
        ? Number.isInteger(v)
          ? "integer"
          : "number"
        : (typeof v as JsonType);

/** Structural equality of JSON values (enum, const, uniqueItems). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}

/** Problems of `value` against a schema that passed checkSchema (empty: valid). */
export function validate(schema: unknown, value: unknown): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  check(schema, value, "#", out);
  return out.slice(0, MAX_REPORTED_ERRORS);
}

function check(s: unknown, v: unknown, path: string, out: SchemaProblem[]): void {
  if (out.length >= MAX_REPORTED_ERRORS) return;
  if (s === true) return;
  if (s === false || !isObject(s)) return void out.push({ path, message: "no value is allowed here" });
  const fail = (message: string) => void out.push({ path, message });
  const t = typeOf(v);
  if (s.type !== undefined) {
    const allowed = (Array.isArray(s.type) ? s.type : [s.type]) as JsonType[];
    if (!allowed.includes(t) && !(t === "integer" && allowed.includes("number")))
      return fail(`must be ${allowed.join(" or ")}, is ${t}`);
  }
  if (s.enum !== undefined && !(s.enum as unknown[]).some((e) => same(e, v))) fail("must be one of the enum values");
  if (Object.hasOwn(s, "const") && !same(s.const, v)) fail("must equal the const value");
  if (typeof v === "string") {
    const n = [...v].length;
    if (typeof s.minLength === "number" && n < s.minLength) fail(`must be at least ${s.minLength} characters`);
    if (typeof s.maxLength === "number" && n > s.maxLength) fail(`must be at most ${s.maxLength} characters`);
  }
  if (typeof v === "number") {
    if (typeof s.minimum === "number" && v < s.minimum) fail(`must be ≥ ${s.minimum}`);
    if (typeof s.maximum === "number" && v > s.maximum) fail(`must be ≤ ${s.maximum}`);
    if (typeof s.exclusiveMinimum === "number" && v <= s.exclusiveMinimum) fail(`must be > ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === "number" && v >= s.exclusiveMaximum) fail(`must be < ${s.exclusiveMaximum}`);
    if (typeof s.multipleOf === "number" && !Number.isInteger(v / s.multipleOf))
      fail(`must be a multiple of ${s.multipleOf}`);
  }
  if (Array.isArray(v)) {
    if (typeof s.minItems === "number" && v.length < s.minItems) fail(`must have at least ${s.minItems} items`);
    if (typeof s.maxItems === "number" && v.length > s.maxItems) fail(`must have at most ${s.maxItems} items`);
    if (s.uniqueItems === true && new Set(v.map((x) => canonicalJson(x))).size !== v.length)
      fail("items must be unique");
    if (s.items !== undefined) v.forEach((x, i) => check(s.items, x, `${path}/${i}`, out));
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (typeof s.minProperties === "number" && keys.length < s.minProperties)
      fail(`must have at least ${s.minProperties} properties`);
    if (typeof s.maxProperties === "number" && keys.length > s.maxProperties)
      fail(`must have at most ${s.maxProperties} properties`);
    for (const r of (s.required as string[] | undefined) ?? [])
      if (!Object.hasOwn(v, r)) out.push({ path: `${path}/${r}`, message: "is required" });
    const props = (s.properties as Record<string, unknown> | undefined) ?? {};
    for (const k of keys) {
      if (Object.hasOwn(props, k)) check(props[k], v[k], `${path}/${k}`, out);
      else if (s.additionalProperties !== undefined) check(s.additionalProperties, v[k], `${path}/${k}`, out);
    }
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) check(sub, v, path, out);
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => validate(sub, v).length === 0))
    fail("must match at least one anyOf schema");
  if (Array.isArray(s.oneOf) && s.oneOf.filter((sub) => validate(sub, v).length === 0).length !== 1)
    fail("must match exactly one oneOf schema");
  if (s.not !== undefined && validate(s.not, v).length === 0) fail("must not match the not schema");
}
