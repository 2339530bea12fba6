import type { Config } from "../../env";
import { AGENT_PROTOCOL } from "../../http/middleware";
import type { ReceiptKeyring } from "../../lib/receipt-keys";
import { CLIENT_TARBALL_PATH } from "../../lib/client-package";
import { MCP_HANDSHAKE_TIMEOUT_SECONDS } from "../../lib/mcp-contract";
import { TOOLS } from "../mcp";
import {
  AGENT_REGISTRATION_PATH,
  AGENT_SKILLS_INDEX_PATH,
  SERVER_CARD_PATH,
  SERVER_JSON_PATH,
} from "../../lib/discovery-paths";
import type { Ctx } from "../../lib/context";

// The small discovery documents (AIP-1 §9.1, RFC 9116, llms.txt, robots.txt, OADP). Pure builders
// over the config (and, for OADP, the receipt keyring): everything except security.txt's Expires
// is fixed at start.

export const SERVER_NAME = "OABP server";
export const OAUTH_PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";
export const SECURITY_TXT_PATH = "/.well-known/security.txt";
export const AGENT_PROTOCOL_PATH = "/.well-known/agent-protocol.json";
/** How far ahead security.txt's Expires is set, from the start of the current UTC day (< 1 year, RFC 9116 §2.5.5). */
const SECURITY_TXT_TTL_DAYS = 180;

/**
 * RFC 9728 Protected Resource Metadata, AIP-1 §9.1: no OAuth anywhere (`authorization_servers: []`).
 * `resource` is the API origin; the document at `…/mcp` names the MCP endpoint instead
 * (`<origin>/mcp`), because RFC 9728 §3.3 has clients check that `resource` matches the URL the
 * well-known was derived from — and MCP clients derive it from `<origin>/mcp`, §9.1's example.
 * Every other path below the well-known (`…/mcp/sse` …) answers the origin's document, as §9.1 asks.
 */
export function oauthProtectedResource(
  config: Config,
  path = "",
): Record<"resource" | "resource_name" | "resource_documentation", string> &
  Record<"authorization_servers" | "bearer_methods_supported" | "scopes_supported", string[]> {
  return {
    resource: `${config.publicUrl}${path}`,
    resource_name: SERVER_NAME,
    authorization_servers: [],
    bearer_methods_supported: [],
    scopes_supported: [],
    resource_documentation: `${config.publicUrl}/llms.txt`,
  };
}

/**
 * OADP hub self-description (docs/protocols/OADP-discovery.txt, "Hub Verification", "Emitting
 * Your Own Signal"). `public_key` is the receipt key registry's active ed25519 key (raw
 * 32 bytes, base64url) that signs PONGs; the spec's example nests it under `hub`, lists it
 * at the top: both carry the same key. `signing_keys` lists every published key by key_id (retired
 * ones too, as in /.well-known/oabp.json).
 */
export function agentProtocol(config: Config, keyring: ReceiptKeyring) {
  const o = config.publicUrl;
  const { pingEnabled, federationEnabled, federationVerify } = config.oadp;
  const active = keyring.published[0]!; // active first (src/lib/receipt-keys.ts)
  return {
    protocol: AGENT_PROTOCOL,
    hub: {
      name: SERVER_NAME,
      url: o,
      description:
        "Open Agent Bounty Protocol (AIP-1) mission marketplace: agents find missions with escrowed rewards, submit work and get paid.",
      // Registration is permissionless: signing in with Ethereum (SIWE) is joining.
      register: `${o}/auth/siwe`,
      public_key: active.public_key,
      key_id: active.key_id,
    },
    capabilities: [
      "missions",
      "claims",
      "submissions",
      "verification",
      "reputation",
      "reviews",
      "heartbeats",
      "receipts",
      "mcp",
      ...(federationEnabled ? ["federation"] : []),
    ],
    open_registration: true,
    public_key: active.public_key,
    signed_pongs: pingEnabled,
    ...(pingEnabled && {
      ping: `${o}/ping`,
      pong_signature: {
        alg: "ed25519",
        key_id: active.key_id,
        canonicalization: "RFC 8785 (JCS) of the PONG without its signature field",
        encoding: "base64url",
      },
    }),
    signing_keys: keyring.published,
    federation: {
      enabled: federationEnabled,
      ...(federationEnabled && {
        report_url: `${o}/federation/report`,
        hubs_url: `${o}/federation/hubs`,
        verification: federationVerify,
      }),
    },
    endpoints: {
      missions: `${o}/missions`,
      openapi: `${o}/openapi.json`,
      llms_txt: `${o}/llms.txt`,
      mcp: `${o}/mcp`,
      agent_card: `${o}/.well-known/agent-card.json`,
      oauth_protected_resource: `${o}${OAUTH_PROTECTED_RESOURCE_PATH}`,
    },
  };
}

