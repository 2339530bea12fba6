import { z } from "@hono/zod-openapi";
import { strOrNull, idOf } from "../../http/wire";

const list = (description: string, example: string) =>
  z.string().max(2000).optional().openapi({ description, example });

export const EventsQuery = z.object({
  type: list("Event types, comma-separated (any of)", "mission.created,mission.resolved"),
  tag: list("Mission tags, comma-separated (any of)", "search"),
  verification_type: list("Verification types, comma-separated (any of)", "creator_judges"),
  creator: list("Creator addresses, comma-separated (any of)", "0x1111111111111111111111111111111111111111"),
  reward_min: z
    .string()
    .max(78)
    .optional()
    .openapi({ description: "Minimum current reward, base units (with reward_asset)", example: "100000000" }),
  reward_asset: z.string().max(16).optional().openapi({ description: "Asset of reward_min", example: "USDC" }),
  after: z.string().max(64).optional().openapi({
    description: "Resume after this event id (as Last-Event-ID; the header wins)",
    example: "evt_01JZ0000000000000000000000",
  }),
});

export const EventsHeaders = z.object({
  "last-event-id": z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Resume after this event id (SSE reconnect)" }),
});

export const InboxQuery = z.object({
  after: z.string().max(64).optional().openapi({ description: "The previous page's next_cursor" }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  wait: z.coerce
    .number()
    .int()
    .min(0)
    .max(120)
    .default(0)
    .openapi({ description: "Long poll: seconds to wait for a first event (capped by the server, 25 by default)" }),
});

const Envelope = z
  .object({
    id: idOf("evt"),
    type: z.string().openapi({ example: "submission.created" }),
    timestamp: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("EventEnvelope");

export const InboxPage = z
  .object({
    events: z.array(Envelope),
    next_cursor: strOrNull("Pass as `after` for the next page (it moves past scanned events that were not yours)"),
    has_more: z.boolean(),
  })
  .openapi("InboxPage");
