import { OpenAPIHono } from "@hono/zod-openapi";
import { adminRouter } from "./features/admin";
import { agentsRouter } from "./features/agents";
import { authRouter } from "./features/auth";
import { badgeLeaderboardRouter } from "./features/reputation";
import { heartbeatsRouter } from "./features/heartbeats";
import { missionsRouter } from "./features/missions";
import { reviewsRouter } from "./features/reviews";
import { submissionsRouter, flatSubmissionsRouter } from "./features/submissions";
import { verificationRouter, commitRevealRouter } from "./features/verification";
import { feedsRouter } from "./features/feeds";
import { receiptsRouter } from "./features/receipts";
import { manifestRouter } from "./features/manifest";
import { escrowRouter } from "./features/escrow";
import { webhooksRouter } from "./features/webhooks";
import { agentCardRouter } from "./features/agent-card";
import { registerMcpDocs } from "./features/mcp";
import { registerA2aDocs } from "./features/a2a";
import { claimsRouter } from "./features/claims";
import { amendmentsRouter } from "./features/amendments";
import { oadpRouter } from "./features/oadp";
import { adpRouter } from "./features/adp";
import { portabilityRouter } from "./features/portability";
import { disputesRouter } from "./features/disputes";
import { moderationRouter } from "./features/moderation";
import { qaRouter } from "./features/qa";
import { messagesRouter } from "./features/messages";
import { eventsRouter } from "./features/events";
import { paymentsRouter } from "./features/payments";
import { transparencyRouter } from "./features/transparency";
import { metricsRouter } from "./features/metrics";
import { meshRouter } from "./features/mesh";
import { withdrawalsRouter } from "./features/withdrawals";
import type { AppEnv } from "./http/types";
import { registerDiscoveryDocs } from "./features/wellknown";
import pkg from "../package.json" with { type: "json" };

/** Every documented route; mounted at "/" and under "/api" (docs/design.md wire conventions). */
export function buildApi() {
  const api = new OpenAPIHono<AppEnv>();
  api.route("/", authRouter);
  api.route("/", agentsRouter);
  api.route("/", badgeLeaderboardRouter);
  api.route("/", reviewsRouter);
  api.route("/", heartbeatsRouter);
  api.route("/", missionsRouter);
  api.route("/", submissionsRouter);
  api.route("/", verificationRouter);
  api.route("/", commitRevealRouter);
  api.route("/", adminRouter);
  api.route("/", moderationRouter);
  api.route("/", escrowRouter);
  api.route("/", receiptsRouter);
  api.route("/", manifestRouter);
  api.route("/", feedsRouter);
  api.route("/", webhooksRouter);
  api.route("/", eventsRouter);
  api.route("/", paymentsRouter);
  registerDiscoveryDocs(api);
  api.route("/", agentCardRouter);
  registerMcpDocs(api);
  registerA2aDocs(api);
  api.route("/", claimsRouter);
  api.route("/", amendmentsRouter);
  api.route("/", oadpRouter);
  api.route("/", adpRouter);
  api.route("/", portabilityRouter);
  api.route("/", flatSubmissionsRouter);
  api.route("/", disputesRouter);
  api.route("/", qaRouter);
  api.route("/", messagesRouter);
  api.route("/", transparencyRouter);
  api.route("/", metricsRouter);
  api.route("/", meshRouter);
  api.route("/", withdrawalsRouter);
  api.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description:
      "SIWE session token from POST /auth/siwe, or the operator's admin token. Registry-attested callers may send api_key (query) or X-Api-Key instead (AIP-1 §1.4).",
  });
  return api;
}

const OPENAPI_INFO = {
  title: "OABP mission marketplace",
  version: pkg.version,
  description:
    "Open Agent Bounty Protocol (AIP-1 v0.3.11) reference server: missions, submissions, escrow on the ledger or on Base, receipts, webhooks, identity. Every path also answers under /api, except the discovery documents served at the origin root.",
  license: { name: "MIT" },
};

/** The OpenAPI 3.1 document; servers is left to the caller (the committed file has none). */
export function openApiDocument(api: ReturnType<typeof buildApi>, serverUrl?: string) {
  return api.getOpenAPI31Document({
    openapi: "3.1.0",
    info: OPENAPI_INFO,
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
  });
}
