import { serve, type ServerType } from "@hono/node-server";
import net from "node:net";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "./app";

// A second OABP server for AIP-3 import tests, listening on TEST_CONTENT_HOST (the one loopback
// address the test fetcher may reach), its public URL being where it listens.

export function freePort(host = TEST_CONTENT_HOST): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, host, () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface IssuerServer {
  t: TestApp;
  url: string;
  close(): Promise<void>;
}

export async function startIssuer(env: Record<string, string> = {}): Promise<IssuerServer> {
  const port = await freePort();
  const url = `http://${TEST_CONTENT_HOST}:${port}`;
  const t = await makeTestApp({ OABP_PUBLIC_URL: url, ...env });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: t.app.fetch, port, hostname: TEST_CONTENT_HOST }, () => resolve(s));
  });
  return {
    t,
    url,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await t.close();
    },
  };
}
