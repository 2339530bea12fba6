import { createRoute } from "@hono/zod-openapi";
import { bearer, routes } from "../../http/route";
import { requireCaller } from "../../http/identity";
import { jsonResponse } from "../../http/openapi";
import { CROSS_SERVER_REFUSALS } from "../portability";
import {
  Dispute,
  DisputeIdParam,
  DisputeList,
  FileDisputeRequest,
  ListDisputesQuery,
  RateLimited,
  ResolveDisputeRequest,
} from "./disputes.schemas";

// AIP-4 §2. Served at /api/disputes (the manifest's dispute_endpoint) and /disputes.
const route = routes("disputes");
const anyone: Record<string, string[]> = {};

export const fileRoute = route.post(
  "/disputes",
  "File a dispute (AIP-4 §2): non_payment, bad_spec (may be anonymous), dup_claim, oracle_disagreement",
  {
    // Optional authentication (the empty requirement): bad_spec may be filed anonymously (AIP-4 §2.2).
    security: [{ bearer: [] }, anyone],
    in: { body: FileDisputeRequest },
    ok: [201, Dispute, "Filed (non_payment and dup_claim come back already decided)"],
    responses: { 429: jsonResponse(RateLimited, "AIP-4 §6.1 filing limit") },
    errors: [
      ["UNAUTHORIZED", ...CROSS_SERVER_REFUSALS],
      "FORBIDDEN",
      "NOT_FOUND",
      [
        "UNPROCESSABLE",
        "already_paid",
        "anonymous_not_allowed",
        "balance_overflow",
        "cross_server_identity_unneeded",
        "evidence_required",
        "mission_dispute_limit",
        "mission_settled",
        "not_both_valid",
        "not_first_valid_match",
        "not_oracle_mission",
        "not_same_second",
        "not_your_submission",
        "sla_not_elapsed",
        "split_ineligible",
        "split_too_wide",
        "split_unknown_submission",
        "submission_not_accepted",
        "submission_not_found",
        "submission_required",
      ],
    ],
  },
);

export const listRoute = createRoute({
  ...route.get("/disputes", "Disputes, newest first; every dispute is public (AIP-4 §2.4)"),
  request: { query: ListDisputesQuery },
  responses: { 200: jsonResponse(DisputeList, "A page of disputes") },
});

export const getRoute = route.one("/disputes/{id}", DisputeIdParam).get("One dispute (AIP-4 §2.5)", {
  ok: [200, Dispute, "The dispute"],
});

export const resolveRoute = route.post(
  "/disputes/{id}/resolve",
  "Rule on an open dispute: the operator (admin token; actor server), or the mission's creator conceding (upheld only; never non_payment)",
  {
    middleware: [requireCaller("agent_or_admin")],
    ...bearer,
    in: { params: DisputeIdParam, body: ResolveDisputeRequest },
    ok: [200, Dispute, "Decided; corrective_action says what was done"],
    errors: [
      "NOT_FOUND",
      "CONFLICT",
      ["FORBIDDEN", "creator_conflict"],
      ["UNPROCESSABLE", "balance_overflow", "split_ineligible", "split_too_wide", "split_unknown_submission"],
    ],
  },
);
