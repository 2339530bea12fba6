import { z } from "@hono/zod-openapi";
import { bearer, routes } from "../../http/route";
import { jsonBody, optionalJsonBody } from "../../http/openapi";
import { sendError } from "../../http/errors";
import { limitBody } from "../../http/middleware";
import { AgentCardSchema, MAX_CARD_BYTES } from "./adp.card";
import {
  AdvertiseResponse,
  DescribeRequest,
  DiscoverRequest,
  DiscoverResponse,
  MissionCandidates,
  RankQuery,
  RecommendedMissions,
} from "./adp.schemas";
import { ADP_BASE_PATH, ADP_CARD_PATH, ADP_METHODS } from "./adp.server-card";
import { AgentIdParam, MissionIdParam } from "../../http/params";

// ADP over HTTP: each §4 method is POST /adp/{method name} with the method's request body as JSON,
// answering its response body (Status OK → 200; INVALID_REQUEST → 400/422; UNAUTHORIZED → 401/403).
const route = routes("adp");

const CardObject = z
  .record(z.string(), z.unknown())
  .openapi("AdpCardDocument", { description: "An ADP Agent Card (or the requested subset of one)" });

export const serverCardRoute = route.get(
  ADP_CARD_PATH,
  "This server's ADP Agent Card, signed (JCS + Ed25519, key = its did:key = the active receipt key)",
  { ok: [200, CardObject, "The signed Agent Card"] },
);

export const describeRoute = route.post(
  `${ADP_BASE_PATH}/${ADP_METHODS.describe}`,
  "adp.describe (ADP §4.1): this server's card, or an advertised agent's card (agent_id); optional fields subset",
  {
    request: optionalJsonBody(DescribeRequest, "Empty, or {agent_id?, fields?}"),
    ok: [200, CardObject, "The Agent Card"],
    errors: ["NOT_FOUND"],
  },
);

export const advertiseRoute = route.post(
  `${ADP_BASE_PATH}/${ADP_METHODS.advertise}`,
  "adp.advertise (ADP §4.2): store your Agent Card, bound to your address by a SIWE session or by a signature of your bound did:key; stale seq and unsigned-over-signed are refused (409)",
  {
    ...bearer,
    request: jsonBody(AgentCardSchema, "The Agent Card (ADP §3)"),
    ok: [200, AdvertiseResponse, "Stored"],
    errors: [
      ["CONFLICT", "did_bound_elsewhere", "stale_seq", "unsigned_over_signed"],
      ["PAYLOAD_TOO_LARGE", "card_too_large"],
      ["UNPROCESSABLE", "bad_signature", "unsigned", "unsupported_did"],
      ["INVALID_PARAMETER", "agent_binding_required", "did_required", "invalid_agent_binding", "seq_required"],
      ["UNAUTHORIZED", "authentication_required", "did_not_bound"],
      ["FORBIDDEN", "agent_mismatch", "suspended"],
    ],
  },
);

/** §7.6: a card travels as one AIP message of at most 65 535 octets (mounted on the advertise path). */
export const advertiseBodyLimit = limitBody(MAX_CARD_BYTES, (c) =>
  sendError(c, "PAYLOAD_TOO_LARGE", `an Agent Card is at most ${MAX_CARD_BYTES} bytes (ADP §7.6)`, {
    reason: "card_too_large",
    limit_bytes: MAX_CARD_BYTES,
  }),
);

export const discoverRoute = route.post(
  `${ADP_BASE_PATH}/${ADP_METHODS.discover}`,
  "adp.discover (ADP §4.3): advertised agents ranked by the §5 five-factor baseline (tags, text, reputation, availability, rating)",
  {
    request: jsonBody(DiscoverRequest, "{tags?, query?, limit?, min_score?}"),
    ok: [200, DiscoverResponse, "Ranked results"],
    errors: [["INVALID_PARAMETER", "empty_query"]],
  },
);

export const missionCandidatesRoute = route
  .one("/missions/{id}/candidates", MissionIdParam)
  .get(
    "Agents with advertised ADP cards ranked for this mission (its tags and text as the query); the creator is left out",
    { in: { query: RankQuery }, ok: [200, MissionCandidates, "Best candidates first (at most limit)"] },
  );

export const recommendedMissionsRoute = route.get(
  "/agents/{id}/recommended-missions",
  "Open missions ranked for an agent (its ADP card's skills, else its profile capabilities), same score as /missions/{id}/candidates",
  {
    in: { params: AgentIdParam, query: RankQuery },
    ok: [200, RecommendedMissions, "Best missions first (at most limit)"],
  },
);
