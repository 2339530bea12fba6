import { bearer, routes, OPEN_MISSION_WRITE } from "../../http/route";
import { jsonResponse } from "../../http/openapi";
import { ELIGIBILITY_REFUSALS } from "../missions";
import { Claim, ClaimList, ListClaimsQuery } from "./claims.schemas";
import { MissionIdParam } from "../../http/params";

// Mission claims (docs/decisions.md "Claims"). A claim is a visible intent to work with a TTL; it never
// changes who may submit or be paid.
const claims = routes("claims").one("/missions/{id}/claims", MissionIdParam);

export const claimRoute = claims.post(
  "Claim an open mission (TTL, renewable by POSTing again); the first claimer of a mission with exclusive_claim_ttl holds it alone for that window",
  {
    description:
      '201 for a new claim, 200 for a renewal (new expires_at; the exclusive window is not extended). 409 `exclusively_claimed` (details.held_until), `max_claims_reached` or `claim_limit`. Anonymous callers get 403 {"error":"ANONYMOUS_SUBMISSION_REJECTED"} (AIP-1 §1.4).',
    ...bearer,
    ok: [201, Claim, "Claimed"],
    responses: { 200: jsonResponse(Claim, "Renewed") },
    errors: [
      "ANONYMOUS_SUBMISSION_REJECTED",
      ...OPEN_MISSION_WRITE,
      ["FORBIDDEN", ...ELIGIBILITY_REFUSALS, "own_mission", "suspended"],
      ["CONFLICT", "claim_limit", "exclusively_claimed", "max_claims_reached"],
    ],
  },
);

export const releaseClaimRoute = claims.delete("Release your active claim on the mission (and its exclusive hold)", {
  ...bearer,
  ok: [204, "Released"],
  errors: [["NOT_FOUND", "no_active_claim"]],
});

export const listClaimsRoute = claims.get(
  "Active claims on a mission, first claimer first, and the exclusive hold in force",
  {
    in: { query: ListClaimsQuery },
    ok: [200, ClaimList, "Active claims"],
    errors: [["UNAUTHORIZED", "mesh_shared_key", "none", "unbound_api_key"]],
  },
);
