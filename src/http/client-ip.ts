import type { Socket } from "node:net";
import type { Context } from "hono";
import { CLIENT_V6_PREFIX, clientNetwork as networkOf } from "../lib/client-network";
import type { AppEnv } from "./types";

// The client address for rate limits, which key on the authenticated address or the client IP
// (docs/design.md "Wire conventions"). @hono/node-server puts the Node request in c.env.incoming; app.request() in
// tests has none. Behind a reverse proxy (OABP_TRUST_PROXY=true) the proxy's own appended entry —
// the last of X-Forwarded-For — is the client; earlier entries are whatever the client sent.

export function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const last = c.req
      .header("x-forwarded-for")
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    if (last) return last;
  }
  return nodeSocket(c)?.remoteAddress ?? "unknown";
}

/** The Node socket of the request (c.env.incoming of @hono/node-server); none under app.request(). */
export const nodeSocket = (c: Context<AppEnv>): Socket | undefined =>
  (c.env as { incoming?: { socket?: Socket } } | undefined)?.incoming?.socket;

/**
 * The client network per-IP limits and connection caps key on (lib/client-network.ts): the IPv4
 * address, or the IPv6 address's CLIENT_V6_PREFIX (/64) network.
 */
export function clientNetwork(c: Context<AppEnv>): string {
  const { trustProxy } = c.get("deps").config;
  return networkOf(clientIp(c, trustProxy), CLIENT_V6_PREFIX);
}

/** The rate-limit key of a request: the authenticated agent, else the client network. */
export function callerKey(c: Context<AppEnv>): string {
  const who = c.get("identity");
  return who?.kind === "agent" ? `agent:${who.address}` : `ip:${clientNetwork(c)}`;
}
