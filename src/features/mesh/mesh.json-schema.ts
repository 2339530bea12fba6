import { canonicalJson } from "../../lib/canonical-json";

// The skill schemas' JSON Schema subset (docs/neighbours.md "Agent Mesh"). A skill's input and
// output schemas are checked once when the skill is registered (size, depth, known keywords), and
// every invocation's payload is validated against the input schema before it is forwarded.
// Bounded by construction: no $ref (a schema is a finite tree), at most MAX_SCHEMA_DEPTH levels
// and MESH_SCHEMA_MAX_BYTES bytes, so one validation visits each (schema node, value node)
// pair at most once; no `pattern` (a regex would need the RE2 worker's time budget per string).

export const MAX_SCHEMA_DEPTH = 16;
/** Validation stops collecting after this many problems (the answer names the first ones). */
const MAX_REPORTED_ERRORS = 10;

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
  for (const [key, v] of Object.entries(s)) {
    const rule = KEYWORD_RULES.get(key) ?? unsupported;
    rule(v, { key, at: `${path}/${key}`, depth, out });
  }
}

/** One keyword of a schema being checked: its name, where it is, and the schema's depth. */
interface Keyword {
  key: string;
  at: string;
  depth: number;
  out: SchemaProblem[];
}
type KeywordRule = (v: unknown, k: Keyword) => void;

const problem = (k: Keyword, message: string) => void k.out.push({ path: k.at, message });
/** A keyword that holds a value rule only when `ok` says the value is well formed. */
const shaped =
  (ok: (v: unknown, key: string) => boolean, message: (key: string) => string): KeywordRule =>
  (v, k) => {
    if (!ok(v, k.key)) problem(k, message(k.key));
  };

const ignored: KeywordRule = () => {};
const unsupported: KeywordRule = (_v, k) =>
  problem(k, `keyword ${k.key} is not supported by the hub (no $ref, pattern, patternProperties, if/then/else)`);
const subschemaMap: KeywordRule = (v, k) => {
  if (!isObject(v)) problem(k, "must be an object of schemas");
  else for (const [name, sub] of Object.entries(v)) walk(sub, `${k.at}/${name}`, k.depth + 1, k.out);
};
const subschema: KeywordRule = (v, k) => walk(v, k.at, k.depth + 1, k.out);
const subschemaList: KeywordRule = (v, k) => {
  if (!Array.isArray(v) || v.length === 0) problem(k, "must be a non-empty array of schemas");
  else v.forEach((sub, i) => walk(sub, `${k.at}/${i}`, k.depth + 1, k.out));
};
const count = shaped(
  (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  () => "must be a non-negative integer",
);
const number = shaped(
  (v, key) => typeof v === "number" && Number.isFinite(v) && !(key === "multipleOf" && v <= 0),
  (key) => (key === "multipleOf" ? "must be a positive number" : "must be a number"),
);
const type = shaped(
  (v) => {
    const list = Array.isArray(v) ? v : [v];
    return list.length > 0 && list.every((t) => TYPES.includes(t as JsonType));
  },
  () => `must be one of ${TYPES.join(", ")} or a list of them`,
);

/** What each known keyword must hold; a keyword not in it is refused (no $ref, no pattern). */
const KEYWORD_RULES = new Map<string, KeywordRule>([
  ...[...ANNOTATIONS].map((k) => [k, ignored] as const),
  ...[...SUBSCHEMA_MAPS].map((k) => [k, subschemaMap] as const),
  ...[...SUBSCHEMAS, "additionalProperties"].map((k) => [k, subschema] as const),
  ...[...SUBSCHEMA_LISTS].map((k) => [k, subschemaList] as const),
  ...[...COUNTS].map((k) => [k, count] as const),
  ...[...NUMBERS].map((k) => [k, number] as const),
  ["type", type],
  [
    "required",
    shaped(
      (v) => Array.isArray(v) && v.every((x) => typeof x === "string"),
      () => "must be an array of property names",
    ),
  ],
  [
    "enum",
    shaped(
      (v) => Array.isArray(v) && v.length > 0,
      () => "must be a non-empty array",
    ),
  ],
  [
    "uniqueItems",
    shaped(
      (v) => typeof v === "boolean",
      () => "must be a boolean",
    ),
  ],
  ["const", ignored],
]);

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
  const at: At = { path, out };
  if (!checkType(s, v, at)) return;
  if (s.enum !== undefined && !(s.enum as unknown[]).some((e) => same(e, v)))
    fail(at, "must be one of the enum values");
  if (Object.hasOwn(s, "const") && !same(s.const, v)) fail(at, "must equal the const value");
  if (typeof v === "string") checkString(s, v, at);
  if (typeof v === "number") checkNumber(s, v, at);
  if (Array.isArray(v)) checkArray(s, v, at);
  if (isObject(v)) checkObject(s, v, at);
  checkCombinators(s, v, at);
}

