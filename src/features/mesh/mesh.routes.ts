import { createRoute, z } from "@hono/zod-openapi";
import { errors } from "../../http/openapi";
import { routes, signedIn } from "../../http/route";
import { meshCaller } from "./mesh.private";
import {
  DeletedSkill,
  InvokeRequest,
  InvokeResponse,
  MeshFormatQuery,
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
/** Signed in, or the mesh's shared key in private-network mode (mesh.private.ts). */
const meshWriter = { ...signedIn, middleware: [meshCaller] };
const skills = route.at("/skills", {});
const skill = route.one("/skills/{id}", SkillIdParam);
const invocation = route.one("/skills/{id}/invoke", SkillIdParam);

export const registerAgentRoute = route.post(
  "/agents/register",
  "Agent Mesh registration: signed in, your own directory entry; anonymous, a new agent id and an API key (X-API-Key)",
  {
    in: { body: RegisterAgentRequest, query: MeshFormatQuery },
    ok: [200, RegisterAgentResponse, "Registered"],
    errors: [
      ["UNAUTHORIZED", "unknown_api_key"],
      ["FORBIDDEN", "suspended"],
      "RATE_LIMITED",
      [
        "INVALID_PARAMETER",
        "blocked_address",
        "credentials_in_url",
        "https_required",
        "invalid_url",
        "unsupported_scheme",
        "url_too_long",
      ],
    ],
  },
);

export const registerSkillRoute = skills.post(
  "Register a skill (or replace yours of the same name) with its JSON Schemas, tags and rate limit",
  {
    ...meshWriter,
    in: { body: RegisterSkillRequest, query: MeshFormatQuery },
    ok: [200, Skill, "The skill as registered"],
    errors: [
      ["CONFLICT", "registry_quota", "too_many_skills"],
      "PAYLOAD_TOO_LARGE",
      [
        "INVALID_PARAMETER",
        "agent_id_required",
        "agent_not_registered",
        "blocked_address",
        "credentials_in_url",
        "https_required",
        "invalid_schema",
        "invalid_url",
        "unsupported_scheme",
        "url_too_long",
      ],
      ["UNAUTHORIZED", "unknown_api_key"],
      ["FORBIDDEN", "not_self", "suspended"],
    ],
  },
);

/** Discovery answers per format (mesh.index.ts): the page object, or the Mesh document's bare array. */
export const listSkillsRoute = createRoute({
  ...route.get(
    "/skills",
    "Discover skills, oldest first, filtered by tag, name or provider (keyset pages); with format=mesh (the default in private-network mode) a bare array, the next page in a Link header",
  ),
  request: { query: SkillQuery },
  responses: {
    200: {
      description: "A page of skills: {skills, next_cursor}, or (format=mesh) the skills as an array",
      content: { "application/json": { schema: z.union([SkillList, z.array(Skill)]) } },
    },
    ...errors(),
  },
});

export const getSkillRoute = skill.get("One skill", {
  in: { query: MeshFormatQuery },
  ok: [200, Skill, "The skill"],
  errors: [["NOT_FOUND", "skill_not_found"]],
});

export const deleteSkillRoute = skill.delete("Unregister your skill", {
  ...meshWriter,
  in: { query: MeshFormatQuery },
  ok: [200, DeletedSkill, "Removed"],
  errors: [
    ["UNAUTHORIZED", "unknown_api_key"],
    ["FORBIDDEN", "not_owner"],
    ["NOT_FOUND", "skill_not_found"],
  ],
});

export const invokeSkillRoute = invocation.post(
  "Invoke a skill through the hub: the payload is checked against its inputSchema and forwarded to the provider as a skill_invocation message",
  {
    ...meshWriter,
    in: { body: InvokeRequest, query: MeshFormatQuery },
    ok: [200, InvokeResponse, "The provider's result (Mesh Skill Response Format)"],
    errors: [
      "PAYLOAD_TOO_LARGE",
      ["RATE_LIMITED", "caller_busy", "hub_busy", "provider_busy", "provider_error"],
      [
        "INTERNAL_ERROR",
        "invalid_output",
        "provider_error",
        "provider_invalid_response",
        "provider_response_too_large",
      ],
      [
        "SERVICE_UNAVAILABLE",
        "caller_busy",
        "hub_busy",
        "no_endpoint",
        "provider_busy",
        "provider_error",
        "provider_not_consented",
        "provider_origin_busy",
        "provider_suspended",
        "provider_unreachable",
      ],
      ["TIMEOUT", "provider_error", "provider_timeout"],
      ["INVALID_PARAMETER", "agent_id_required", "agent_not_registered", "invalid_input", "provider_error"],
      ["UNAUTHORIZED", "provider_error", "unknown_api_key"],
      ["FORBIDDEN", "not_self", "suspended"],
      ["NOT_FOUND", "skill_not_found"],
    ],
  },
);
