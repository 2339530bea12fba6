// ADP §3.6 skill tags: normalisation, aliases and the three matching rules of §3.6.1.
//
// A tag is lower-cased (NFKC), trimmed, spaces and underscores become hyphens, empty path segments
// are dropped; a trailing "/*" marks a prefix query. Aliases are deployment-specific (§3.6.1 "MAY
// support alias normalization"): a whole-tag alias may place a flat word in the §3.6 category tree
// ("translation" → "nlp/translation"), a segment alias renames one segment anywhere in a path
// ("py" → "python", so "coding/py" → "coding/python"). Both sides of a match — query tags and an
// agent's skills — are normalised the same way, so an alias never makes a tag miss itself.

export interface QueryTag {
  /** The normalised path, without the "/*" of a prefix query. */
  path: string;
  prefix: boolean;
}

export type TagRule = "exact" | "prefix" | "parent";

/** Segment aliases: one segment for another (deployment table, README "Protocol decisions"). */
const SEGMENT_ALIASES: Readonly<Record<string, string>> = {
  py: "python",
  python3: "python",
  js: "javascript",
  ts: "typescript",
  golang: "go",
  ml: "machine-learning",
  k8s: "kubernetes",
  sol: "solidity",
};

/** Whole-tag aliases: a flat tag placed under a recommended §3.6 category. */
const TAG_ALIASES: Readonly<Record<string, string>> = {
  translation: "nlp/translation",
  translate: "nlp/translation",
  summarization: "nlp/generation/summarization",
  summarisation: "nlp/generation/summarization",
  ocr: "vision/ocr",
  "speech-to-text": "audio/speech-to-text",
  stt: "audio/speech-to-text",
  "web-search": "retrieval/web-search",
  "code-generation": "coding/code-generation",
  codegen: "coding/code-generation",
  debugging: "coding/debugging",
  "data-analysis": "analytical/data-analysis",
  deployment: "ops/deployment",
  monitoring: "ops/monitoring",
};

const MAX_SEGMENTS = 8;
const MAX_SEGMENT_LENGTH = 64;

/** The normalised path of a tag ("" when nothing is left), and whether it ended in "/*". */
export function normalizeTag(raw: string): QueryTag {
  let s = raw.normalize("NFKC").trim().toLowerCase();
  const prefix = s.endsWith("/*");
  if (prefix) s = s.slice(0, -2);
  const segments = s
    .split("/")
    .map((p) =>
      p
        .trim()
        .replace(/[\s_]+/g, "-")
        .slice(0, MAX_SEGMENT_LENGTH),
    )
    .filter((p) => p.length > 0 && p !== "*")
    .slice(0, MAX_SEGMENTS);
  const joined = segments.join("/");
  const whole = TAG_ALIASES[joined];
  const path = whole ?? segments.map((p) => SEGMENT_ALIASES[p] ?? p).join("/");
  return { path, prefix };
}

/** A skill's path and all its ancestors: "nlp/translation/zh" → nlp, nlp/translation, nlp/translation/zh. */
export function ancestorPaths(path: string): string[] {
  const parts = path.split("/");
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
}

/**
 * Every path a set of skills answers to, deduplicated. A query tag (prefix or not) matches one of
 * the skills exactly when its path is in this set — the SQL prefilter is `skill_paths && tags`.
 */
export function skillPaths(skills: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of skills) {
    const { path } = normalizeTag(s);
    if (path) for (const p of ancestorPaths(path)) out.add(p);
  }
  return [...out];
}

/** Distinct normalised query tags (by path: "nlp" and "nlp/*" select the same skills). */
export function queryTags(raw: readonly string[]): QueryTag[] {
  const seen = new Map<string, QueryTag>();
  for (const r of raw) {
    const q = normalizeTag(r);
    if (q.path && !seen.has(q.path)) seen.set(q.path, q);
  }
  return [...seen.values()];
}

/**
 * ADP §3.6.1 for one query tag against one skill (both normalised):
 * - exact: "nlp/translation" matches only "nlp/translation";
 * - prefix: "nlp/*" matches any skill whose path starts with the segment(s) before "/*"
 *   ("nlp", "nlp/translation", "nlp/text-analysis/sentiment");
 * - parent: a skill "nlp/translation" answers a query "nlp" — the more specific skill implies
 *   the general category (never the reverse: a skill "nlp" does not answer "nlp/translation").
 */
export function matchRule(q: QueryTag, skillPath: string): TagRule | null {
  if (q.prefix) return skillPath === q.path || skillPath.startsWith(`${q.path}/`) ? "prefix" : null;
  if (skillPath === q.path) return "exact";
  return skillPath.startsWith(`${q.path}/`) ? "parent" : null;
}

/**
 * The raw tags that normalise to one of `paths` — used to look for missions whose flat tags
 * would match an agent's skills (mission tags are stored as written, aliases unapplied).
 */
export function rawFormsOf(paths: readonly string[]): string[] {
  const wanted = new Set(paths);
  const out = new Set(paths.filter((p) => !p.includes("/")));
  for (const [alias, target] of Object.entries(TAG_ALIASES)) if (wanted.has(target)) out.add(alias);
  for (const [alias, target] of Object.entries(SEGMENT_ALIASES)) if (wanted.has(target)) out.add(alias);
  // Mission tags may be written with underscores ("web_search"); normalisation makes them hyphens.
  for (const t of [...out]) if (t.includes("-")) out.add(t.replaceAll("-", "_"));
  return [...out];
}
