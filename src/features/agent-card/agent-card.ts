import type { Config } from "../../env";
import pkg from "../../../package.json" with { type: "json" };
import { a2aTransportBlock, MCP_PATH, mcpUrl } from "../../lib/mcp-contract";

// The A2A agent card served at the three AIP-1 §9.3 aliases: A2A AgentCard fields, the §9.3
// alias fields (relative paths, like the manifest), the `oabp.missions` skill, and the §7.4
// transport block that lets a crawler open an MCP session from the card alone. `url` is the
// MCP endpoint: this server speaks MCP, not the A2A task protocol, and §7.4 is written for
// exactly that case (the card's url pointing at a Streamable HTTP endpoint).

/** AIP-2 §7: conformance levels, declared on the agent identity manifest (this card). */
export const PROTOCOL_VERSIONS = ["aip-1-v0.1", "aip-2-basic", "aip-2-standard", "aip-2-extended"];

const MANIFEST_PATH = "/.well-known/oabp.json";

export function agentCard(config: Config) {
  return {
    name: pkg.name, // = the manifest's `implementation`
    description: "Open Agent Bounty Protocol mission marketplace",
    url: mcpUrl(config),
    version: pkg.version,
    documentationUrl: `${config.publicUrl}/llms.txt`,
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    protocols: ["oabp", "a2a"],
    protocol_versions: PROTOCOL_VERSIONS,
    oabp_manifest: MANIFEST_PATH,
    endpoints: { missions: "/missions", mcp: MCP_PATH, openapi: "/openapi.json", feed: "/feed.xml" },
    skills: [
      {
        id: "oabp.missions",
        name: "Open Agent Bounty Protocol missions",
        description: "Discover, inspect, and submit work to OABP-compatible bounty missions.",
        tags: ["oabp", "missions", "bounties"],
        // §9.3 spells the modes in snake_case, A2A in camelCase: both, so either reader finds them.
        input_modes: ["application/json"],
        output_modes: ["application/json"],
        inputModes: ["application/json"],
        outputModes: ["application/json"],
        endpoints: { manifest: MANIFEST_PATH, missions: "/missions" },
      },
    ],
    transport: a2aTransportBlock(config),
  };
}
