import { RE2JS } from "re2js";
import { z } from "zod";
import { unknownFieldError, unknownFields } from "../../lib/unknown-fields";
import { normalizeAddress } from "../../lib/address";
import { oracleMethodProblem } from "../../lib/evm";
import type { AssetConfig } from "../../env";
import { AppError } from "../../lib/errors";
import type { Reason } from "../../lib/error-reasons";
import { normalizeSha256 } from "../../lib/hash";
import { isUintString } from "../../lib/money";
import { VERIFICATION_TYPES, type VerificationType } from "../../db/vocabulary";
import type {
  CreatorJudgesParams,
  FirstValidMatchParams,
  OracleParams,
  PeerVoteParams,
  Verification,
  VerificationParams,
} from "../../db/verification";

// AIP-1 §4: params per verification type. Shape errors answer 400 INVALID_PARAMETER; values that
// are well-formed but cannot work (regex RE2 cannot run, unknown vote token, vote after
// deadline) answer 422 UNPROCESSABLE.
const MAX_REGEX_LENGTH = 1024;
const MAX_EXPECTED_LENGTH = 4096;
/** creator_judges' judging window: an hour at least (checks and a person need time), 90 days at most (the setting's bound). */
const MIN_JUDGING_WINDOW_SECONDS = 3600;
const MAX_JUDGING_WINDOW_SECONDS = 90 * 86_400;

const httpsUrl = z
  .string()
  .max(2048)
  .url()
  .refine((u) => u.startsWith("https://"), "must be an https:// URL");

const schemas = {
  creator_judges: z
    .object({
      max_winners: z.number().int().min(1).max(100).default(1),
      // Appeal of the award (Security Considerations, reward griefing): see verification/appeal.ts.
      // `false` opts out of the default appeal (shown on the mission as appeal: false).
      appeal: z
        .union([
          z
            .object({
              appeal_window_seconds: z
                .number()
                .int()
                .min(60)
                .max(30 * 86_400)
                .default(86_400),
              vote_token: z.string().min(1).max(64),
              min_vote: z.string(),
              quorum: z.string(),
            })
            .strict(),
          z.literal(false),
        ])
        .optional(),
      // How long after the deadline the creator may award before the default outcome applies
      // (docs/decisions.md "Judging window"); absent: the server's OABP_JUDGING_WINDOW_SECONDS.
      judging_window_seconds: z
        .number()
        .int()
        .min(MIN_JUDGING_WINDOW_SECONDS)
        .max(MAX_JUDGING_WINDOW_SECONDS)
        .optional(),
    })
    .passthrough(),
  first_valid_match: z
    .object({
      target_hash: z.string().max(80).optional(),
      predicate_uri: httpsUrl.optional(),
      expected: z.string().min(1).max(MAX_EXPECTED_LENGTH).optional(),
      match_mode: z.enum(["substring", "exact", "regex"]).default("substring"),
      // Commit-reveal (front-running mitigation): commitments until the deadline, reveals after.
      commit_reveal: z.boolean().default(false),
      reveal_window_seconds: z
        .number()
        .int()
        .min(60)
        .max(30 * 86_400)
        .default(86_400),
    })
    .passthrough(),
  peer_vote: z
    .object({
      voting_deadline: z.string().datetime({ offset: true }),
      vote_token: z.string().min(1).max(64),
      min_vote: z.string(),
      quorum: z.string(),
    })
    .passthrough(),
  oracle: z
    .object({
      oracle_contract: z.string(),
      oracle_method: z.string().min(1).max(256),
    })
    .passthrough(),
} as const;

/**
 * The params each method takes, named from the schemas above: the request's description of
 * `verification.params` in the OpenAPI document (and the client's generated types), so it lists
 * every option there is. MCP input schemas drop descriptions for size (docs/mcp.md).
 */
export const PARAMS_BY_TYPE = VERIFICATION_TYPES.map(
  (type) => `${type}: ${Object.keys(schemas[type].shape).join(", ")}`,
).join("; ");

export interface VerificationContext {
  deadline: Date;
  assets: AssetConfig[];
  /** Allow-listed oracle contracts (lowercase); unknown ones are accepted with a warning (§ Security). */
  knownOracles: string[];
  /** An RPC to read oracles through (OABP_RPC_URL); without one no oracle can ever decide. */
  rpcConfigured: boolean;
  /** The mission's reward (the default appeal stakes in it). */
  reward: { asset: string; amount: bigint };
  /** Default appeal of creator_judges awards; null when the operator turned it off. */
  defaultAppeal: { windowSeconds: number } | null;
  /** creator_judges' judging window when the creator states none (OABP_JUDGING_WINDOW_SECONDS). */
  judgingWindowSeconds: number;
}

