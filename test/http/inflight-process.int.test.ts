import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveTestApp, type ServedTestApp } from "../helpers/served";
import { openMission, signIn } from "../helpers/agents";

// docs/abuse.md "In-flight request bytes": the process-wide cap holds however many agents send.
// A real HTTP server on loopback; N agents each start one 1 MiB submission and send only its first
// KiB. The process admits cap / 1 MiB of them (the exported gauge never passes the cap) and
// refuses the rest with 503 `inflight_bytes_total` + Retry-After while their bodies are still
// unsent, i.e. before reading them; an honest small read is answered meanwhile; the admitted
// submissions complete once their bodies arrive, and the gauge returns to 0.

const MiB = 1024 * 1024;
const CAP = 4 * MiB;
const N = 12;
const METRICS_TOKEN = "metrics-scraper-token-0123456789";
let t: ServedTestApp;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await serveTestApp({
    OABP_BODY_LIMIT_BYTES: String(2 * MiB),
    OABP_INFLIGHT_BYTES_TOTAL: String(CAP),
    OABP_METRICS_TOKEN: METRICS_TOKEN,
  });
  port = t.port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await t?.close();
});

/** One submission body of exactly 1 MiB (valid JSON: a data: URI, then spaces). */
function submissionBody(): Buffer {
  const json = JSON.stringify({
    content_uri: `data:application/octet-stream;base64,${randomBytes(700_000).toString("base64")}`,
  });
  return Buffer.concat([Buffer.from(json), Buffer.alloc(MiB - Buffer.byteLength(json), " ")]);
}

interface Raw {
  socket: Socket;
  received: Buffer;
  status(): number | null;
  /** The whole response has arrived (its head and Content-Length bytes of body). */
  complete(): boolean;
  header(name: string): string | null;
  json(): any;
}

/** A raw HTTP/1.1 request whose body is sent only up to `sent` bytes for now. */
function startPost(path: string, token: string, body: Buffer, sent: number): Raw {
  const socket = connect(port, "127.0.0.1");
  const raw: Raw = {
    socket,
    received: Buffer.alloc(0),
    status() {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(raw.received.toString("latin1"));
      return m ? Number(m[1]) : null;
    },
    complete() {
      const at = raw.received.indexOf("\r\n\r\n");
      const length = raw.header("content-length");
      return at >= 0 && length !== null && raw.received.length - at - 4 >= Number(length);
    },
    header(name) {
      const head = raw.received.toString("latin1").split("\r\n\r\n")[0]!;
      const m = new RegExp(`^${name}: (.*)$`, "im").exec(head);
      return m ? m[1]!.trim() : null;
    },
    json() {
      const text = raw.received.toString("utf8");
      return JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4));
    },
  };
  sockets.push(socket);
  socket.on("data", (d) => (raw.received = Buffer.concat([raw.received, d])));
  socket.on("error", () => {});
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: oabp.test\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.subarray(0, sent));
  return raw;
}

async function gauge(name: string): Promise<number> {
  const r = await fetch(`${t.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(r.status).toBe(200);
  const m = new RegExp(`^${name} (\\S+)$`, "m").exec(await r.text());
  if (!m) throw new Error(`no ${name} in /metrics`);
  return Number(m[1]);
}

async function until(what: string, ok: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await ok()) return;
    await new Promise((r) => setImmediate(r));
    if (i > 100) await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for: ${what}`);
}

describe("the process-wide in-flight byte cap over a real socket", () => {
  it(`${N} agents × one 1 MiB submission with a ${CAP / MiB} MiB cap: ${CAP / MiB} admitted, the rest 503 before their bodies are read; an honest read answered`, async () => {
    const { mission } = await openMission(t);
    const agents = await Promise.all(Array.from({ length: N }, () => signIn(t)));
    const bodies = agents.map(() => submissionBody());
    const path = `/missions/${mission.id}/submissions`;
    const before = await gauge("oabp_request_bytes_in_flight");
    expect(before).toBe(0);

    const posts = agents.map((a, i) => startPost(path, a.token, bodies[i]!, 1024));
    // Every request is either answered (refused) or admitted and waiting for its body.
    await until("every request admitted or refused", async () => {
      const refused = posts.filter((p) => p.complete()).length;
      return refused + (await gauge("oabp_request_bytes_in_flight")) / MiB === N;
    });
    const inFlight = await gauge("oabp_request_bytes_in_flight");
    expect(inFlight).toBe(CAP);
    expect(await gauge("oabp_request_bytes_in_flight_peak")).toBeLessThanOrEqual(CAP);
    const refused = posts.filter((p) => p.complete());
    const admitted = posts.filter((p) => !p.complete());
    expect(admitted).toHaveLength(CAP / MiB);
    for (const p of refused) {
      expect(p.status()).toBe(503);
      expect(p.header("retry-after")).toBe("1");
      expect(p.json().error).toBe("SERVICE_UNAVAILABLE");
      expect(p.json().details.reason).toBe("inflight_bytes_total");
    }

    // An honest small read while the cap is full.
    const read = await fetch(`${t.base}/missions/${mission.id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { id: string }).id).toBe(mission.id);

    // The admitted bodies arrive: those submissions are made; the bytes are released.
    for (const p of admitted) p.socket.write(bodies[posts.indexOf(p)]!.subarray(1024));
    await until("the admitted submissions answered", () => admitted.every((p) => p.complete()));
    for (const p of admitted) expect(p.status(), p.received.toString().slice(0, 300)).toBe(201);
    await until("the gauge back at 0", async () => (await gauge("oabp_request_bytes_in_flight")) === 0);
    expect(await gauge("oabp_request_bytes_in_flight_peak")).toBeLessThanOrEqual(CAP);

    // A refused agent retrying now is admitted.
    const retry = posts.indexOf(refused[0]!);
    const again = startPost(path, agents[retry]!.token, bodies[retry]!, MiB);
    await until("the retry answered", () => again.complete());
    expect(again.status(), again.received.toString().slice(0, 300)).toBe(201);
  });
});
