import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A switchable JSON-RPC proxy in front of anvil: `down = true` makes every request fail at the
 * socket (as an unreachable RPC does), `down = false` forwards again.
 */
export interface RpcProxy {
  url: string;
  down: boolean;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const t = new URL(target);
  const state = { down: false };
  const server: Server = createServer((req, res) => {
    if (state.down) {
      req.socket.destroy();
      return;
    }
    const up = request({ host: t.hostname, port: t.port, path: "/", method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get down() {
      return state.down;
    },
    set down(v: boolean) {
      state.down = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
