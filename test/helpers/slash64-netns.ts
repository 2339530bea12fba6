// Run INSIDE a fresh network namespace (`unshare -n`, by test/process/ipv6-slash64.e2e.test.ts):
// brings up the namespace's own loopback, gives it a server address and 100 client addresses of
// one /64 (plus one of another /64), starts the real server (src/main.ts) on the server's IPv6
// address with the production limits, sends from each client address with the socket bound to it,
// and prints what each limit answered as one JSON line. The namespace has no route to the host's
// Postgres on TCP: its own 127.0.0.1:<port> is piped to Postgres's Unix socket, so the server
// keeps its usual DATABASE_URL. Nothing leaves the namespace.
import { execFileSync } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { startServer } from "./process";

const SERVER = "fd00:64:0:ff::1";
const CLIENT = (i: number) => `fd00:64:0:1:${(i + 1).toString(16)}:${(i * 7).toString(16)}:0:${(i + 1).toString(16)}`;
const OTHER = "fd00:64:0:2::1";
const CLIENTS = Array.from({ length: 100 }, (_, i) => CLIENT(i));

const batch = ["link set lo up", `addr add ${SERVER}/128 dev lo nodad`, `addr add ${OTHER}/128 dev lo nodad`]
  .concat(CLIENTS.map((a) => `addr add ${a}/128 dev lo nodad`))
  .join("\n");
execFileSync("ip", ["-batch", "-"], { input: batch });

const env = JSON.parse(process.argv[2]!) as Record<string, string>;
const pgSocket = process.argv[3]!;
const pgPort = Number(new URL(env.DATABASE_URL!).port || 5432);
const pipe = net.createServer((c) => {
  const pg = net.connect(pgSocket);
  c.on("error", () => pg.destroy());
  pg.on("error", () => c.destroy());
  c.pipe(pg).pipe(c);
});
await new Promise<void>((r) => pipe.listen(pgPort, "127.0.0.1", r));
const server = await startServer({ ...env, HOST: SERVER });
const base = { host: SERVER, port: server.port };

/** One request on its own connection, the socket bound to `from`; resolves with the status. */
function send(from: string, method: string, path: string, body?: string, keep?: (res: http.IncomingMessage) => void) {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        ...base,
        method,
        path,
        localAddress: from,
        agent: false,
        headers: body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {},
      },
      (res) => {
        if (keep && res.statusCode === 200) keep(res);
        else res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const count = (xs: number[]) => {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
};

try {
  const seen = new Set<string>(); // the source addresses the open streams were sent from
  // Nonces: one per address, 100 addresses of the /64.
  const nonces: number[] = [];
  for (const a of CLIENTS) nonces.push(await send(a, "POST", "/auth/nonce"));
  const otherNonce = await send(OTHER, "POST", "/auth/nonce");
  // Anonymous writes: 300, three rounds over the 100 addresses.
  const writes: number[] = [];
  const bad = JSON.stringify({ message: "x", signature: "0x" });
  for (let i = 0; i < 300; i++) writes.push(await send(CLIENTS[i % 100]!, "POST", "/auth/siwe", bad));
  const otherWrite = await send(OTHER, "POST", "/auth/siwe", bad);
  // Event streams: 40 from 40 addresses of the /64, kept open; then one from the other /64.
  const open: http.IncomingMessage[] = [];
  const streams: number[] = [];
  for (let i = 0; i < 40; i++) streams.push(await send(CLIENTS[i]!, "GET", "/events", undefined, (r) => open.push(r)));
  const otherStream = await send(OTHER, "GET", "/events", undefined, (r) => open.push(r));
  for (const r of open) {
    seen.add(r.socket.localAddress ?? "");
    r.destroy();
  }
  process.stdout.write(
    JSON.stringify({
      nonces: count(nonces),
      otherNonce,
      writes: count(writes),
      otherWrite,
      streams: count(streams),
      otherStream,
      sourceAddresses: seen.size,
    }) + "\n",
  );
} finally {
  server.child.kill("SIGTERM");
  await server.exited;
  pipe.close();
}
