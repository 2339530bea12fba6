import { z } from "@hono/zod-openapi";
import { routes, signedIn, OPEN_MISSION_WRITE } from "../../http/route";
import { jsonResponse } from "../../http/openapi";
import {
  AmendMissionRequest,
  Amendment,
  AmendmentList,
  ListAmendmentsQuery,
  type AmendmentWire,
} from "./amendments.schemas";
import { MissionIdParam } from "../../http/params";

const amendments = routes("amendments").one("/missions/{id}/amendments", MissionIdParam);

/** An amendment under an Idempotency-Key: the stored scope (REST and MCP share it) and the answer. */
export const amendMissionOnce = (caller: string, missionId: string) => ({
  scope: `${caller} POST /missions/${missionId}/amendments`,
  answer: (a: AmendmentWire) => ({ status: a.status === "pending" ? 202 : 201, body: a }),
});

// Amendments to a posted mission.

export const amendMissionRoute = amendments.post(
  "Amend a posted mission: extend its deadline, top up its reward, or edit title/description/tags",
  {
    ...signedIn,
    description:
      "201 with the applied amendment; 202 with a pending one for a base-rail top-up (fund the `escrow.fund_call`; it applies when the deposit reaches the confirmation depth). 403 `creator_only` (extend_deadline, edit; top_up when OABP_TOPUP_BY_ANYONE=false); 409 `submissions_exist` (edit after the first submission), MISSION_NOT_OPEN `deadline_passed` / `mission_decided`, `too_many_amendments` (the creator's own), `too_many_top_ups` (others'); 422 `top_up_too_small`, `deadline_not_later`, `extension_too_long`, `voting_before_deadline`, `refund_after_exceeded`, `no_change`; 409 INSUFFICIENT_BALANCE (ledger top-up). Idempotency-Key: same key + same body → the stored answer.",
    in: {
      headers: z.object({
        "idempotency-key": z
          .string()
          .optional()
          .openapi({ description: "Retry-safe: same key + same body → the stored response" }),
      }),
      body: AmendMissionRequest,
    },
    ok: [201, Amendment, "Applied"],
    responses: { 202: jsonResponse(Amendment, "Pending: a base-rail top-up waiting for its deposit") },
    errors: [
      ...OPEN_MISSION_WRITE,
      "INSUFFICIENT_BALANCE",
      [
        "UNPROCESSABLE",
        "balance_overflow",
        "deadline_not_later",
        "extension_too_long",
        "idempotency_key_reused",
        "no_change",
        "rail_not_enabled",
        "refund_after_exceeded",
        "top_up_too_small",
        "voting_before_deadline",
      ],
      ["FORBIDDEN", "creator_only", "suspended"],
      ["CONFLICT", "idempotency_in_flight", "submissions_exist", "too_many_amendments", "too_many_top_ups"],
      ["MISSION_NOT_OPEN", "deadline_passed", "mission_decided"],
    ],
  },
);

export const listAmendmentsRoute = amendments.get("The mission's public amendment log, oldest first", {
  in: { query: ListAmendmentsQuery },
  ok: [200, AmendmentList, "The amendments"],
});
