import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

/**
 * A server on 127.0.0.1 that counts connections, for the calling file or `describe` block: a
 * private address the app must never reach (docs/abuse.md), so a test asserts `connections` is 0
 * after pointing the app at `port`.
 */
export function useCanary(): { readonly port: number; readonly connections: number } {
  const server = http.createServer((_req, res) => res.end("CANARY"));
  let port = 0;
  let connections = 0;
  server.on("connection", () => connections++);
  beforeAll(async () => {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return {
    get port() {
      return port;
    },
    get connections() {
      return connections;
    },
  };
}
