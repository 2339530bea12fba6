import type { z } from "zod";
import { AppError } from "./errors";
import { itemAt } from "./item-at";

// Strict requests (docs/decisions.md "Strict requests"): a field the request schema does not know is
// refused with its nearest known name, never dropped silently — a misspelt `apeal` would otherwise
// keep the default it meant to change. One walk over a zod schema and the value it is about to
// parse, shared by REST (src/http/openapi.ts router) and MCP (the tool runner). Keys starting with
// `x-` are extensions and pass; records, passthrough objects and `any` accept every key.

/** One unknown key: where it sits (dotted path, `[i]` for array items) and the keys known beside it. */
export interface UnknownField {
  path: string;
  key: string;
  known: string[];
}

type Def = { type: string } & Record<string, unknown>;
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Extension keys every object accepts. */
export const isExtensionKey = (key: string) => key.toLowerCase().startsWith("x-");

const MAX_WALK_DEPTH = 64; // bodies are bounded to this depth before parsing (src/lib/json-text.ts)

/** Every key of `value` that `schema` (as the server parses input) does not declare. */
export function unknownFields(schema: z.ZodType, value: unknown): UnknownField[] {
  const out: UnknownField[] = [];
  walk(schema, value, { path: "", out, depth: 0 });
  return out;
}

const WRAPPERS = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "catch",
  "readonly",
  "nonoptional",
  "success",
]);

/** Where the walk stands: the dotted path so far, the findings, and the nesting depth. */
interface At {
  path: string;
  out: UnknownField[];
  depth: number;
}

const deeper = (at: At, path: string): At => ({ path, out: at.out, depth: at.depth + 1 });
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function walk(schema: unknown, value: unknown, at: At): void {
  const def = defOf(schema);
  if (!def || at.depth > MAX_WALK_DEPTH || value === undefined || value === null) return;
  if (WRAPPERS.has(def.type)) return walk(def.innerType, value, at);
  switch (def.type) {
    case "object":
      return walkObject(def, value, at);
    case "array":
    case "tuple":
      return walkItems(def, value, at);
    case "record":
      return walkRecord(def, value, at);
    case "pipe":
      return walk(pipeInput(def), value, at);
    case "lazy":
      return walkLazy(def, value, at);
    case "intersection":
      return walkIntersection(def, value, at);
    case "union":
      return walkUnion(list(def.options), value, at);
    default:
      return;
  }
}

/** z.preprocess is a pipe from a transform: its input's shape is the target's. */
const pipeInput = (def: Def): unknown => (defOf(def.in)?.type === "transform" ? def.out : def.in);

function walkLazy(def: Def, value: unknown, at: At) {
  if (typeof def.getter === "function") walk(def.getter(), value, at);
}

function walkRecord(def: Def, value: unknown, at: At) {
  if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(def.valueType, v, deeper(at, join(at.path, k)));
}

/** An array's items all follow `element`; a tuple's follow their position, then `rest`. */
function walkItems(def: Def, value: unknown, at: At) {
  if (!Array.isArray(value)) return;
  const items = list(def.items);
  value.forEach((v, i) => {
    const item = def.type === "array" ? def.element : (items[i] ?? def.rest);
    walk(item, v, deeper(at, `${at.path}[${i}]`));
  });
}

function walkObject(def: Def, value: unknown, at: At) {
  if (!isObject(value) || !isObject(def.shape)) return;
  const shape = def.shape;
  // passthrough / catchall objects accept extra keys; strict objects' catchall is `never`.
  const open = def.catchall !== undefined && defOf(def.catchall)?.type !== "never";
  const known = Object.keys(shape);
  for (const [k, v] of Object.entries(value)) {
    const path = join(at.path, k);
    if (k in shape) walk(shape[k], v, deeper(at, path));
    else if (open) walk(def.catchall, v, deeper(at, path));
    else if (!isExtensionKey(k)) at.out.push({ path, key: k, known });
  }
}

function walkIntersection(def: Def, value: unknown, at: At) {
  // A key is unknown only if neither side knows it.
  const left: UnknownField[] = [];
  const right: UnknownField[] = [];
  walk(def.left, value, { ...at, out: left });
  walk(def.right, value, { ...at, out: right });
  for (const u of left) {
    const other = right.find((r) => r.path === u.path);
    if (other) at.out.push({ ...u, known: [...new Set([...u.known, ...other.known])] });
  }
}

function walkUnion(options: unknown[], value: unknown, at: At) {
  // The option the value fits best (fewest unknown keys) judges it; a discriminated union's
  // matching option wins ties because a key it lacks is unknown for the others too.
  let best: UnknownField[] | undefined;
  for (const option of options) {
    const found: UnknownField[] = [];
    walk(option, value, { ...at, out: found });
    if (best === undefined || found.length < best.length) best = found;
    if (best.length === 0) return;
  }
  if (best) at.out.push(...best);
}

const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);

/** Levenshtein distance (two rows; keys are short). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(
        itemAt(prev, j, "distance row") + 1,
        itemAt(cur, j - 1, "distance row") + 1,
        itemAt(prev, j - 1, "distance row") + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = cur;
  }
  return itemAt(prev, b.length, "distance row");
}

/** The known name closest to `key` (case-insensitive edit distance; first declared wins ties). */
function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}

/**
 * The 400 for the first unknown field: "Received unknown parameter: apeal. Did you mean appeal?"
 * (`where` says body, query or arguments). Details carry the field, its nearest known name, the
 * known names and the fix, so an agent can correct the call without reading the docs.
 */
export function unknownFieldError(found: UnknownField[], where: "body" | "query" | "arguments"): AppError {
  const first = itemAt(found, 0, "unknown fields");
  const guess = nearest(first.key, first.known);
  const prefix = first.path.slice(0, first.path.length - first.key.length);
  const suggestion = guess === undefined ? undefined : `${prefix}${guess}`;
  const message =
    `Received unknown parameter: ${first.path}.` +
    (suggestion ? ` Did you mean ${suggestion}?` : " This object takes no parameters.");
  return new AppError("INVALID_PARAMETER", message, {
    reason: "unknown_parameter",
    field: first.path,
    in: where,
    did_you_mean: suggestion ?? null,
    known_fields: first.known,
    fix: suggestion
      ? `rename ${first.path} to ${suggestion}, or prefix an extension field with "x-"`
      : `remove ${first.path}, or prefix an extension field with "x-"`,
    ...(found.length > 1 && { unknown_fields: found.slice(0, 20).map((u) => u.path) }),
  });
}
