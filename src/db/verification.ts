import { z } from "zod";
import { AppError } from "../lib/errors";
import type { VerificationType } from "./vocabulary";

// A mission's verification as stored: verification_type plus verification_params, the params in
// the normalised form missions.verification.ts validated at creation (AIP-1 §4). One parse turns
// a row into the discriminated `Verification`; code reads params only through it, never by
// recasting the jsonb. The read schemas are lenient where creation is strict (formats, URL
// schemes, bounds): they state what the code relies on, and keep unknown keys, which the
// mission shows back on the wire.

const appealStored = z.looseObject({
  appeal_window_seconds: z.number(),
  vote_token: z.string(),
  min_vote: z.string(),
  quorum: z.string(),
  /** Set when the server applied its default appeal (the creator gave none). */
  default: z.literal(true).optional(),
});

const STORED = {
  creator_judges: z.looseObject({
    max_winners: z.number().int().default(1),
    // Absent: the award pays at once; false: the creator opted out of the default appeal.
    appeal: z.union([appealStored, z.literal(false)]).optional(),
    // Stated at creation (the server's default filled in); absent on missions from before it.
    judging_window_seconds: z.number().int().optional(),
  }),
  first_valid_match: z.looseObject({
    target_hash: z.string().optional(), // sha256:<hex>
    predicate_uri: z.string().optional(),
    expected: z.string().optional(),
    match_mode: z.enum(["substring", "exact", "regex"]).default("substring"),
    commit_reveal: z.boolean().default(false),
    reveal_window_seconds: z.number().default(86_400),
  }),
  peer_vote: z.looseObject({
    voting_deadline: z.iso.datetime({ offset: true }),
    vote_token: z.string(),
    min_vote: z.string(),
    quorum: z.string(),
  }),
  oracle: z.looseObject({
    oracle_contract: z.string(),
    oracle_method: z.string(),
  }),
} as const satisfies Record<VerificationType, z.ZodType>;

export type AppealParams = z.output<typeof appealStored>;
export type CreatorJudgesParams = z.output<(typeof STORED)["creator_judges"]>;
export type FirstValidMatchParams = z.output<(typeof STORED)["first_valid_match"]>;
export type PeerVoteParams = z.output<(typeof STORED)["peer_vote"]>;
export type OracleParams = z.output<(typeof STORED)["oracle"]>;

export type Verification =
  | { type: "creator_judges"; params: CreatorJudgesParams }
  | { type: "first_valid_match"; params: FirstValidMatchParams }
  | { type: "peer_vote"; params: PeerVoteParams }
  | { type: "oracle"; params: OracleParams };

/**
 * creator_judges: how long after the deadline the creator may award (docs/decisions.md "Judging
 * window"): the mission's own, or for a mission stored before it was stated, the server's.
 */
export const judgingWindowOf = (params: CreatorJudgesParams, serverSeconds: number): number =>
  params.judging_window_seconds ?? serverSeconds;

/** A stored verification, type and params, as one schema whose output is a `Verification`. */
const StoredVerification = z.discriminatedUnion("type", [
  z.object({ type: z.literal("creator_judges"), params: STORED.creator_judges }),
  z.object({ type: z.literal("first_valid_match"), params: STORED.first_valid_match }),
  z.object({ type: z.literal("peer_vote"), params: STORED.peer_vote }),
  z.object({ type: z.literal("oracle"), params: STORED.oracle }),
]);

/** What the verification_params column holds (one of the four; verification_type says which). */
export type VerificationParams = Verification["params"];

/**
 * The row's verification, parsed once. A row whose params do not fit its type was written by
 * something other than mission creation: that is an internal error, not a guess (the sweeper
 * pushes such a mission back and goes on, jobs/sweeper.ts).
 */
export function verificationOf(row: { verificationType: VerificationType; verificationParams: unknown }): Verification {
  const r = StoredVerification.safeParse({ type: row.verificationType, params: row.verificationParams });
  if (!r.success)
    throw new AppError("INTERNAL_ERROR", `stored ${row.verificationType} params do not parse: ${r.error.message}`);
  return r.data;
}

const isType = <T extends VerificationType>(v: Verification, type: T): v is Extract<Verification, { type: T }> =>
  v.type === type;

/**
 * The row's verification when it is of the given type (parsed by verificationOf); undefined for
 * a row of any other type, which is not parsed at all.
 */
export function verificationIf<T extends VerificationType>(
  row: { verificationType: VerificationType; verificationParams: unknown },
  type: T,
): Extract<Verification, { type: T }> | undefined {
  if (row.verificationType !== type) return undefined;
  const v = verificationOf(row);
  return isType(v, type) ? v : undefined;
}