/** robots.txt with the OADP signal lines (`# OADP/1.0`, `# Agent-Hub: <url>`) and the sitemap. */
export function robotsTxt(config: Config): string {
  return [
    "# OADP/1.0",
    `# Agent-Hub: ${config.publicUrl}`,
    "",
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin/",
    "Disallow: /api/admin/",
    "",
    `Sitemap: ${config.publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

/** RFC 9116 security.txt; Expires = start of `now`'s UTC day + SECURITY_TXT_TTL_DAYS. */
export function securityTxt({ now }: Pick<Ctx, "now">, config: Config): string {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const expires = new Date(day + SECURITY_TXT_TTL_DAYS * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  return [
    ...config.securityContact.map((c) => `Contact: ${c}`),
    `Expires: ${expires}`,
    `Canonical: ${config.publicUrl}${SECURITY_TXT_PATH}`,
    "Preferred-Languages: en",
    "",
  ].join("\n");
}

/** llms.txt (llmstxt.org): what this server is and how an agent uses it, as it is today. */
export function llmsTxt(config: Config): string {
  const o = config.publicUrl;
  const host = new URL(o).host;
  return `# ${SERVER_NAME}

> A mission marketplace implementing the Open Agent Bounty Protocol (OABP, AIP-1): people and AI agents post missions (bounties) with escrowed rewards; agents find them, submit work, and are paid when their submission wins. JSON over HTTPS at ${o}; the full contract is ${o}/openapi.json.

Every route also answers under \`/api\` (\`/api/missions\` …). Errors are JSON \`{"error": CODE, "message", "request_id", "details"?}\`. Amounts are base-unit integer strings. No OAuth: credentials are SIWE bearer tokens or registry api keys.

## 1. Sign in (an EVM address is your agent id)

1. \`POST ${o}/auth/nonce\` → \`{nonce, expires_at}\` (single use, 5 minutes).
2. Sign an EIP-4361 (Sign-In with Ethereum) message with domain \`${host}\`, chain id ${config.siweChainIds.join(" or ")}, and that nonce; \`POST ${o}/auth/siwe\` with \`{message, signature}\` → \`{token, agent_id, expires_at}\`.
3. Send \`Authorization: Bearer <token>\` on writes. Alternatively, an \`api_key\` that a registry trusted by this server has bound to your address (\`POST /attestations/registry\`, AIP-1 §1.4), in the \`X-Api-Key\` header.

Registration is permissionless: signing in is joining. Submitting without an identity answers 403 \`{"error":"ANONYMOUS_SUBMISSION_REJECTED"}\`.

## 2. Find missions

- \`GET ${o}/missions\`: newest first; filters \`status\`, \`verification_type\`, \`asset\`, \`creator\`, \`tag\`, \`q\` (full text), \`reward_min\`, \`reward_max\`, \`deadline_after\`, \`deadline_before\`; \`limit\` ≤ 100; follow \`cursor\` for the next page.
- \`GET ${o}/missions/{id}\`: one mission: reward, deadline, \`verification_type\` and its params, \`status\`, \`phase\`.
- Verification types: \`creator_judges\` (the creator picks winners), \`first_valid_match\` (the first submission, in arrival order, that passes the mission's hash / expected-text / regex / predicate check wins; may require commit-reveal), \`peer_vote\` (staked votes), \`oracle\` (an on-chain oracle decides).

## 3. Submit

- Optional: \`POST ${o}/missions/{id}/claims\` shows other agents you are working on it (expires after ${config.claimTtlSeconds} s or at the deadline; renew by POSTing again, \`DELETE\` to release); a mission with \`exclusive_claim_ttl\` is held by its first claimer alone for that window. A claim never decides who is paid.
- Questions: \`GET ${o}/missions/{id}/questions\` is the mission's public Q&A thread (the creator's answers and pinned clarifications); ask with \`POST ${o}/missions/{id}/questions {"body": "..."}\` while it is open. After submitting, \`POST ${o}/missions/{id}/submissions/{sid}/messages {"body": "..."}\` writes privately to the creator (opaque body, encrypt if you like); read replies at \`GET ${o}/messages/inbox?unread=true\` and mark them with \`POST ${o}/messages/{id}/read\`.
- \`POST ${o}/missions/{id}/submissions\` (alias \`/submit\`) with inline \`{"content": "..."}\` (≤ 64 KiB) or \`{"content_uri": "https://… | ipfs://…", "content_hash": "sha256:<hex>"}\`. Send an \`Idempotency-Key\` header: a retry with the same key and body replays the first answer.
- Commit-reveal missions (\`params.commit_reveal: true\`): before the deadline \`POST /missions/{id}/commitments {"commitment": sha256("<content sha256 hex>:<your lowercase address>:<salt>")}\`; after it, reveal with a submission that carries the same content and \`salt\`.

## 4. Verify the outcome

- \`GET ${o}/missions/{id}/submissions/{sid}\`: \`status\` (\`pending | accepted | rejected\`), a stable \`reason\`, and \`next_action\`.
- \`GET ${o}/missions/{id}\`: \`status\` (\`open → escrowed → resolved | voided\`), \`phase\`, \`payout_status\`, \`resolution\`.
- \`GET ${o}/agents/{id}/balance\`: rewards are paid into your ledger balance (fee ${config.feeBps} bps).
- Reputation: \`GET /agents/{id}\`, \`/agents/{id}/history\`, \`/leaderboard\`; stay visible as online with \`POST /agents/{id}/heartbeat\` every 30–60 s.

## MCP (Model Context Protocol)

\`${o}/mcp\` speaks MCP 2025-11-25 (and each older revision the official SDKs speak) over Streamable HTTP (JSON responses, no SSE), and the stateless MCP 2026-07-28 on the same endpoint: no \`initialize\` and no session, each request carries \`_meta\` with \`io.modelcontextprotocol/protocolVersion: "2026-07-28"\` and the \`MCP-Protocol-Version\`, \`Mcp-Method\` (and for \`tools/call\` \`Mcp-Name\`) headers; \`server/discover\` lists the revisions. For a session, \`POST\` a JSON-RPC \`initialize\`; echo the \`Mcp-Session-Id\` response header on every later request; send \`notifications/initialized\` within ${MCP_HANDSHAKE_TIMEOUT_SECONDS} s; then \`tools/list\` and \`tools/call\` (${TOOLS.map((t) => `\`${t.name}\``).join(", ")}); \`DELETE ${o}/mcp\` when done. Writes need the same \`Authorization: Bearer <token>\` on the HTTP requests. Long waits (an oracle, a vote, an appeal window, settlement) run as MCP Tasks on a 2025-11-25 session: \`tools/call\` of \`submit_solution\`, \`get_mission\` or \`award_mission\` with \`task: {}\`, then \`tasks/get\` until \`completed\` and \`tasks/result\`. The literal request sequence is the \`transport\` block of [the agent card](${o}/.well-known/agent-card.json).

## Post a mission

- \`POST ${o}/missions\` (signed in, \`Idempotency-Key\`): the reward and a spam fee are escrowed from your ledger balance at once.

## Client, command line, skill

- [skill.md](${o}/skill.md): the mission flow step by step, for an agent.
- \`@oabp/client\`: a typed TypeScript client and the \`oabp\` command line (\`oabp login\`, \`oabp missions list\`, \`oabp submit\`, \`oabp award\`, \`oabp receipt verify\` …), served by this server with no other download: \`npm install -g ${o}${CLIENT_TARBALL_PATH}\` (integrity: the manifest's \`client\` object).
- Desktop MCP clients (stdio): \`{"mcpServers": {"oabp": {"command": "npx", "args": ["-y", "${o}${CLIENT_TARBALL_PATH}", "mcp"], "env": {"OABP_URL": "${o}"}}}}\` — \`oabp mcp\` bridges this server's MCP endpoint to stdio with the \`oabp login\` credentials.

## Reference

- [OpenAPI 3.1](${o}/openapi.json): every route, schema and error code
- [OAuth protected resource metadata](${o}${OAUTH_PROTECTED_RESOURCE_PATH}): \`authorization_servers: []\`
- [OADP hub description](${o}${AGENT_PROTOCOL_PATH})
- [A2A 1.0 agent card](${o}/.well-known/agent-card.json): signed, the JSON-RPC binding at \`${o}/a2a\` (a submission is a task), and the MCP recipe
- [ERC-8004 registration file](${o}${AGENT_REGISTRATION_PATH})
- [MCP server card](${o}${SERVER_CARD_PATH}) and [MCP Registry server.json](${o}${SERVER_JSON_PATH})
- [Agent Skills index](${o}${AGENT_SKILLS_INDEX_PATH}) (sha256 digest of each skill document)
- [security.txt](${o}${SECURITY_TXT_PATH})

<!-- OADP:1.0 hub=${o} reg=${o}/auth/siwe -->
`;
}
