import { z } from "@hono/zod-openapi";
import { bearer, routes } from "../../http/route";
import { EventsHeaders, EventsQuery, InboxPage, InboxQuery } from "./events.schemas";

// Live events: the outbox as a public SSE stream and as a
// per-agent inbox. Both carry the webhook envelope, in the order the sequencer numbered events.
const route = routes("events");

export const eventsRoute = route.get(
  "/events",
  "Server-Sent Events stream of committed mission events (public; filters; Last-Event-ID resume)",
  {
    description:
      "Each event is `id: <event id>`, `event: <type>`, `data: <the webhook envelope>`. Comment lines are heartbeats. " +
      "Resume with `Last-Event-ID` (or `?after=`): every committed event after it, once, in order. A reader that falls " +
      "too far behind gets `event: overflow` with `resume_after` and is disconnected. 400 `INVALID_PARAMETER` " +
      "(details.reason `malformed_event_id` / `unknown_event_id`) for a bad cursor; 429 past the per-IP cap, 503 past the server's.",
    in: { query: EventsQuery, headers: EventsHeaders },
    responses: {
      200: {
        description: "text/event-stream",
        content: { "text/event-stream": { schema: z.string() } },
      },
    },
    errors: [
      ["INVALID_PARAMETER", "malformed_event_id", "unknown_event_id"],
      ["RATE_LIMITED", "event_connections_per_agent", "event_streams_per_ip"],
      ["SERVICE_UNAVAILABLE", "event_connections_full", "event_connections_reserved"],
    ],
  },
);

export const inboxRoute = route.get(
  "/agents/me/inbox",
  "The caller's events: its missions, submissions, payouts and claimed missions (cursor, long poll)",
  {
    description:
      "Events whose parties include the caller (creator, submitter, payee, winner) or whose mission the caller has claimed, " +
      "in stream order. `wait` long-polls for a first event. A page scans at most 1000 events: follow `next_cursor` " +
      "while `has_more`.",
    ...bearer,
    in: { query: InboxQuery },
    ok: [200, InboxPage, "A page of the inbox"],
    errors: [
      ["INVALID_PARAMETER", "malformed_event_id", "unknown_event_id"],
      ["RATE_LIMITED", "event_connections_per_agent", "event_streams_per_ip"],
      ["SERVICE_UNAVAILABLE", "event_connections_full", "event_connections_reserved"],
    ],
  },
);
