// Where the discovery documents for crawlers and catalogues are served (docs/discovery.md): the
// wellknown feature serves them, the manifest links them. Paths only, so both can import them.

export const SKILL_PATH = "/skill.md";
export const SERVER_CARD_PATH = "/.well-known/mcp/server-card.json";
export const SERVER_JSON_PATH = "/.well-known/mcp/server.json";
export const REGISTRY_AUTH_PATH = "/.well-known/mcp-registry-auth";
export const AGENT_SKILLS_INDEX_PATH = "/.well-known/agent-skills/index.json";
/** The ERC-8004 registration file: another feature serves it, the manifest and llms.txt link it. */
export const AGENT_REGISTRATION_PATH = "/.well-known/agent-registration.json";

/** Every discovery document, as the manifest's `endpoints` name them (relative paths). */
export const DISCOVERY_ENDPOINTS = {
  mcp_server_card: SERVER_CARD_PATH,
  mcp_server_json: SERVER_JSON_PATH,
  agent_skills_index: AGENT_SKILLS_INDEX_PATH,
  skill_md: SKILL_PATH,
  agent_registration: AGENT_REGISTRATION_PATH,
};
