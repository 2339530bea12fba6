import { z } from "@hono/zod-openapi";
import { bearer, routes } from "../../http/route";
import { ELIGIBILITY_REFUSALS } from "../missions";
import { MissionIdParam } from "../../http/params";

const commitments = routes("verification").one("/missions/{id}/commitments", MissionIdParam);

const CommitRequest = z
  .object({
    commitment: z.string().max(80).openapi({
      description: 'sha256 of "<content sha256 hex>:<your address, lowercase>:<salt>" — 0x…, bare hex or sha256:…',
    }),
  })
  .openapi("Commit");

const Commitment = z
  .object({
    id: z.string(),
    mission_id: z.string(),
    committer: z.string(),
    commitment: z.string(),
    seq: z.number().int().openapi({ description: "Arrival order; the revealed submission is judged in this order" }),
    created_at: z.string(),
    revealed_submission_id: z.string().nullable(),
    revealed_at: z.string().nullable(),
  })
  .openapi("Commitment");

export const commitRoute = commitments.post(
  "Commit-reveal first_valid_match: commit to a deliverable before the deadline; reveal it (POST …/submissions with salt) after",
  {
    ...bearer,
    in: { body: CommitRequest },
    ok: [201, Commitment, "Committed"],
    errors: [
      "ANONYMOUS_SUBMISSION_REJECTED",
      ["CONFLICT", "duplicate_commitment", "not_commit_reveal", "submission_limit"],
      "MISSION_NOT_OPEN",
      ["FORBIDDEN", ...ELIGIBILITY_REFUSALS, "own_mission", "suspended"],
    ],
  },
);

export const listCommitmentsRoute = commitments.get("The commitments of a commit-reveal mission, in arrival order", {
  ok: [200, z.object({ commitments: z.array(Commitment) }).openapi("CommitmentList"), "Commitments"],
  errors: [["UNAUTHORIZED", "mesh_shared_key", "none", "unbound_api_key"]],
});
