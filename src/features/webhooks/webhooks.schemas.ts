import { z } from "@hono/zod-openapi";
import {
  pageQuery,
  Tag,
  pageOf,
  timestamps,
  intOrNull,
  int,
  strOrNull,
  str,
  exampleId,
  recordOf,
} from "../../http/wire";
import { pathId } from "../../http/params";
import { EVENT_TYPES } from "../../lib/webhook-events";
import { MAX_WEBHOOK_URL_LENGTH } from "./webhooks.url";
import { VERIFICATION_TYPES } from "../../db/vocabulary";

// Wire schemas of the webhook routes, written by hand (docs/style.md rule 6).

const eventType = z.enum(EVENT_TYPES);

// Filters narrow a subscription; each is a list (any of its values matches), and every filter
// given must match (README "Webhooks"). Unknown keys are refused: a misspelt filter would
// otherwise silently subscribe to everything.
const WebhookFilters = z
  .object({
    mission_id: z
      .array(z.string().regex(/^mis_[0-9A-HJKMNP-TV-Z]{26}$/, "must be a mission id"))
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: "Only events of these missions" }),
    verification_type: z
      .array(z.enum(VERIFICATION_TYPES))
      .min(1)
      .max(VERIFICATION_TYPES.length)
      .optional()
      .openapi({ description: "Only missions verified by one of these methods" }),
    tags: z
      .array(Tag)
      .min(1)
      .max(10)
      .optional()
      .openapi({ description: "Only missions carrying at least one of these tags" }),
    creator: z
      .array(z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address"))
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: "Only missions created by one of these addresses" }),
  })
  .strict()
  .openapi("WebhookFilters");
export type WebhookFiltersInput = z.infer<typeof WebhookFilters>;

export const CreateWebhookRequest = z
  .object({
    url: z.string().min(1).max(MAX_WEBHOOK_URL_LENGTH).openapi({
      description: "https:// endpoint; public addresses only, no credentials, redirects are not followed",
      example: "https://agent.example/hooks/oabp",
    }),
    events: z.array(eventType).min(1).max(EVENT_TYPES.length).openapi({ description: "Event types to receive" }),
    filters: WebhookFilters.optional(),
  })
  .openapi("CreateWebhook");
export type CreateWebhookInput = z.infer<typeof CreateWebhookRequest>;

export const Webhook = recordOf("Webhook", "whk", {
  url: z.string(),
  events: z.array(eventType),
  filters: WebhookFilters,
  status: z.enum(["pending_verification", "active", "disabled"]).openapi({
    description:
      "pending_verification until the endpoint echoes the signed webhook.verification challenge (docs/abuse-edge.md); deliveries are queued meanwhile and sent once it is active",
  }),
  disabled_reason: z.enum(["endpoint_gone", "failing_endpoint", "verification_failed"]).nullable().openapi({
    description:
      "endpoint_gone: it answered 410; failing_endpoint: WEBHOOK_MAX_CONSECUTIVE_FAILURES failed attempts in a row, or every attempt failed for a whole retry window; verification_failed: the challenge was not echoed after 5 tries",
  }),
  disabled_at: z.string().nullable(),
  failing_since: strOrNull("First failed attempt since the last success"),
  verified_at: strOrNull("When the endpoint echoed the verification challenge"),
  consecutive_failures: int("Failed attempts since the last success"),
  last_success_at: z.string().nullable(),
});
export type WebhookWire = z.infer<typeof Webhook>;

export const WebhookCreated = Webhook.extend({
  secret: z.string().openapi({
    description: "Standard Webhooks signing secret (whsec_<base64>). Shown only in this answer: store it now.",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  }),
}).openapi("WebhookCreated");

export const WebhookList = pageOf("WebhookList", { webhooks: z.array(Webhook) });

const DeliveryAttempt = z.object({
  attempt: z.number().int(),
  at: z.string(),
  duration_ms: z.number().int(),
  status_code: intOrNull("HTTP status answered; null when none was (timeout, refused address …)"),
  error: strOrNull(
    "Stable reason of a failed attempt (unexpected_status, redirect_not_followed, endpoint_gone, timeout, blocked_address, connect_error …); null on success",
  ),
});

const Delivery = z
  .object({
    event_id: str("Sent as the webhook-id header, the same on every attempt"),
    event_type: eventType,
    status: z.enum(["pending", "delivered", "failed"]),
    attempt_count: z.number().int(),
    next_attempt_at: z.string().nullable(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    ...timestamps,
    delivered_at: z.string().nullable(),
    attempts: z.array(DeliveryAttempt).openapi({ description: "Every attempt, oldest first" }),
  })
  .openapi("WebhookDelivery");
export type DeliveryWire = z.infer<typeof Delivery>;

export const DeliveryList = pageOf("WebhookDeliveryList", { webhook_id: z.string(), deliveries: z.array(Delivery) });

export const PageQuery = z.object({
  ...pageQuery(20),
});

export const WebhookIdParam = z.object({
  id: pathId("id", exampleId("whk")),
});
