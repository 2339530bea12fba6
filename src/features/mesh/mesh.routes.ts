import { routes, signedIn } from "../../http/route";
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
const skills = route.at("/skills", {});
const skill = route.one("/skills/{id}", SkillIdParam);
const invocation = route.one("/skills/{id}/invoke", SkillIdParam);

export const registerAgentRoute = route.post(
  "/agents/register",
  "Agent Mesh registration: signed in, your own directory entry; anonymous, a new agent id and an API key (X-API-Key)",
  {
    in: { body: RegisterAgentRequest },
    ok: [200, RegisterAgentResponse, "Registered"],
    errors: ["UNAUTHORIZED", "FORBIDDEN", "RATE_LIMITED"],
  },
);

export const registerSkillRoute = skills.post(
  "Register a skill (or replace yours of the same name) with its JSON Schemas, tags and rate limit",
  {
    ...signedIn,
    in: { body: RegisterSkillRequest },
    ok: [200, Skill, "The skill as registered"],
    errors: ["CONFLICT", "PAYLOAD_TOO_LARGE"],
  },
);

export const listSkillsRoute = skills.get(
  "Discover skills, oldest first, filtered by tag, name or provider (keyset pages)",
  { in: { query: SkillQuery }, ok: [200, SkillList, "A page of skills"] },
);

export const getSkillRoute = skill.get("One skill", { ok: [200, Skill, "The skill"] });

export const deleteSkillRoute = skill.delete("Unregister your skill", {
  ...signedIn,
  ok: [200, DeletedSkill, "Removed"],
});

export const invokeSkillRoute = invocation.post(
  "Invoke a skill through the hub: the payload is checked against its inputSchema and forwarded to the provider as a skill_invocation message",
  {
    ...signedIn,
    in: { body: InvokeRequest },
    ok: [200, InvokeResponse, "The provider's result (Mesh Skill Response Format)"],
    errors: ["PAYLOAD_TOO_LARGE", "RATE_LIMITED", "INTERNAL_ERROR", "SERVICE_UNAVAILABLE", "TIMEOUT"],
  },
);
