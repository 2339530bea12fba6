import type { Context, Hono } from "hono";
import type { Deps } from "../../deps";
import type { AppEnv } from "../../http/types";
import {
  AGENT_PROTOCOL_PATH,
  agentProtocol,
  llmsTxt,
  OAUTH_PROTECTED_RESOURCE_PATH,
  oauthProtectedResource,
  robotsTxt,
  SECURITY_TXT_PATH,
  securityTxt,
} from "./wellknown.documents";
import { skillMd } from "./skill";
import { agentRegistration } from "./wellknown.erc8004";
import { AGENT_SKILL_MD_PATH, agentSkillsIndex, registryAuth, serverCard, serverJson } from "./wellknown.discovery";
import {
  AGENT_REGISTRATION_PATH,
  AGENT_SKILLS_INDEX_PATH,
  REGISTRY_AUTH_PATH,
  SERVER_CARD_PATH,
  SERVER_JSON_PATH,
  SKILL_PATH,
} from "../../lib/discovery-paths";
import { selfRegistrations } from "../erc8004";
import { MCP_PATH } from "../../lib/mcp-contract";
import { CLIENT_TARBALL_PATH, clientPackage, versionedTarballPath } from "../../lib/client-package";
import { errorBody } from "../../lib/errors";

const JSON_TYPE = "application/json; charset=utf-8";
const TEXT_TYPE = "text/plain; charset=utf-8";
const MARKDOWN_TYPE = "text/markdown; charset=utf-8";
const CACHE = "public, max-age=3600";

/** Plain Hono routes for the small discovery documents, at the origin root only (not under /api). */
export function registerWellKnown(app: Hono<AppEnv>, deps: Deps): void {
  const { config, clock } = deps;
  const fixed = (body: string, type: string) => (c: Context<AppEnv>) => {
    c.header("Content-Type", type);
    c.header("Cache-Control", CACHE);
    return c.body(body);
  };

  const oauth = fixed(JSON.stringify(oauthProtectedResource(config)), JSON_TYPE);
  app.get(OAUTH_PROTECTED_RESOURCE_PATH, oauth);
  app.get(
    `${OAUTH_PROTECTED_RESOURCE_PATH}${MCP_PATH}`,
    fixed(JSON.stringify(oauthProtectedResource(config, MCP_PATH)), JSON_TYPE),
  );
  app.get(`${OAUTH_PROTECTED_RESOURCE_PATH}/*`, oauth);
  // Built once per receipt keyring (it publishes the PONG signing key; a rotation means a restart).
  const protocolDocs = new WeakMap<Deps["receiptKeys"], string>();
  app.get(AGENT_PROTOCOL_PATH, (c) => {
    let body = protocolDocs.get(deps.receiptKeys);
    if (body === undefined)
      protocolDocs.set(deps.receiptKeys, (body = JSON.stringify(agentProtocol(config, deps.receiptKeys))));
    return fixed(body, JSON_TYPE)(c);
  });
  // Read per request: `registrations` appears once the worker's registration is mined (docs/erc-8004.md).
  app.get(AGENT_REGISTRATION_PATH, async (c) =>
    fixed(JSON.stringify(agentRegistration(config, await selfRegistrations(deps.database.db, config))), JSON_TYPE)(c),
  );
  app.get("/robots.txt", fixed(robotsTxt(config), TEXT_TYPE));
  app.get("/llms.txt", fixed(llmsTxt(config), TEXT_TYPE));
  const skill = skillMd(config);
  app.get(SKILL_PATH, fixed(skill, MARKDOWN_TYPE));
  // Discovery documents for crawlers and catalogues (docs/discovery.md).
  app.get(AGENT_SKILL_MD_PATH, fixed(skill, MARKDOWN_TYPE));
  app.get(AGENT_SKILLS_INDEX_PATH, fixed(JSON.stringify(agentSkillsIndex(config, skill)), JSON_TYPE));
  app.get(SERVER_CARD_PATH, fixed(JSON.stringify(serverCard(config)), JSON_TYPE));
  app.get(SERVER_JSON_PATH, fixed(JSON.stringify(serverJson(config)), JSON_TYPE));
  const proof = registryAuth(config);
  app.get(REGISTRY_AUTH_PATH, (c) => {
    if (proof !== undefined) return fixed(proof, TEXT_TYPE)(c);
    const msg = "no MCP Registry domain proof here: the operator sets OABP_MCP_REGISTRY_PUBLIC_KEY (docs/discovery.md)";
    return c.json(errorBody("NOT_FOUND", msg, c.get("requestId"), { setting: "OABP_MCP_REGISTRY_PUBLIC_KEY" }), 404);
  });

  // The packed @oabp/client (docs/client-install.md): `npm install <origin>/client.tgz`.
  const pkg = clientPackage();
  const tarball = (c: Context<AppEnv>) => {
    if (!pkg) {
      const msg = "this server has no packed client: run `npm run build:client` in its checkout, then restart";
      return c.json(errorBody("NOT_FOUND", msg, c.get("requestId")), 404);
    }
    c.header("Content-Type", "application/gzip");
    c.header("Content-Disposition", `attachment; filename="${pkg.file}"`);
    // RFC 3230 digest of the bytes: the same sha512 as the manifest's `client.integrity`.
    c.header("Digest", `sha-512=${pkg.integrity.slice("sha512-".length)}`);
    c.header("Cache-Control", "public, max-age=300");
    return c.body(new Uint8Array(pkg.bytes));
  };
  app.get(CLIENT_TARBALL_PATH, tarball);
  if (pkg) app.get(versionedTarballPath(pkg), tarball);

  // Expires depends on the clock: rebuilt once per UTC day.
  let cached: { day: string; body: string } | undefined;
  app.get(SECURITY_TXT_PATH, (c) => {
    const now = clock.now();
    const day = now.toISOString().slice(0, 10);
    if (cached?.day !== day) cached = { day, body: securityTxt({ now }, config) };
    c.header("Content-Type", TEXT_TYPE);
    c.header("Cache-Control", CACHE);
    return c.body(cached.body);
  });
  // RFC 9116 §3: the legacy top-level path may redirect to the well-known one.
  app.get("/security.txt", (c) => c.redirect(SECURITY_TXT_PATH, 301));
}
