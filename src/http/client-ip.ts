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
  if (trustProxy) return networkOf(clientIp(c, true), CLIENT_V6_PREFIX);
  // Without a proxy the network is the socket's peer, fixed for the connection's life: parsed
  // once per keep-alive connection instead of on every request's limits (bench/README.md "Anonymous
  // reads at the floor, MCP list at REST's speed").
  const socket = nodeSocket(c);
  if (socket === undefined) return networkOf("unknown", CLIENT_V6_PREFIX);
  let network = networkBySocket.get(socket);
  if (network === undefined) {
    network = networkOf(socket.remoteAddress ?? "unknown", CLIENT_V6_PREFIX);
    // A socket already closed has no remoteAddress: not kept, so a reused object cannot carry it.
    if (socket.remoteAddress !== undefined) networkBySocket.set(socket, network);
  }
  return network;
}
const networkBySocket = new WeakMap<Socket, string>();

/** The rate-limit key of a request: the authenticated agent, else the client network. */
export function callerKey(c: Context<AppEnv>): string {
  const who = c.get("identity");
  return who?.kind === "agent" ? `agent:${who.address}` : `ip:${clientNetwork(c)}`;
}
