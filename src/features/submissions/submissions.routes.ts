import { createRoute, z } from "@hono/zod-openapi";
import { etagged, routes } from "../../http/route";
import { jsonResponse } from "../../http/openapi";
import { ELIGIBILITY_REFUSALS } from "../missions";
import {
  CreateSubmissionRequest,
  ListSubmissionsQuery,
  Submission,
  SubmissionList,
  SubmissionParams,
  type SubmissionWire,
} from "./submissions.schemas";
import { MissionIdParam } from "../../http/params";

const route = routes("submissions");

const headers = z.object({ "idempotency-key": z.string().optional() });
const submissions = route.one("/missions/{id}/submissions", MissionIdParam);
const submission = route.one("/missions/{id}/submissions/{sid}", SubmissionParams);

/**
 * A submission under an Idempotency-Key: the stored scope (REST, its /submit alias and MCP share
 * it; unchanged text, so retries replay across deploys) and the answer: 201 with the submission,
 * or 200 for a self-submission (AIP-3 §3.1 "MUST still accept the submission (return HTTP 200)").
 */
export const createSubmissionOnce = (submitter: string, missionId: string) => ({
  scope: `${submitter} POST /missions/${missionId}/submissions`,
  answer: (s: SubmissionWire) => ({ status: s.self_submission ? 200 : 201, body: s }),
});

export const submitRoute = submissions.post(
  "Submit a candidate solution (AIP-1 §3); anonymous callers get 403 ANONYMOUS_SUBMISSION_REJECTED (§1.4)",
  {
    in: { headers, body: CreateSubmissionRequest },
    // A submitter must sign in; the anonymous answer is §1.4's 403, not 401.
    security: [{ bearer: [] }],
    ok: [201, Submission, "Stored; status, reason and next_action say what happens next"],
    responses: {
      200: jsonResponse(
        Submission,
        "AIP-3 §3.1: a self-submission (submitter = the mission's creator), accepted and stored with `self_submission: true`, never credited",
      ),
    },
    errors: [
      "UNAUTHORIZED",
      "ANONYMOUS_SUBMISSION_REJECTED",
      "MISSION_NOT_OPEN",
      ["CONFLICT", "commit_required", "duplicate_submission", "idempotency_in_flight", "submission_limit"],
      ["UNPROCESSABLE", "balance_overflow", "commitment_mismatch", "content_hash_mismatch", "idempotency_key_reused"],
      ["FORBIDDEN", ...ELIGIBILITY_REFUSALS, "suspended"],
      ["SERVICE_UNAVAILABLE", "matcher_busy", "treasury_low_gas"],
    ],
  },
);

export const submitAliasRoute = createRoute({
  ...submitRoute,
  path: "/missions/{id}/submit",
  summary: "Alias of POST /missions/{id}/submissions",
});

export const listSubmissionsRoute = submissions.get("Submissions of a mission in arrival order", {
  in: { query: ListSubmissionsQuery },
  ok: [200, SubmissionList, "A page of submissions"],
  errors: [["UNAUTHORIZED", "mesh_shared_key", "none", "unbound_api_key"]],
});

export const getSubmissionRoute = submission.get("One submission", {
  ...etagged(Submission, "The submission"),
  errors: [["UNAUTHORIZED", "mesh_shared_key", "none", "unbound_api_key"]],
});

export const submissionContentRoute = route.get(
  "/missions/{id}/submissions/{sid}/content",
  "The bytes of an inline (data:) deliverable, under the same visibility as its content_uri; lists link here instead of inlining. ETag = content_hash (If-None-Match → 304). A remote deliverable → 404 remote_content with its content_uri.",
  {
    in: { params: SubmissionParams },
    responses: {
      200: {
        description: "The deliverable's bytes, with the media type it was submitted with",
        content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
      },
      304: { description: "Not modified (If-None-Match matched the ETag)" },
    },
    errors: [
      ["FORBIDDEN", "content_private"],
      ["NOT_FOUND", "invalid_data_uri", "remote_content"],
      ["SERVICE_UNAVAILABLE", "content_busy"],
      ["UNAUTHORIZED", "mesh_shared_key", "none", "unbound_api_key"],
    ],
  },
);
