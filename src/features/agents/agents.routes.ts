import { createRoute } from "@hono/zod-openapi";
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
import { requireCaller } from "../../http/identity";

export const getAgentRoute = createRoute({
  method: "get",
  path: "/agents/{id}",
  tags: ["agents"],
  summary: "Agent profile with current rating and aigen_balance (AIP-1 §1, §5, §8)",
  request: { params: AgentIdParam, headers: ConditionalHeaders },
  responses: { 200: jsonResponse(Agent, "The profile (weak ETag; If-None-Match → 304)"), ...notModified, ...errors() },
});

export const updateAgentRoute = createRoute({
  method: "put",
  path: "/agents/{id}",
  tags: ["agents"],
  summary: "Write your own profile metadata (AIP-1 §1)",
  security: [{ bearer: [] }],
  request: { params: AgentIdParam, ...jsonBody(UpdateAgentRequest) },
  responses: { 200: jsonResponse(Agent, "The updated profile"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});

export const agentBalanceRoute = createRoute({
  method: "get",
  path: "/agents/{id}/balance",
  tags: ["agents"],
  summary: "Balance sub-resource (AIP-1 §8)",
  request: { params: AgentIdParam },
  responses: { 200: jsonResponse(AgentBalance, "Balances"), ...errors() },
});

export const agentHistoryRoute = createRoute({
  method: "get",
  path: "/agents/{id}/history",
  tags: ["agents"],
  summary: "Mission-by-mission rating changes, newest first, paginated (AIP-1 §5); Σ delta = rating − 1400",
  request: { params: AgentIdParam, query: HistoryQuery },
  responses: { 200: jsonResponse(AgentHistory, "History"), ...errors() },
});

export const getBlocklistRoute = createRoute({
  method: "get",
  path: "/agents/{id}/blocklist",
  tags: ["agents"],
  summary: "Your own block-list as a creator (private: the owner only)",
  security: [{ bearer: [] }],
  middleware: [requireCaller("agent")],
  request: { params: AgentIdParam },
  responses: { 200: jsonResponse(Blocklist, "The block-list"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});

export const putBlocklistRoute = createRoute({
  method: "put",
  path: "/agents/{id}/blocklist",
  tags: ["agents"],
  summary: "Replace your block-list: these addresses may not claim or submit to any of your missions",
  security: [{ bearer: [] }],
  middleware: [requireCaller("agent")],
  request: { params: AgentIdParam, ...jsonBody(BlocklistRequest) },
  responses: {
    200: jsonResponse(Blocklist, "The block-list now"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "UNPROCESSABLE"),
  },
});
