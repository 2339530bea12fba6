import { z } from "@hono/zod-openapi";
import { bearer, etagged, OPEN_MISSION_WRITE, routes, signedIn } from "../../http/route";
import { jsonResponse } from "../../http/openapi";
import { CreateMissionRequest, ListMissionsQuery, Mission, MissionList, type MissionWire } from "./missions.schemas";
import { MissionIdParam } from "../../http/params";

const route = routes("missions");
const mission = route.one("/missions/{id}", MissionIdParam);

const IdempotencyHeader = z.object({
  "idempotency-key": z
    .string()
    .optional()
    .openapi({ description: "Retry-safe creation: same key + same body → the stored response" }),
});

/**
 * A creation under an Idempotency-Key: the scope stored with the key row (REST and MCP share it;
 * the same text as ever, so retries replay across deploys) and the answer, 201 with the mission.
 */
export const createMissionOnce = (creator: string) => ({
  scope: `${creator} POST /missions`,
  answer: (m: MissionWire) => ({ status: 201, body: m }),
});

export const createMissionRoute = route.post(
  "/missions",
  "Post a mission; on the ledger rail reward + spam fee are escrowed at once (AIP-1 §2, §6)",
  {
    ...signedIn,
    in: { headers: IdempotencyHeader, body: CreateMissionRequest },
    ok: [201, Mission, "Created and open"],
    responses: {
      402: {
        description:
          'Where x402 is on (docs/payments.md "Fees paid in the request"): the balance lacks what a ledger-rail ' +
          "create debits (reward + spam fee). `PAYMENT-REQUIRED` asks exactly the missing amount; the JSON body is the " +
          "INSUFFICIENT_BALANCE error. A retry with `PAYMENT-SIGNATURE` is credited as a deposit, then the create " +
          "runs; the answer carries `PAYMENT-RESPONSE`.",
      },
    },
    errors: [
      "INSUFFICIENT_BALANCE",
      ["CONFLICT", "idempotency_in_flight", "in_flight", "payment_identifier_reused"],
      [
        "UNPROCESSABLE",
        "allowed_and_blocked",
        "asset_not_on_chain",
        "balance_overflow",
        "below_min_reward",
        "conflicting_min_rating",
        "deadline_in_past",
        "idempotency_key_reused",
        "invalid_type_params",
        "list_too_long",
        "oracle_method_unsupported",
        "oracle_no_rpc",
        "oracle_rpc_method_reserved",
        "rail_not_enabled",
        "regex_not_re2",
        "regex_too_long",
        "self_blocked",
        "too_many_winners_for_rail",
        "unknown_asset",
        "unsupported_mission_type",
        "verification_not_applicable",
        "voting_before_deadline",
        "x402_not_enabled",
      ],
      ["INVALID_PARAMETER", "skill_not_found"],
      ["FORBIDDEN", "posting_not_allowed", "posting_rating_too_low", "suspended"],
      ["SERVICE_UNAVAILABLE", "rail_unavailable", "rpc_unavailable", "settlement_pending"],
    ],
  },
);

export const listMissionsRoute = route.get(
  "/missions",
  "List public missions, newest first, with keyset pagination (AIP-1 §7)",
  {
    in: { query: ListMissionsQuery, headers: z.object({ "if-none-match": z.string().max(1000).optional() }) },
    ok: [
      200,
      MissionList,
      "A page of missions (ETag; Cache-Control public, max-age=5, stale-while-revalidate=30 for anonymous reads)",
    ],
    responses: { 304: { description: "Not modified: If-None-Match matched the page's ETag" } },
  },
);

export const getMissionRoute = mission.get("One mission (AIP-1 §2)", etagged(Mission, "The mission"));

export const voidMissionRoute = route.post(
  "/missions/{id}/void",
  "Creator voids an open mission without submissions: reward refunded, spam fee kept",
  {
    ...bearer,
    in: { params: MissionIdParam },
    ok: [200, Mission, "Voided"],
    errors: [...OPEN_MISSION_WRITE, ["CONFLICT", "has_submissions"], ["UNPROCESSABLE", "balance_overflow"]],
  },
);

// AIP-2 §2 and §5: the type registry. Registered before /missions/{id} so "types" is never an id.
const TypeDoc = z.record(z.string(), z.unknown());
export const missionTypesRoute = route.get(
  "/missions/types",
  "Supported mission types, registry version and custom type definitions (AIP-2 §2)",
  {
    responses: {
      200: jsonResponse(
        z
          .object({
            supported_types: z.array(z.string()),
            registry_version: z.string(),
            custom_types: z.array(TypeDoc),
            types: z.array(TypeDoc),
          })
          .openapi("MissionTypes"),
        "The type registry",
      ),
    },
  },
);

/** The {type_id} of a mission type's documents: a built-in name or a custom prefix:name. */
const typeIdParam = (example: string) =>
  z.object({
    type_id: z
      .string()
      .min(1)
      .max(100)
      .openapi({ param: { name: "type_id", in: "path" }, example }),
  });

export const typeSchemaRoute = route
  .one("/missions/types/{type_id}/schema", typeIdParam("code_review"))
  .get(
    "The JSON Schema of one mission type's type_params (AIP-2 App. B; each mission links it as type_params_schema_url)",
    { ok: [200, TypeDoc.openapi("TypeParamsSchema"), "A JSON Schema"] },
  );

export const customTypeRoute = route
  .one("/missions/types/custom/{type_id}", typeIdParam("oabp:bug_bounty"))
  .get("One custom mission type: schemas and an example (AIP-2 §5)", {
    ok: [200, TypeDoc.openapi("CustomMissionType"), "The type definition"],
  });
