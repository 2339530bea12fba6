import http from "node:http";
import type { AddressInfo } from "node:net";
import { vi } from "vitest";
import { Webhook } from "standardwebhooks";
import { TEST_CONTENT_HOST } from "./app";

// A local webhook receiver on TEST_CONTENT_HOST (the one loopback address the test fetcher may
// reach). Records every request; each path answers by a rule given the n-th call (1-based).

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}
export type Reply = { status: number; headers?: Record<string, string>; body?: string };
export type Rule = (n: number) => Reply | Promise<Reply>;

export interface Receiver {
  base: string;
  received: Received[];
  /** Requests to one path. */
  at(path: string): Received[];
  on(path: string, rule: Rule): void;
  /** Paths whose verification challenges were echoed, in order. */
  verifications: string[];
  /** This path answers challenges like any other request (by its rule, recorded): never verified. */
  refuseVerification(path: string): void;
  close(): Promise<void>;
}

export async function startReceiver(rules: Record<string, Rule> = {}): Promise<Receiver> {
  const received: Received[] = [];
  const verifications: string[] = [];
  const refuseVerification = new Set<string>();
  const counts = new Map<string, number>();
  const table = new Map(Object.entries(rules));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const path = (req.url ?? "/").split("?")[0]!;
      // A well-behaved endpoint echoes the verification challenge (docs/abuse-edge.md); not
      // recorded, so tests count real deliveries only. `refuseVerification` paths stay silent.
      const text = Buffer.concat(chunks).toString("utf8");
      if (!refuseVerification.has(path) && text.includes('"type":"webhook.verification"')) {
        verifications.push(path);
        const { data } = JSON.parse(text) as { data: { challenge: string } };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ challenge: data.challenge }));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      received.push({ path, headers, body: Buffer.concat(chunks).toString("utf8") });
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const reply = (await table.get(path)?.(n)) ?? { status: 204 };
      res.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, TEST_CONTENT_HOST, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://${TEST_CONTENT_HOST}:${port}`,
    received,
    at: (path) => received.filter((r) => r.path === path),
    verifications,
    refuseVerification: (path) => void refuseVerification.add(path),
    on: (path, rule) => void table.set(path, rule),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Verifies a received delivery with the official `standardwebhooks` library (an implementation
 * independent of ours). Its timestamp check reads Date.now(): the system time is set to `now`
 * (the test's manual clock) for the duration of the call.
 */
export function verifyStandard(secret: string, r: Received, now: Date): unknown {
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    vi.setSystemTime(now);
    return new Webhook(secret).verify(r.body, r.headers);
  } finally {
    vi.useRealTimers();
  }
}
