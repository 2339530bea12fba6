import { SendMessageRequest } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { PUBLIC_URL } from "./app";
import type { ServedTestApp } from "./served";

// The official A2A client (@a2a-js/sdk 1.3.0) wired to a served test app (docs/a2a.md): the card
// names the configured public origin, so the client's fetch maps that origin to the listening port.

/** fetch with the public origin mapped to the listening server, and the agent's token if given. */
export const a2aFetch =
  (t: ServedTestApp, token?: string): typeof fetch =>
  (input, init) => {
    const url = String(input instanceof Request ? input.url : input).replace(PUBLIC_URL, t.base);
    const headers = new Headers(init?.headers);
    if (token) headers.set("authorization", `Bearer ${token}`);
    return fetch(url, { ...init, headers });
  };

/** The server's agent card as the SDK's resolver reads it. */
export const resolveA2aCard = (t: ServedTestApp) =>
  new DefaultAgentCardResolver({ fetchImpl: a2aFetch(t) }).resolve(t.base);

/** A JSON-RPC client for the agent holding `token`, made from the resolved card. */
export const a2aClient = async (t: ServedTestApp, token: string) =>
  new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: a2aFetch(t, token) })],
    }),
  ).createFromAgentCard(await resolveA2aCard(t));

/** A user message carrying one data part. */
export const a2aMessage = (data: Record<string, unknown>) =>
  SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ data }] } });
