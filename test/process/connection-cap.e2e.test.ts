import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { freshPostgresDatabase, startServer, type ServerProcess } from "../helpers/process";

// docs/abuse-edge.md "Connection cap": the real process (src/main.ts) on loopback with
// OABP_CONNECTIONS_PER_NETWORK=3. Clients pick their source address in 127.0.0.0/8: one address
// holds 3 connections, its 4th is closed at accept without an HTTP answer, another address is
// served, and a closed connection frees its place.

const CAP = 3;
let server: ServerProcess;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "oabp-conncap-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const env: Record<string, string> = { OABP_DATA_DIR: dir, OABP_CONNECTIONS_PER_NETWORK: String(CAP) };
  if (onRealPostgres) {
    const db = await freshPostgresDatabase("oabp_conncap");
    cleanups.unshift(db.drop);
    env.DATABASE_URL = db.url;
  }
  server = await startServer(env);
  cleanups.unshift(async () => {
    server.child.kill("SIGKILL");
    await server.exited;
  });
}, 180_000);
afterAll(async () => {
  for (const c of cleanups) await c();
});

interface Conn {
  socket: net.Socket;
  /** Sends GET /health; resolves with the status code, or "closed" when the server closes first. */
  get(): Promise<number | "closed">;
}

/** One TCP connection from `from` (a loopback source address), kept open between requests. */
function connect(from: string): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port: server.port, localAddress: from });
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.removeListener("error", reject);
      socket.on("error", () => {}); // a reset shows as "closed" below
      let closed = false;
      socket.once("close", () => (closed = true));
      const get = () =>
        new Promise<number | "closed">((done) => {
          if (closed) return done("closed");
          let buf = "";
          const onData = (d: Buffer) => {
            buf += d.toString("latin1");
            const m = /^HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n/.exec(buf);
            if (m) {
              socket.removeListener("data", onData);
              socket.removeListener("close", onClose);
              done(Number(m[1]));
            }
          };
          const onClose = () => {
            socket.removeListener("data", onData);
            done("closed");
          };
          socket.on("data", onData);
          socket.once("close", onClose);
          socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n");
        });
      resolve({ socket, get });
    });
  });
}

describe("connections per client network, at accept", () => {
  it("one address holds the cap; its next connection is closed unanswered; another address is served", async () => {
    const held: Conn[] = [];
    for (let i = 0; i < CAP; i++) {
      const c = await connect("127.0.0.2");
      expect(await c.get()).toBe(200); // accepted and counted
      held.push(c);
    }
    const over = await connect("127.0.0.2");
    expect(await over.get()).toBe("closed");

    const other = await connect("127.0.0.3");
    expect(await other.get()).toBe(200);
    other.socket.destroy();

    // The held connections still work; closing one frees a place (polled: the server sees the
    // close asynchronously).
    expect(await held[0]!.get()).toBe(200);
    held.pop()!.socket.destroy();
    let again: number | "closed" = "closed";
    for (let i = 0; i < 200 && again === "closed"; i++) {
      if (i) await new Promise((r) => setTimeout(r, 25));
      const c = await connect("127.0.0.2");
      again = await c.get();
      if (again !== "closed") c.socket.destroy();
    }
    expect(again).toBe(200);
    for (const c of held) c.socket.destroy();
  });
});
