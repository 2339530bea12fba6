import { z } from "zod";
import { AppError } from "../../lib/errors";
import type { Reason } from "../../lib/error-reasons";

// AIP-2 (Mission Type Registry, v0.3.2): the registered types of §3 with their `type_params`
// schemas, this server's own `slug:type` custom types (§5), and the §3.9 verification
// compatibility table. One module owns the vocabulary; missions.create validates with it.

const REGISTRY_VERSION = "aip-2-v0.3.2";
/** AIP-2 §5: this implementation's slug; custom type ids are `oabp:<type>`. */
const CUSTOM_TYPE_SLUG = "oabp";
/** AIP-2 §1: a type identifier. */
const TYPE_ID = /^[a-z][a-z0-9_]{1,63}$/;
/** AIP-2 §5: a custom type identifier `<slug>:<type>`. */
const CUSTOM_TYPE_ID = /^[a-z][a-z0-9_-]{0,31}:[a-z][a-z0-9_]{1,63}$/;

const url = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^(https?|ipfs|ar):\/\//.test(u), "must be an https://, http://, ipfs:// or ar:// URL");
const nonEmpty = (max: number) => z.string().trim().min(1).max(max);
const set = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .array(z.enum(values))
    .min(1)
    .max(values.length)
    .refine((a) => new Set(a).size === a.length, "must not repeat a value");
const bcp47 = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "must be a BCP 47 language tag");

const TOKEN_SCAN_CHECKS = ["honeypot", "rug", "ownership", "liquidity", "tax", "blacklist"] as const;

// §3.1–§3.7; strict objects: an unknown key is a typo the creator should hear about.
const REGISTERED = {
  code_review: z
    .object({
      target_url: url,
      language: nonEmpty(64),
      review_scope: set(["bugs", "security", "gas", "style", "logic"] as const),
      output_format: z.enum(["markdown", "structured_json"]),
    })
    .strict(),
  token_scan: z
    .object({
      chain_id: z
        .number()
        .int()
        .min(1)
        .max(2 ** 53 - 1),
      token_address: z
        .string()
        .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address")
        .transform((a) => a.toLowerCase()),
      checks: set(TOKEN_SCAN_CHECKS),
    })
    .strict(),
  doc_write: z
    .object({
      target_url: url,
      doc_kind: z.enum(["readme", "api_reference", "tutorial", "changelog", "inline_comments", "other"]),
      audience: nonEmpty(200),
      max_words: z.number().int().min(1).max(1_000_000).optional(),
      style_guide_url: url.optional(),
    })
    .strict(),
  test_create: z
    .object({
      target_url: url,
      test_framework: nonEmpty(64),
      coverage_target_pct: z.number().int().min(0).max(100),
      test_kinds: set(["unit", "integration", "fuzz", "invariant", "snapshot"] as const),
    })
    .strict(),
  data_label: z
    .object({
      dataset_url: url,
      label_schema_url: url,
      sample_count: z.number().int().min(1).max(100_000_000),
      format: z.enum(["jsonl", "csv"]),
    })
    .strict(),
  translation: z
    .object({
      source_url: url,
      source_lang: bcp47,
      target_lang: bcp47,
      glossary_url: url.optional(),
    })
    .strict(),
  research: z
    .object({
      question: nonEmpty(500),
      depth: z.enum(["quick", "thorough", "exhaustive"]),
      citation_format: z.enum(["markdown_links", "apa", "none"]),
      output_sections: set(["summary", "findings", "sources", "limitations"] as const),
    })
    .strict(),
  // §3.8: no schema; type_params MUST be {} (§1).
  freeform: z.object({}).strict(),
} as const;

export type RegisteredType = keyof typeof REGISTERED;
const REGISTERED_TYPES = Object.keys(REGISTERED) as RegisteredType[];

/** §5: this server's custom types, published at GET /missions/types/custom/{type_id}. */
const CUSTOM: Record<
  string,
  { version: string; description: string; params: z.ZodType; output: z.ZodType; example: Record<string, unknown> }
> = {
  [`${CUSTOM_TYPE_SLUG}:bug_bounty`]: {
    version: "1",
    description: "Find and report a reproducible defect in a named target; the report is the deliverable.",
    params: z
      .object({
        target_url: url,
        severity_min: z.enum(["low", "medium", "high", "critical"]),
        disclosure: z.enum(["private", "public"]).default("private"),
      })
      .strict(),
    output: z.object({
      severity: z.enum(["low", "medium", "high", "critical"]),
      title: z.string().max(100),
      steps_to_reproduce: z.string(),
      impact: z.string(),
    }),
    example: { target_url: "https://github.com/example/repo", severity_min: "medium", disclosure: "private" },
  },
};
const CUSTOM_TYPES = Object.keys(CUSTOM);

