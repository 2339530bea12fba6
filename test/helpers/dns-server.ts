import dgram from "node:dgram";
import type { AddressInfo } from "node:net";

// A real (tiny) UDP DNS server for tests (docs/testing.md: local resolvers, no mocks): answers
// A queries for the names in `records`, AAAA with an empty answer, swallows every query for a
// name `tarpit(name)` accepts (never answers, like a black-holed name server), and answers
// NXDOMAIN otherwise. Every query is logged in arrival order.

export interface DnsServer {
  /** "127.0.0.1:<port>", for OABP_DNS_SERVERS / the fetcher's `dns.servers`. */
  address: string;
  /** Names queried, lower case, in arrival order (one entry per query: A and AAAA each). */
  queries: { name: string; type: "A" | "AAAA" | number }[];
  /** Queries received for tarpit names and never answered. */
  swallowed(): number;
  close(): Promise<void>;
}

export async function startDnsServer(opts: {
  records: Record<string, string>;
  tarpit: (name: string) => boolean;
}): Promise<DnsServer> {
  const socket = dgram.createSocket("udp4");
  const queries: DnsServer["queries"] = [];
  let swallowed = 0;
  socket.on("message", (msg, rinfo) => {
    const q = parseQuestion(msg);
    if (q === undefined) return;
    const type = q.qtype === 1 ? "A" : q.qtype === 28 ? "AAAA" : q.qtype;
    queries.push({ name: q.name, type });
    if (opts.tarpit(q.name)) {
      swallowed++;
      return;
    }
    const ip = opts.records[q.name];
    socket.send(
      answer(msg, q.end, ip === undefined ? 3 : 0, q.qtype === 1 ? ip : undefined),
      rinfo.port,
      rinfo.address,
    );
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const port = (socket.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${port}`,
    queries,
    swallowed: () => swallowed,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function parseQuestion(msg: Buffer): { name: string; qtype: number; end: number } | undefined {
  if (msg.length < 17) return undefined;
  const labels: string[] = [];
  let i = 12;
  while (i < msg.length && msg[i] !== 0) {
    const len = msg[i]!;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString("ascii"));
    i += 1 + len;
  }
  const end = i + 5; // zero byte, QTYPE, QCLASS
  if (end > msg.length) return undefined;
  return { name: labels.join(".").toLowerCase(), qtype: msg.readUInt16BE(i + 1), end };
}

/** The query echoed back as a response: rcode 0 (with one A record when `ip`) or 3 (NXDOMAIN). */
function answer(query: Buffer, questionEnd: number, rcode: number, ip: string | undefined): Buffer {
  const header = Buffer.from(query.subarray(0, 12));
  header.writeUInt16BE(0x8180 | rcode, 2); // QR, RD, RA + rcode
  header.writeUInt16BE(1, 4); // QDCOUNT
  header.writeUInt16BE(ip === undefined ? 0 : 1, 6); // ANCOUNT
  header.writeUInt16BE(0, 8);
  header.writeUInt16BE(0, 10);
  const question = query.subarray(12, questionEnd);
  if (ip === undefined) return Buffer.concat([header, question]);
  const rr = Buffer.alloc(16);
  rr.writeUInt16BE(0xc00c, 0); // name: pointer to the question's
  rr.writeUInt16BE(1, 2); // A
  rr.writeUInt16BE(1, 4); // IN
  rr.writeUInt32BE(60, 6); // TTL
  rr.writeUInt16BE(4, 10);
  ip.split(".").forEach((octet, k) => rr.writeUInt8(Number(octet), 12 + k));
  return Buffer.concat([header, question, rr]);
}
