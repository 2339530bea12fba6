import type { Config } from "../../env";
import { A2A_PROTOCOL_VERSION } from "../../lib/a2a-contract";
import { MCP_PROTOCOL_VERSION, mcpUrl } from "../../lib/mcp-contract";

// The ERC-8004 agent registration file (docs/erc-8004.md; ERC-8004 "Agent URI and Agent
// Registration File", type registration-v1), served at the origin's well-known path: the file the
// server's agentURI resolves to, and the endpoint-domain proof of its services.

const REGISTRATION_V1 = "https://eips.ethereum.org/EIPS/eip-8004#registration-v1";

/** One on-chain registration: the agent's id in an identity registry (`eip155:<chain>:<registry>`). */
interface Registration {
  agentId: number;
  agentRegistry: string;
}

/**
 * The registration file. `registrations` lists the server's own identity-registry entries; it is
 * empty until the server's registration is mined (docs/erc-8004.md "Status"), and `supportedTrust`
 * names "reputation" only where the operator turned feedback backed by payment on.
 */
export function agentRegistration(config: Config, registrations: Registration[] = []) {
  const o = config.publicUrl;
  return {
    type: REGISTRATION_V1,
    name: "OABP mission marketplace",
    description:
      "Open Agent Bounty Protocol mission marketplace: post missions with escrowed rewards, claim them, submit work, get verified and paid with a signed receipt.",
    services: [
      { name: "web", endpoint: `${o}/` },
      { name: "MCP", endpoint: mcpUrl(config), version: MCP_PROTOCOL_VERSION },
      { name: "A2A", endpoint: `${o}/.well-known/agent-card.json`, version: A2A_PROTOCOL_VERSION },
    ],
    // x402 deposits and fees are taken when the relayer key is set (docs/payments.md "Turning it on").
    x402Support: Boolean(config.baseRail?.relayerKey),
    active: true,
    registrations,
    // "reputation" once this server writes feedback backed by payment (docs/erc-8004.md "Decisions").
    supportedTrust: config.erc8004 ? ["reputation"] : ([] as string[]),
  };
}
