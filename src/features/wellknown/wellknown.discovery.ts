import { createHash } from "node:crypto";
import type { Config } from "../../env";
import { MCP_PATH, MCP_SESSION_VERSIONS, MCP_STATELESS_VERSIONS } from "../../lib/mcp-contract";
import pkg from "../../../package.json" with { type: "json" };

// The discovery documents crawlers and catalogues read (docs/discovery.md): the MCP Server Card
// (the MCP Server Card proposal, a draft), the MCP Registry's server.json (schema 2025-09-29) with its HTTP domain proof, and
// the Agent Skills discovery index (Agent Skills Discovery RFC 0.2.0). Pure builders over the
// config: fixed at start.

const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
const SERVER_JSON_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json";
const AGENT_SKILLS_SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/** server.json caps `description` at 100 characters. */
const DESCRIPTION = "Mission marketplace (OABP): find bounties with escrowed rewards, submit work, get paid.";

/** The skill's name (its SKILL.md frontmatter) and where the index serves it. */
const SKILL_NAME = "oabp-missions";
export const AGENT_SKILL_MD_PATH = `/.well-known/agent-skills/${SKILL_NAME}/SKILL.md`;

/**
 * The registry name: the public host reversed, then `/missions` — the namespace the MCP Registry
 * grants to whoever proves the domain (`mcp-publisher login http --domain <host>`).
 */
function registryName(config: Config): string {
  const host = new URL(config.publicUrl).hostname.replace(/^\[|\]$/g, "").replace(/:/g, "-");
  return `${host.split(".").reverse().join(".")}/missions`;
}

/** The streamable HTTP remote, as both server.json and the server card spell it. */
function remote(config: Config) {
  return { type: "streamable-http" as const, url: `${config.publicUrl}${MCP_PATH}` };
}

/** MCP Registry server.json: the remote MCP endpoint of this server, no packages to run. */
export function serverJson(config: Config) {
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: registryName(config),
    title: "OABP server",
    description: DESCRIPTION,
    version: pkg.version,
    websiteUrl: config.publicUrl,
    remotes: [remote(config)],
  };
}

/**
 * MCP Server Card (the MCP Server Card proposal, a draft): server.json's fields, the protocol versions the remote speaks, its
 * authentication (a bearer token from SIWE for writes; reads need none) and its capabilities.
 */
export function serverCard(config: Config) {
  return {
    ...serverJson(config),
    $schema: SERVER_CARD_SCHEMA,
    remotes: [
      {
        ...remote(config),
        supportedProtocolVersions: [...MCP_STATELESS_VERSIONS, ...MCP_SESSION_VERSIONS],
        authentication: { required: false, schemes: ["bearer"] },
      },
    ],
    capabilities: { tools: { listChanged: false } },
  };
}

/** The MCP Registry's HTTP domain proof: one line, or undefined without a configured key. */
export function registryAuth(config: Config): string | undefined {
  const key = config.mcpRegistryPublicKey;
  return key === undefined ? undefined : `v=MCPv1; k=ed25519; p=${key}\n`;
}

const sha256 = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

/** Agent Skills discovery index: the one skill this server publishes, with the digest of its bytes. */
export function agentSkillsIndex(config: Config, skillMd: string) {
  return {
    $schema: AGENT_SKILLS_SCHEMA,
    skills: [
      {
        name: SKILL_NAME,
        type: "skill-md",
        description: `Find, solve and get paid for missions (bounties) on the OABP server at ${config.publicUrl}; post and award your own.`,
        url: `${config.publicUrl}${AGENT_SKILL_MD_PATH}`,
        digest: sha256(skillMd),
      },
    ],
  };
}
