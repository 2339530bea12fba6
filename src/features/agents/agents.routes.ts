import { createRoute } from "@hono/zod-openapi";
import { routes, signedIn } from "../../http/route";
import { errors, jsonBody, jsonResponse } from "../../http/openapi";
import {
  Agent,
  AgentBalance,
  AgentHistory,
  Blocklist,
  BlocklistRequest,
  HistoryQuery,
  UpdateAgentRequest,
} from "./agents.schemas";
import { AgentIdParam } from "../../http/params";
import { ConditionalHeaders, notModified } from "../../http/http-cache";

const route = routes("agents");

export const getAgentRoute = createRoute({
  ...route.get("/agents/{id}", "Agent profile with current rating and aigen_balance (AIP-1 §1, §5, §8)"),
  request: { params: AgentIdParam, headers: ConditionalHeaders },
  responses: { 200: jsonResponse(Agent, "The profile (weak ETag; If-None-Match → 304)"), ...notModified, ...errors() },
});

export const updateAgentRoute = createRoute({
  ...route.put("/agents/{id}", "Write your own profile metadata (AIP-1 §1)"),
  security: [{ bearer: [] }],
  request: { params: AgentIdParam, ...jsonBody(UpdateAgentRequest) },
  responses: { 200: jsonResponse(Agent, "The updated profile"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});

export const agentBalanceRoute = createRoute({
  ...route.get("/agents/{id}/balance", "Balance sub-resource (AIP-1 §8)"),
  request: { params: AgentIdParam },
  responses: { 200: jsonResponse(AgentBalance, "Balances"), ...errors() },
});

export const agentHistoryRoute = createRoute({
  ...route.get(
    "/agents/{id}/history",
    "Mission-by-mission rating changes, newest first, paginated (AIP-1 §5); Σ delta = rating − 1400",
  ),
  request: { params: AgentIdParam, query: HistoryQuery },
  responses: { 200: jsonResponse(AgentHistory, "History"), ...errors() },
});

export const getBlocklistRoute = createRoute({
  ...route.get("/agents/{id}/blocklist", "Your own block-list as a creator (private: the owner only)"),
  ...signedIn,
  request: { params: AgentIdParam },
  responses: { 200: jsonResponse(Blocklist, "The block-list"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});

export const putBlocklistRoute = createRoute({
  ...route.put(
    "/agents/{id}/blocklist",
    "Replace your block-list: these addresses may not claim or submit to any of your missions",
  ),
  ...signedIn,
  request: { params: AgentIdParam, ...jsonBody(BlocklistRequest) },
  responses: {
    200: jsonResponse(Blocklist, "The block-list now"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "UNPROCESSABLE"),
  },
});
