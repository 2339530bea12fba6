import { routes } from "../../http/route";
import { optionalJsonBody } from "../../http/openapi";
import { FederationReport, FederationReportResult, HubList, ListHubsQuery, PingRequest, Pong } from "./oadp.schemas";

// OADP hub endpoints (docs/protocols/OADP-discovery.txt). Also under /api (/api/ping …).
const route = routes("oadp");

export const pingRoute = route.post(
  "/ping",
  'OADP PING at any privacy tier (anonymous {"ping": true}, minimal, full) → a signed PONG with counts only',
  {
    description:
      "Verify `signature` with the key named by `key_id` in /.well-known/agent-protocol.json (hub.public_key): ed25519 over the RFC 8785 bytes of the PONG without `signature`, base64url. Nothing from the ping is stored; only `nonce` is echoed.",
    request: optionalJsonBody(PingRequest, "The ping; may be omitted"),
    ok: [200, Pong, "Signed PONG"],
    errors: [["SERVICE_UNAVAILABLE", "ping_disabled"]],
  },
);

export const federationReportRoute = route.post(
  "/federation/report",
  "Report a discovered OADP hub → {accepted, known} (deduplicated; never fetched unless the operator enables verification)",
  {
    description:
      "https only, public hosts only: a private, special-use or malformed hub_url answers 422 with details.reason. Rate-limited per caller (address, else IP): 429 with Retry-After. 503 `federation_disabled` unless OABP_OADP_FEDERATION_ENABLED.",
    in: { body: FederationReport },
    ok: [200, FederationReportResult, "Recorded (known: it already was)"],
    errors: [
      [
        "UNPROCESSABLE",
        "blocked_address",
        "credentials_in_url",
        "https_required",
        "invalid_host",
        "invalid_url",
        "url_too_long",
      ],
      "RATE_LIMITED",
      ["SERVICE_UNAVAILABLE", "federation_disabled", "hub_limit_reached"],
    ],
  },
);

export const listHubsRoute = route.get(
  "/federation/hubs",
  "Hubs reported through federation, newest first, with their verified flag",
  {
    in: { query: ListHubsQuery },
    ok: [200, HubList, "A page of reported hubs"],
    errors: [["SERVICE_UNAVAILABLE", "federation_disabled"]],
  },
);
