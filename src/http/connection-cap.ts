import type { Server, Socket } from "node:net";
import { clientNetwork } from "../lib/client-network";

// Connections per client network, counted at accept time (docs/abuse-edge.md "Connection cap"):
// one client network (IPv4 address, IPv6 /64) holds at most `perNetwork` open TCP connections to
// this process. Past it, the new socket is destroyed at once — no HTTP parse, no body, no
// database — so a flood of connections costs the process an accept and a close each. Behind a
// reverse proxy (OABP_TRUST_PROXY) every socket is the proxy's, so the cap is not applied there:
// the proxy caps its clients' connections.

export interface ConnectionCap {
  /** Open connections of the network of this address (for tests and metrics). */
  open(address: string): number;
  /** Connections destroyed at accept since start. */
  refused(): number;
}

export function capConnections(server: Server, perNetwork: number, v6Prefix: number): ConnectionCap {
  const open = new Map<string, number>();
  let refused = 0;
  server.on("connection", (socket: Socket) => {
    const net = clientNetwork(socket.remoteAddress ?? "unknown", v6Prefix);
    const mine = open.get(net) ?? 0;
    if (mine >= perNetwork) {
      refused++;
      socket.destroy();
      return;
    }
    open.set(net, mine + 1);
    socket.once("close", () => {
      const left = (open.get(net) ?? 1) - 1;
      if (left <= 0) open.delete(net);
      else open.set(net, left);
    });
  });
  return {
    open: (address) => open.get(clientNetwork(address, v6Prefix)) ?? 0,
    refused: () => refused,
  };
}