const bad = (field: string, message: string) =>
  new AppError("INVALID_PARAMETER", `verification.params.${field}: ${message}`, {
    field: `verification.params.${field}`,
  });
const unprocessable = (field: string, reason: Reason<"UNPROCESSABLE">, message: string) =>
  new AppError("UNPROCESSABLE", `verification.params.${field}: ${message}`, {
    field: `verification.params.${field}`,
    reason,
  });

// Each shape's closed variant, built once (a zod schema is immutable; building one per request cost
// a few percent of a create's CPU).
const closedShapes = new WeakMap<z.ZodType, z.ZodType>();
const strictOf = (schema: z.ZodType): z.ZodType => (schema instanceof z.ZodObject ? schema.strict() : schema);

/** Zod's first issue as 400 INVALID_PARAMETER on the param it names. */
function parseShape<T extends z.ZodType>(schema: T, raw: Record<string, unknown> | undefined): z.output<T> {
  // An unknown param is named with its nearest known one (docs/decisions.md "Strict requests").
  // The shapes pass extra keys through to storage (x- extensions stay on the mission); any other
  // key is checked against the closed shape.
  let closed = closedShapes.get(schema);
  if (!closed) closedShapes.set(schema, (closed = strictOf(schema)));
  const unknown = unknownFields(closed, raw);
  if (unknown.length > 0)
    throw unknownFieldError(
      unknown.map((u) => ({ ...u, path: `verification.params.${u.path}` })),
      "body",
    );
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw bad(i.path.join(".") || "params", i.message);
  }
  return parsed.data;
}

/**
 * The one parse of a new mission's verification (db/verification.ts types what it yields and
 * reads it back from rows): shape, then the per-type value checks and normalisation, in place.
 */
export function validateVerificationParams(
  ctx: VerificationContext,
  { type, params: raw }: { type: VerificationType; params: Record<string, unknown> | undefined },
): { verification: Verification; params: VerificationParams; warnings: string[] } {
  const warnings: string[] = [];
  const done = (verification: Verification) => ({ verification, params: verification.params, warnings });
  switch (type) {
    case "first_valid_match":
      return done({ type, params: firstValidMatchParams(raw) });
    case "peer_vote":
      return done({ type, params: peerVoteParams(raw, ctx) });
    case "oracle":
      return done({ type, params: oracleParams(raw, ctx, warnings) });
    case "creator_judges":
      return done({ type, params: creatorJudgesParams(raw, ctx) });
  }
}

function firstValidMatchParams(raw: Record<string, unknown> | undefined): FirstValidMatchParams {
  const params: FirstValidMatchParams = parseShape(schemas.first_valid_match, raw);
  if (params.target_hash !== undefined) {
    const h = normalizeSha256(params.target_hash);
    if (!h) throw bad("target_hash", "must be a sha256 hex digest (0x…, bare hex or sha256:…)");
    params.target_hash = h;
  }
  if (params.target_hash === undefined && params.predicate_uri === undefined && params.expected === undefined) {
    throw bad("params", "first_valid_match needs target_hash, predicate_uri or expected");
  }
  if (params.match_mode === "regex") {
    if (typeof params.expected !== "string") throw bad("expected", "match_mode regex needs an expected pattern");
    if (params.expected.length > MAX_REGEX_LENGTH)
      throw unprocessable("expected", "regex_too_long", `pattern longer than ${MAX_REGEX_LENGTH} characters`);
    try {
      RE2JS.compile(params.expected);
    } catch (e) {
      throw unprocessable("expected", "regex_not_re2", `pattern cannot run on RE2: ${(e as Error).message}`);
    }
  }
  return params;
}

