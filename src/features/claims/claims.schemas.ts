import { z } from "@hono/zod-openapi";
import { pageQuery, pageOf, int, strOrNull, str, bool, idOf } from "../../http/wire";
import { CLAIM_STATUSES } from "../../db/vocabulary";

// Mission claims (docs/decisions.md "Claims"): wire shapes written by hand (docs/style.md rule 6);
// the statuses are the stored ones (db/vocabulary.ts).

export const Claim = z
  .object({
    id: idOf("clm"),
    mission_id: z.string(),
    agent_id: str("The claiming agent's address"),
    status: z.enum(CLAIM_STATUSES),
    claimed_at: z.string(),
    renewed_at: strOrNull("Last renewal (POST again while active); null if never renewed"),
    expires_at: str("claimed/renewed + the claim TTL, never past the mission deadline"),
    exclusive_until: strOrNull(
      "End of the exclusive window this claim was granted (first claimer of a mission with exclusive_claim_ttl); null if none",
    ),
    exclusive: bool("The exclusive window is in force now"),
  })
  .openapi("Claim");
export type ClaimWire = z.infer<typeof Claim>;

export const ClaimList = pageOf("ClaimList", {
  mission_id: z.string(),
  claim_count: int("Active claims now"),
  max_claims: z.number().int().nullable(),
  exclusive_claim_ttl: z.number().int().nullable(),
  exclusive: z.object({ agent_id: z.string(), until: z.string() }).nullable().openapi({
    description: "The exclusive hold in force now, if any: other agents' claims answer 409 until `until`",
  }),
  claims: z.array(Claim).openapi({ description: "Active claims, first claimer first" }),
});
export type ClaimListWire = z.infer<typeof ClaimList>;

export const ListClaimsQuery = z.object({
  ...pageQuery(),
});