type Level = "RECOMMENDED" | "OPTIONAL" | "NOT_RECOMMENDED" | "NOT_APPLICABLE";
type Row = Record<"creator_judges" | "first_valid_match" | "oracle" | "peer_vote", Level>;
const R = "RECOMMENDED",
  O = "OPTIONAL",
  N = "NOT_RECOMMENDED",
  X = "NOT_APPLICABLE";
/** AIP-2 §3.9 compatibility table; custom types take the freeform row. */
const COMPATIBILITY: Record<RegisteredType, Row> = {
  code_review: { creator_judges: R, first_valid_match: N, oracle: O, peer_vote: O },
  token_scan: { creator_judges: O, first_valid_match: N, oracle: R, peer_vote: O },
  doc_write: { creator_judges: R, first_valid_match: N, oracle: X, peer_vote: O },
  test_create: { creator_judges: R, first_valid_match: O, oracle: R, peer_vote: O },
  data_label: { creator_judges: O, first_valid_match: N, oracle: R, peer_vote: R },
  translation: { creator_judges: O, first_valid_match: N, oracle: O, peer_vote: R },
  research: { creator_judges: R, first_valid_match: N, oracle: O, peer_vote: O },
  freeform: { creator_judges: R, first_valid_match: O, oracle: O, peer_vote: R },
};

/** Canonical fields of each structured type's `solution` schema (§3.9 binding clause). */
const OUTPUT_FIELDS: Partial<Record<RegisteredType, string[]>> = {
  code_review: ["severity_counts", "findings", "summary"],
  token_scan: ["is_honeypot", "is_rug_risk", "risk_score", "checks"],
};

const isRegistered = (t: string): t is RegisteredType => Object.hasOwn(REGISTERED, t);
const customOf = (t: string) => (Object.hasOwn(CUSTOM, t) ? CUSTOM[t] : undefined);
export const supportedTypes = (): string[] => [...REGISTERED_TYPES, ...CUSTOM_TYPES];

const unprocessable = (
  field: string,
  reason: Reason<"UNPROCESSABLE">,
  message: string,
  extra: Record<string, unknown> = {},
) => new AppError("UNPROCESSABLE", message, { field, reason, ...extra });

/**
 * AIP-2 §1, §3, §5 at ingestion: the type must be one this server supports, and its
 * type_params must pass the type's schema. Returns the normalised params and warnings
 * (§3.9: NOT_RECOMMENDED methods and the first_valid_match binding clause). A malformed
 * identifier is 400; a well-formed but unsupported type, bad params or a NOT_APPLICABLE
 * method is 422.
 */
export function validateMissionType({
  missionType: type,
  typeParams: rawParams,
  verification,
}: {
  missionType: string | undefined;
  typeParams: Record<string, unknown> | undefined;
  verification: { type: keyof Row; params: Record<string, unknown> };
}): { missionType: string; typeParams: Record<string, unknown>; warnings: string[] } {
  const missionType = type ?? "freeform";
  const typeParams = parseTypeParams(missionType, rawParams);
  return { missionType, typeParams, warnings: compatibilityWarnings(missionType, verification) };
}

/** The type's identifier and its type_params against the type's schema (AIP-2 §1, §3, §5). */
function parseTypeParams(missionType: string, rawParams: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!TYPE_ID.test(missionType) && !CUSTOM_TYPE_ID.test(missionType)) {
    throw new AppError(
      "INVALID_PARAMETER",
      "mission_type must match ^[a-z][a-z0-9_]{1,63}$ or <slug>:<type> (AIP-2 §1, §5)",
      { field: "mission_type" },
    );
  }
  const schema: z.ZodType | undefined = isRegistered(missionType)
    ? REGISTERED[missionType]
    : customOf(missionType)?.params;
  if (!schema) {
    throw unprocessable(
      "mission_type",
      "unsupported_mission_type",
      `mission_type ${missionType} is not supported here; GET /missions/types lists the supported types`,
      { supported_types: supportedTypes() },
    );
  }
  const parsed = schema.safeParse(rawParams ?? {});
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    const path = i.path.map(String).join(".");
    throw unprocessable(
      path ? `type_params.${path}` : "type_params",
      "invalid_type_params",
      `type_params${path ? `.${path}` : ""}: ${i.message} (AIP-2 §3 ${missionType})`,
      { mission_type: missionType },
    );
  }
  return parsed.data as Record<string, unknown>;
}

