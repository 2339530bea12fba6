import { z } from "@hono/zod-openapi";
import { bearer, routes, signedIn, OPEN_MISSION_WRITE } from "../../http/route";
import { Mission, type MissionWire } from "../missions";
import { Uint } from "../../http/wire";
import { MissionIdParam } from "../../http/params";

const route = routes("verification");
const votes = route.one("/missions/{id}/votes", MissionIdParam);

export const AwardRequest = z
  .object({
    winners: z
      .array(
        z.object({
          submission_id: z.string().min(1).max(64),
          share_bps: z.number().int().min(1).max(10_000).optional().openapi({
            description:
              "Share of the net reward in basis points; give it for every winner (sum 10000) or for none (equal split)",
          }),
        }),
      )
      .min(1)
      .max(100),
    release_signatures: z
      .record(
        z.string().regex(/^0x[0-9a-fA-F]{64}$/),
        z
          .string()
          .regex(/^0x([0-9a-fA-F]{2}){1,2048}$/)
          .openapi({ description: "65-byte ECDSA signature, or a smart wallet's (ERC-1271) signature" }),
      )
      .optional()
      .openapi({
        description:
          "base rail: the creator's EIP-712 Release signature per escrow key it funded (from POST /missions/{id}/award/typed-data); such a slot is released at once with the signature, any other after the contract's challenge window (docs/base-rail.md)",
      }),
  })
  .openapi("Award");

const TypedRelease = z
  .object({
    mission_key: z.string(),
    funder: z.string(),
    typed_data: z.object({
      domain: z.object({
        name: z.literal("MissionEscrow"),
        version: z
          .enum(["3", "4"])
          .openapi({ description: "the escrow contract's version: 4 binds token, slot instance and deadline" }),
        chainId: z.number().int(),
        verifyingContract: z.string(),
      }),
      types: z.object({ Release: z.array(z.object({ name: z.string(), type: z.string() })) }),
      primaryType: z.literal("Release"),
      message: z.object({
        missionKey: z.string(),
        funder: z.string(),
        recipients: z.array(z.string()),
        amounts: z.array(z.string()).openapi({ description: "base units, base-10 (convert to bigint to sign)" }),
        fee: z.string(),
        token: z.string().optional().openapi({ description: "v4: the slot's token" }),
        fundingNonce: z
          .string()
          .optional()
          .openapi({ description: "v4: the slot instance (its funding count), base-10; a re-funded slot has another" }),
        deadline: z
          .string()
          .optional()
          .openapi({ description: "v4: unix seconds after which the signature is refused (the slot's refund-after)" }),
      }),
    }),
  })
  .openapi("AwardReleaseTypedData");

const AwardTypedData = z
  .object({
    releases: z.array(TypedRelease).openapi({
      description:
        "One per escrow slot the creator funded; empty on the ledger rail and for other verification methods",
    }),
  })
  .openapi("AwardTypedData");

/** An award under an Idempotency-Key: its stored scope (unchanged text) and answer, 200 with the mission. */
export const awardOnce = (caller: string, missionId: string) => ({
  scope: `${caller} POST /missions/${missionId}/award`,
  answer: (m: MissionWire) => ({ status: 200, body: m }),
});

/** A vote under an Idempotency-Key: its stored scope (REST and MCP share it) and answer, 201 with the vote. */
export const voteOnce = (voter: string, missionId: string) => ({
  scope: `${voter} POST /missions/${missionId}/votes`,
  answer: (v: unknown) => ({ status: 201, body: v }),
});

export const awardRoute = route.post(
  "/missions/{id}/award",
  "creator_judges: the creator picks the winner(s); the mission resolves and pays at once (AIP-1 §4.1) — or, with an `appeal` param, when the award's appeal closes",
  {
    ...signedIn,
    in: { params: MissionIdParam, headers: z.object({ "idempotency-key": z.string().optional() }), body: AwardRequest },
    ok: [
      200,
      Mission,
      "Resolved; with an appeal: escrowed, phase appeal, payout queued, the award recorded in `award`",
    ],
    errors: [
      ...OPEN_MISSION_WRITE,
      [
        "UNPROCESSABLE",
        "bad_release_signature",
        "balance_overflow",
        "content_not_verified",
        "idempotency_key_reused",
        "non_canonical_release_signature",
        "submission_not_pending",
        "too_many_winners",
        "unknown_submission",
      ],
      ["SERVICE_UNAVAILABLE", "rpc_unavailable"],
      ["CONFLICT", "idempotency_in_flight", "wrong_verification_type"],
    ],
  },
);

export const awardTypedDataRoute = route.post(
  "/missions/{id}/award/typed-data",
  "creator_judges, base rail: the EIP-712 releases this award would make, for the creator to sign (MissionEscrow releaseSigned; v4 binds the slot's token, funding nonce and a deadline); decides nothing",
  {
    ...signedIn,
    in: { params: MissionIdParam, body: AwardRequest },
    ok: [200, AwardTypedData, "The releases to sign (one per slot the creator funded)"],
    errors: [
      "NOT_FOUND",
      "MISSION_NOT_OPEN",
      [
        "UNPROCESSABLE",
        "content_not_verified",
        "idempotency_key_reused",
        "submission_not_pending",
        "too_many_winners",
        "unknown_submission",
      ],
      ["CONFLICT", "idempotency_in_flight", "wrong_verification_type"],
      ["SERVICE_UNAVAILABLE", "rpc_unavailable"],
    ],
  },
);

export const VoteRequest = z
  .object({
    submission_id: z.string().min(1).max(64),
    amount: Uint.openapi({ description: "Stake in vote_token base units (≥ min_vote)" }),
  })
  .openapi("CastVote");

export const Vote = z
  .object({
    id: z.string(),
    mission_id: z.string(),
    submission_id: z.string(),
    voter: z.string(),
    asset: z.string(),
    amount: z.string(),
    created_at: z.string(),
    outcome: z.string().nullable().openapi({ description: "After the tally: won | lost | refunded" }),
    payout: z
      .string()
      .nullable()
      .openapi({ description: "What went back to the voter: stake, minus a slash or plus a reward" }),
  })
  .openapi("Vote");

export const voteRoute = votes.post(
  "peer_vote: stake vote_token on a submission between the deadline and voting_deadline (AIP-1 §4.3); creator_judges under appeal: dispute the award (a stake on the submission that should have won), then vote if disputed",
  {
    ...bearer,
    in: { headers: z.object({ "idempotency-key": z.string().optional() }), body: VoteRequest },
    ok: [201, Vote, "Stake held until the tally"],
    errors: [
      "ANONYMOUS_SUBMISSION_REJECTED",
      ...OPEN_MISSION_WRITE,
      "INSUFFICIENT_BALANCE",
      [
        "UNPROCESSABLE",
        "awarded_submission",
        "balance_overflow",
        "below_min_vote",
        "content_not_verified",
        "idempotency_key_reused",
        "unknown_submission",
      ],
      ["FORBIDDEN", "awarded_winner", "creator_vote", "own_submission", "suspended"],
      ["CONFLICT", "already_voted", "idempotency_in_flight", "wrong_verification_type"],
    ],
  },
);

export const listVotesRoute = votes.get("The votes of a peer_vote mission, with outcomes after the tally", {
  ok: [200, z.object({ votes: z.array(Vote) }).openapi("VoteList"), "Votes"],
  errors: [["UNAUTHORIZED", "mesh_shared_key", "none", "unbound_api_key"]],
});