/** Where a value is being validated, and the problems so far. */
interface At {
  path: string;
  out: SchemaProblem[];
}
type Schema = Record<string, unknown>;

const fail = (at: At, message: string) => void at.out.push({ path: at.path, message });

/** `type`: false (with the problem) when the value is of none of the listed types. */
function checkType(s: Schema, v: unknown, at: At): boolean {
  if (s.type === undefined) return true;
  const t = typeOf(v);
  const allowed = (Array.isArray(s.type) ? s.type : [s.type]) as JsonType[];
  if (allowed.includes(t) || (t === "integer" && allowed.includes("number"))) return true;
  fail(at, `must be ${allowed.join(" or ")}, is ${t}`);
  return false;
}

function checkString(s: Schema, v: string, at: At): void {
  const n = [...v].length;
  if (typeof s.minLength === "number" && n < s.minLength) fail(at, `must be at least ${s.minLength} characters`);
  if (typeof s.maxLength === "number" && n > s.maxLength) fail(at, `must be at most ${s.maxLength} characters`);
}

function checkNumber(s: Schema, v: number, at: At): void {
  if (typeof s.minimum === "number" && v < s.minimum) fail(at, `must be ≥ ${s.minimum}`);
  if (typeof s.maximum === "number" && v > s.maximum) fail(at, `must be ≤ ${s.maximum}`);
  if (typeof s.exclusiveMinimum === "number" && v <= s.exclusiveMinimum) fail(at, `must be > ${s.exclusiveMinimum}`);
  if (typeof s.exclusiveMaximum === "number" && v >= s.exclusiveMaximum) fail(at, `must be < ${s.exclusiveMaximum}`);
  if (typeof s.multipleOf === "number" && !Number.isInteger(v / s.multipleOf))
    fail(at, `must be a multiple of ${s.multipleOf}`);
}

function checkArray(s: Schema, v: unknown[], at: At): void {
  if (typeof s.minItems === "number" && v.length < s.minItems) fail(at, `must have at least ${s.minItems} items`);
  if (typeof s.maxItems === "number" && v.length > s.maxItems) fail(at, `must have at most ${s.maxItems} items`);
  if (s.uniqueItems === true && new Set(v.map((x) => canonicalJson(x))).size !== v.length)
    fail(at, "items must be unique");
  if (s.items !== undefined) v.forEach((x, i) => check(s.items, x, `${at.path}/${i}`, at.out));
}

function checkObject(s: Schema, v: Record<string, unknown>, at: At): void {
  const { path, out } = at;
  const keys = Object.keys(v);
  if (typeof s.minProperties === "number" && keys.length < s.minProperties)
    fail(at, `must have at least ${s.minProperties} properties`);
  if (typeof s.maxProperties === "number" && keys.length > s.maxProperties)
    fail(at, `must have at most ${s.maxProperties} properties`);
  for (const r of (s.required as string[] | undefined) ?? [])
    if (!Object.hasOwn(v, r)) out.push({ path: `${path}/${r}`, message: "is required" });
  const props = (s.properties as Record<string, unknown> | undefined) ?? {};
  for (const k of keys) {
    if (Object.hasOwn(props, k)) check(props[k], v[k], `${path}/${k}`, out);
    else if (s.additionalProperties !== undefined) check(s.additionalProperties, v[k], `${path}/${k}`, out);
  }
}

function checkCombinators(s: Schema, v: unknown, at: At): void {
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) check(sub, v, at.path, at.out);
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => validate(sub, v).length === 0))
    fail(at, "must match at least one anyOf schema");
  if (Array.isArray(s.oneOf) && s.oneOf.filter((sub) => validate(sub, v).length === 0).length !== 1)
    fail(at, "must match exactly one oneOf schema");
  if (s.not !== undefined && validate(s.not, v).length === 0) fail(at, "must not match the not schema");
}