function peerVoteParams(raw: Record<string, unknown> | undefined, ctx: VerificationContext): PeerVoteParams {
  const params: PeerVoteParams = parseShape(schemas.peer_vote, raw);
  const vd = new Date(params.voting_deadline);
  if (vd.getTime() <= ctx.deadline.getTime())
    throw unprocessable("voting_deadline", "voting_before_deadline", "must be after the mission deadline");
  const token = ctx.assets.find((a) => a.symbol.toLowerCase() === params.vote_token.toLowerCase());
  if (!token) throw unprocessable("vote_token", "unknown_asset", "is not an asset this server settles");
  params.vote_token = token.symbol;
  params.voting_deadline = vd.toISOString();
  for (const f of ["min_vote", "quorum"] as const) {
    if (!isUintString(params[f])) throw bad(f, "must be a uint256 base-10 string");
  }
  if (BigInt(params.min_vote) < 1n) throw bad("min_vote", "must be at least 1");
  return params;
}

function oracleParams(
  raw: Record<string, unknown> | undefined,
  ctx: VerificationContext,
  warnings: string[],
): OracleParams {
  const params: OracleParams = parseShape(schemas.oracle, raw);
  const addr = normalizeAddress(params.oracle_contract);
  if (!addr) throw bad("oracle_contract", "must be a 0x EVM address");
  params.oracle_contract = addr;
  // AIP-1 §4.4 "oracle_method": "string (function selector or RPC method)" — the four forms
  // of lib/evm.ts (signature per_submission / per_mission, 4-byte selector, RPC method name).
  const problem = oracleMethodProblem(params.oracle_method);
  if (problem === "rpc_namespace_reserved") {
    throw unprocessable(
      "oracle_method",
      "oracle_rpc_method_reserved",
      'an RPC-method oracle must use its own namespace (e.g. "oracle_winner"), never a node namespace such as eth_, debug_ or admin_',
    );
  }
  if (problem) {
    throw unprocessable(
      "oracle_method",
      "oracle_method_unsupported",
      'must be a 4-byte selector ("0x6d4ce63c"), a namespaced RPC method ("oracle_winner"), f(bytes32 missionKey, bytes32 contentHash) returns (bool) or f(bytes32 missionKey) returns (bytes32 contentHash), e.g. "isValid(bytes32,bytes32)" or "winner(bytes32)"',
    );
  }
  // /15: refuse a mission no oracle could ever decide rather than hold its reward.
  if (!ctx.rpcConfigured) {
    throw new AppError(
      "UNPROCESSABLE",
      "this server has no RPC configured (OABP_RPC_URL), so no oracle can be read: an oracle mission could never be decided; choose another verification type",
      { field: "verification.type", reason: "oracle_no_rpc" },
    );
  }
  if (!ctx.knownOracles.includes(addr))
    warnings.push("unknown_oracle: this oracle is not on the server's allow-list (AIP-1 Security Considerations)");
  return params;
}

function creatorJudgesParams(raw: Record<string, unknown> | undefined, ctx: VerificationContext): CreatorJudgesParams {
  const params: CreatorJudgesParams = parseShape(schemas.creator_judges, raw);
  // The mission states its window, so a later change of the setting moves no promise made.
  params.judging_window_seconds ??= ctx.judgingWindowSeconds;
  if (params.appeal === false) return params; // the creator's opt-out, kept visible on the mission
  if (params.appeal === undefined) {
    // AIP-1 Security Considerations, reward griefing: "SHOULD allow peer_vote appeals after a
    // creator_judges resolution if a quorum of voters dispute" — without the creator opting
    // in. Stakes in the reward asset: min_vote 1 % of the reward, quorum 10 % (each ≥ 1).
    if (!ctx.defaultAppeal) return params;
    const pct = (n: bigint) => ((ctx.reward.amount * n) / 100n > 0n ? (ctx.reward.amount * n) / 100n : 1n);
    params.appeal = {
      appeal_window_seconds: ctx.defaultAppeal.windowSeconds,
      vote_token: ctx.reward.asset,
      min_vote: pct(1n).toString(),
      quorum: pct(10n).toString(),
      default: true,
    };
    return params;
  }
  const appeal = params.appeal;
  const token = ctx.assets.find((a) => a.symbol.toLowerCase() === appeal.vote_token.toLowerCase());
  if (!token) throw unprocessable("appeal.vote_token", "unknown_asset", "is not an asset this server settles");
  appeal.vote_token = token.symbol;
  for (const f of ["min_vote", "quorum"] as const) {
    if (!isUintString(appeal[f]) || BigInt(appeal[f]) < 1n)
      throw bad(`appeal.${f}`, "must be a uint256 base-10 string, at least 1");
  }
  return params;
}
