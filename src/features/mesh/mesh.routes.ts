import { createRoute } from "@hono/zod-openapi";
import { routes, signedIn } from "../../http/route";
import { errors, jsonBody, jsonResponse } from "../../http/openapi";
import {
  DeletedSkill,
  InvokeRequest,
  InvokeResponse,
  RegisterAgentRequest,
  RegisterAgentResponse,
  RegisterSkillRequest,
  Skill,
  SkillIdParam,
  SkillList,
  SkillQuery,
} from "./mesh.schemas";

// Agent Mesh hub routes (docs/neighbours.md "Agent Mesh"); the heartbeat is the heartbeats feature's.
const route = routes("mesh");

export const registerAgentRoute = createRoute({
  ...route.post(
    "/agents/register",
    "Agent Mesh registration: signed in, your own directory entry; anonymous, a new agent id and an API key (X-API-Key)",
  ),
  request: jsonBody(RegisterAgentRequest),
  responses: {
    200: jsonResponse(RegisterAgentResponse, "Registered"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "RATE_LIMITED"),
  },
});

export const registerSkillRoute = createRoute({
  ...route.post(
    "/skills",
    "Register a skill (or replace yours of the same name) with its JSON Schemas, tags and rate limit",
  ),
  ...signedIn,
  request: jsonBody(RegisterSkillRequest),
  responses: {
    200: jsonResponse(Skill, "The skill as registered"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "CONFLICT", "PAYLOAD_TOO_LARGE"),
  },
});

export const listSkillsRoute = createRoute({
  ...route.get("/skills", "Discover skills, oldest first, filtered by tag, name or provider (keyset pages)"),
  request: { query: SkillQuery },
  responses: { 200: jsonResponse(SkillList, "A page of skills"), ...errors() },
});

export const getSkillRoute = createRoute({
  ...route.get("/skills/{id}", "One skill"),
  request: { params: SkillIdParam },
  responses: { 200: jsonResponse(Skill, "The skill"), ...errors("NOT_FOUND") },
});

export const deleteSkillRoute = createRoute({
  ...route.delete("/skills/{id}", "Unregister your skill"),
  ...signedIn,
  request: { params: SkillIdParam },
  responses: { 200: jsonResponse(DeletedSkill, "Removed"), ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND") },
});

export const invokeSkillRoute = createRoute({
  ...route.post(
    "/skills/{id}/invoke",
    "Invoke a skill through the hub: the payload is checked against its inputSchema and forwarded to the provider as a skill_invocation message",
  ),
  ...signedIn,
  request: { params: SkillIdParam, ...jsonBody(InvokeRequest) },
  responses: {
    200: jsonResponse(InvokeResponse, "The provider's result (Mesh Skill Response Format)"),
    ...errors(
      "UNAUTHORIZED",
      "FORBIDDEN",
      "NOT_FOUND",
      "PAYLOAD_TOO_LARGE",
      "RATE_LIMITED",
      "INTERNAL_ERROR",
      "SERVICE_UNAVAILABLE",
      "TIMEOUT",
    ),
  },
});
