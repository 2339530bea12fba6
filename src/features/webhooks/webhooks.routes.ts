import { bearer, routes, signedIn, withErrors } from "../../http/route";
import {
  CreateWebhookRequest,
  DeliveryList,
  PageQuery,
  Webhook,
  WebhookCreated,
  WebhookIdParam,
  WebhookList,
} from "./webhooks.schemas";

// Webhook subscriptions (AIP-1 §7 "Webhook"). Every route is the owner's only: another
// agent's subscription answers 404, as if it did not exist. Each answers 503 while webhooks are off.
const route = routes("webhooks", withErrors(bearer, "SERVICE_UNAVAILABLE"));
const webhooks = route.at("/webhooks", {});
const webhook = route.one("/webhooks/{id}", WebhookIdParam);

export const createWebhookRoute = webhooks.post(
  "Subscribe a URL to events; deliveries are signed per Standard Webhooks with the returned secret (shown once)",
  {
    ...signedIn,
    in: { body: CreateWebhookRequest },
    ok: [201, WebhookCreated, "The subscription and its signing secret"],
    errors: [
      ["CONFLICT", "webhook_limit"],
      ["UNPROCESSABLE", "blocked_address", "credentials_in_url", "https_required", "invalid_url", "url_too_long"],
      ["FORBIDDEN", "suspended"],
      ["SERVICE_UNAVAILABLE", "webhooks_disabled"],
    ],
  },
);

export const listWebhooksRoute = webhooks.get("Your webhook subscriptions, newest first", {
  in: { query: PageQuery },
  ok: [200, WebhookList, "A page of subscriptions"],
  errors: [["SERVICE_UNAVAILABLE", "webhooks_disabled"]],
});

export const getWebhookRoute = webhook.get("One of your webhook subscriptions (without its secret)", {
  ok: [200, Webhook, "The subscription"],
  errors: [["SERVICE_UNAVAILABLE", "webhooks_disabled"]],
});

export const deleteWebhookRoute = webhook.delete("Delete one of your webhook subscriptions and its delivery log", {
  ok: [204, "Deleted"],
  errors: [["SERVICE_UNAVAILABLE", "webhooks_disabled"]],
});

export const listDeliveriesRoute = route
  .one("/webhooks/{id}/deliveries", WebhookIdParam)
  .get(
    "Deliveries of one of your subscriptions, newest event first, with every attempt's status code, error and timing",
    {
      in: { query: PageQuery },
      ok: [200, DeliveryList, "A page of deliveries"],
      errors: [["SERVICE_UNAVAILABLE", "webhooks_disabled"]],
    },
  );