/**
 * AIP-2 §3.9: a NOT_APPLICABLE method is refused (422); a NOT_RECOMMENDED one, and a
 * first_valid_match rule that names none of the type's output fields, are warnings.
 */
function compatibilityWarnings(
  missionType: string,
  verification: { type: keyof Row; params: Record<string, unknown> },
): string[] {
  const row = isRegistered(missionType) ? COMPATIBILITY[missionType] : COMPATIBILITY.freeform;
  const level = row[verification.type];
  if (level === "NOT_APPLICABLE") {
    throw unprocessable(
      "verification.type",
      "verification_not_applicable",
      `${verification.type} cannot verify ${missionType} missions (AIP-2 §3.9)`,
      { mission_type: missionType },
    );
  }
  const warnings: string[] = [];
  if (level === "NOT_RECOMMENDED")
    warnings.push(
      `verification_not_recommended: ${verification.type} is NOT_RECOMMENDED for ${missionType} missions (AIP-2 §3.9)`,
    );
  const fields = isRegistered(missionType) ? OUTPUT_FIELDS[missionType] : undefined;
  const expected = verification.params.expected;
  if (
    verification.type === "first_valid_match" &&
    fields &&
    typeof expected === "string" &&
    !fields.some((f) => expected.includes(f))
  ) {
    warnings.push(
      `first_valid_match_unbound: the match rule names none of ${fields.join(", ")}, so it cannot bind the ${missionType} solution schema (AIP-2 §3.9 binding clause)`,
    );
  }
  return warnings;
}

/**
 * AIP-2 §3.2: "Implementations not supporting a listed check MUST return skipped for that check".
 * This server runs no token scanner, so each listed check is reported skipped, never guessed.
 */
export function serverChecks(
  missionType: string,
  typeParams: Record<string, unknown>,
): Record<string, { result: "skipped"; detail: string }> | null {
  if (missionType !== "token_scan" || !Array.isArray(typeParams.checks)) return null;
  const out: Record<string, { result: "skipped"; detail: string }> = {};
  for (const c of typeParams.checks as string[])
    out[c] = {
      result: "skipped",
      detail: "this server runs no token scanner; the submitted report and the mission's verification decide",
    };
  return out;
}

const jsonSchema = (s: z.ZodType) =>
  z.toJSONSchema(s, { target: "draft-2020-12", io: "input", unrepresentable: "any" });

let typesDoc: ReturnType<typeof buildTypesDocument> | undefined;
/** GET /missions/types (AIP-2 §2), with each type's schema and §3.9 row as extras (built once). */
export const typesDocument = () => (typesDoc ??= buildTypesDocument());

function buildTypesDocument() {
  return {
    supported_types: supportedTypes(),
    registry_version: REGISTRY_VERSION,
    custom_types: CUSTOM_TYPES.map((id) => customTypeDocument(id)!),
    types: REGISTERED_TYPES.map((id) => ({
      type_id: id,
      type_params_schema: jsonSchema(REGISTERED[id]),
      verification_compatibility: COMPATIBILITY[id],
      ...(id === "token_scan" && { server_checks: Object.fromEntries(TOKEN_SCAN_CHECKS.map((c) => [c, "skipped"])) }),
    })),
  };
}

/** GET /missions/types/custom/{type_id} (AIP-2 §5); undefined for an unknown id. */
export function customTypeDocument(id: string) {
  const t = customOf(id);
  if (!t) return undefined;
  return {
    type_id: id,
    version: t.version,
    description: t.description,
    type_params_schema: jsonSchema(t.params),
    output_schema: jsonSchema(t.output),
    example_type_params: t.example,
    verification_compatibility: COMPATIBILITY.freeform,
  };
}

/**
 * AIP-2 App. B "include the type_params schema URL": the path of a type's `type_params` JSON
 * Schema (registered and custom types alike), linked from every mission record.
 */
export const typeSchemaPath = (id: string) => `/missions/types/${encodeURIComponent(id)}/schema`;

/** GET /missions/types/{type_id}/schema; undefined for an unknown id. */
export function typeParamsSchemaDocument(id: string) {
  if (isRegistered(id)) return jsonSchema(REGISTERED[id]);
  const t = customOf(id);
  return t ? jsonSchema(t.params) : undefined;
}
