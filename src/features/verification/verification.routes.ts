import { createRoute, z } from "@hono/zod-openapi";
import { errors, jsonBody, jsonResponse } from "../../http/openapi";
import { Mission, MissionIdParam } from "../missions/missions.schemas";

export const AwardRequest = z
  .object({
    winners: z
      .array(z.object({
        submission_id: z.string().min(1).max(64),
        share_bps: z.number().int().min(1).max(10_000).optional().openapi({ description: "Share of the net reward in basis points; give it for every winner (sum 10000) or for none (equal split)" }),
      }))
      .min(1)
      .max(100),
  })
  .openapi("Award");

export const awardRoute = createRoute({
  method: "post",
  path: "/missions/{id}/award",
  tags: ["verification"],
  summary: "creator_judges: the creator picks the winner(s); the mission resolves and pays at once (AIP-1 §4.1)",
  security: [{ bearer: [] }],
  request: { params: MissionIdParam, headers: z.object({ "idempotency-key": z.string().optional() }), ...jsonBody(AwardRequest) },
  responses: {
    200: jsonResponse(Mission, "Resolved"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "MISSION_NOT_OPEN", "UNPROCESSABLE"),
  },
});
