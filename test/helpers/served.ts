import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { closeEventStreams } from "../../src/features/events";
import { makeTestApp, type TestApp } from "./app";

/** A test app listening on a loopback port, for clients that speak real HTTP (SDKs, SSE, sockets). */
export interface ServedTestApp extends TestApp {
  server: ServerType;
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
}

/**
 * makeTestApp on a free loopback port; `close` ends open event streams (they would hold the
 * server), stops listening, then closes the app.
 */
export async function serveTestApp(...args: Parameters<typeof makeTestApp>): Promise<ServedTestApp> {
  const t = await makeTestApp(...args);
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    ...t,
    server,
    port,
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      closeEventStreams(t.deps);
      await new Promise((r) => server.close(r));
      await t.close();
    },
  };
}
