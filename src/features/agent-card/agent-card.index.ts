import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Config } from "../../env";
import { errors, router } from "../../http/openapi";
import type { AppEnv } from "../../http/types";
import type { ReceiptKeyring } from "../../lib/receipt-keys";
import { agentCard, jwks, JWKS_PATH } from "./agent-card";
import { AGENT_CARD_PATHS } from "../../lib/mcp-contract";

const AgentCardDoc = z.record(z.string(), z.unknown()).openapi("AgentCard", {
  description:
    "A2A 1.0 agent card (signed: JWS over the JCS text of its A2A fields) with the AIP-1 §9.3 alias fields and the §7.4 MCP transport block",
});
const route = (path: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["discovery"],
    summary: `A2A agent card (AIP-1 §9.3, §7.4)${path === AGENT_CARD_PATHS[0] ? "" : `; byte-identical to ${AGENT_CARD_PATHS[0]}`}`,
    responses: {
      200: { description: "The agent card", content: { "application/json": { schema: AgentCardDoc } } },
      ...errors(),
    },
  });

// Built once per config and keyring (a rotation means a restart, as for the manifest), so the
// three aliases are byte-identical by construction.
const bytes = new WeakMap<Config, WeakMap<ReceiptKeyring, string>>();
function once(config: Config, keyring: ReceiptKeyring, build: () => unknown): string {
  const byKey = bytes.get(config) ?? new WeakMap<ReceiptKeyring, string>();
  bytes.set(config, byKey);
  let body = byKey.get(keyring);
  if (body === undefined) {
    body = JSON.stringify(build(), null, 2);
    byKey.set(keyring, body);
  }
  return body;
}
const sendJson = (c: Context<AppEnv>, body: string) => {
  c.header("Content-Type", "application/json; charset=utf-8");
  c.header("Cache-Control", "public, max-age=300");
  return c.body(body, 200) as never;
};
const serve = (c: Context<AppEnv>) => {
  const { config, receiptKeys } = c.get("deps");
  return sendJson(
    c,
    once(config, receiptKeys, () => agentCard(config, receiptKeys)),
  );
};
// The JWKS depends on the keyring only; its own cache.
const jwksBytes = new WeakMap<ReceiptKeyring, string>();
const serveJwks = (c: Context<AppEnv>) => {
  const keyring = c.get("deps").receiptKeys;
  let body = jwksBytes.get(keyring);
  if (body === undefined) {
    body = JSON.stringify(jwks(keyring));
    jwksBytes.set(keyring, body);
  }
  return sendJson(c, body);
};
const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).openapi("Jwks");
const jwksRoute = createRoute({
  method: "get",
  path: JWKS_PATH,
  tags: ["discovery"],
  summary: "The receipt signing keys as a JWKS (Ed25519 OKP keys): the `jku` of the agent card's signature",
  responses: {
    200: { description: "The key set", content: { "application/json": { schema: Jwks } } },
    ...errors(),
  },
});

export const agentCardRouter = router()
  .openapi(route(AGENT_CARD_PATHS[0]), serve)
  .openapi(route(AGENT_CARD_PATHS[1]), serve)
  .openapi(route(AGENT_CARD_PATHS[2]), serve)
  .openapi(jwksRoute, serveJwks);
