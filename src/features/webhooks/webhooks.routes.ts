import { bearer, routes, signedIn } from "../../http/route";
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
// agent's subscription answers 404, as if it did not exist.
const route = routes("webhooks");

export const createWebhookRoute = route.post(
  "/webhooks",
  "Subscribe a URL to events; deliveries are signed per Standard Webhooks with the returned secret (shown once)",
  {
    ...signedIn,
    in: { body: CreateWebhookRequest },
    ok: [201, WebhookCreated, "The subscription and its signing secret"],
    errors: ["CONFLICT", "UNPROCESSABLE", "SERVICE_UNAVAILABLE"],
  },
);

export const listWebhooksRoute = route.get("/webhooks", "Your webhook subscriptions, newest first", {
  ...bearer,
  in: { query: PageQuery },
  ok: [200, WebhookList, "A page of subscriptions"],
  errors: ["SERVICE_UNAVAILABLE"],
});

export const getWebhookRoute = route.get("/webhooks/{id}", "One of your webhook subscriptions (without its secret)", {
  ...bearer,
  in: { params: WebhookIdParam },
  ok: [200, Webhook, "The subscription"],
  errors: ["NOT_FOUND", "SERVICE_UNAVAILABLE"],
});

export const deleteWebhookRoute = route.delete(
  "/webhooks/{id}",
  "Delete one of your webhook subscriptions and its delivery log",
  {
    ...bearer,
    in: { params: WebhookIdParam },
    responses: { 204: { description: "Deleted" } },
    errors: ["NOT_FOUND", "SERVICE_UNAVAILABLE"],
  },
);

export const listDeliveriesRoute = route.get(
  "/webhooks/{id}/deliveries",
  "Deliveries of one of your subscriptions, newest event first, with every attempt's status code, error and timing",
  {
    ...bearer,
    in: { params: WebhookIdParam, query: PageQuery },
    ok: [200, DeliveryList, "A page of deliveries"],
    errors: ["NOT_FOUND", "SERVICE_UNAVAILABLE"],
  },
);
