import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { answerHealthFirst, isHealthProbe } from "../../src/http/health-first";
import { useTestApp } from "../helpers/suite-app";

// /health answers from a path no request body can delay (docs/operations.md "Probes"): in front
// of the app on the node server, so an app whose every request is stuck behind bodies being read
// still answers the probe; other paths still reach the app, and the answer is the app's own.

const t = useTestApp();

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

describe("/health on its own path", () => {
  it("answers while the app holds every other request (a body that never finishes arriving)", async () => {
    const held: { end(): void }[] = [];
    // The app stand-in: it never answers, as a process saturated by request bodies would not.
    const server = createServer((_req, res) => void held.push(res));
    answerHealthFirst(server);
    const base = await listen(server);
    try {
      for (const p of ["/health", "/api/health", "/health?probe=1"]) {
        const r = await fetch(`${base}${p}`, { signal: AbortSignal.timeout(5000) });
        expect(r.status, p).toBe(200);
        expect(await r.json()).toEqual({ status: "ok" });
        expect(r.headers.get("x-agent-protocol")).toBe("oadp/1.0");
      }
      const head = await fetch(`${base}/health`, { method: "HEAD" });
      expect(head.status).toBe(200);
      // Everything else still goes to the app, which holds it.
      const other = fetch(`${base}/missions`).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
      expect(held.length).toBe(1);
      for (const res of held) res.end();
      await other;
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("in front of the real app: the same answer as the app's route, and every other path reaches the app", async () => {
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
    await new Promise((r) => server.once("listening", r));
    answerHealthFirst(server);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const own = await t.call("GET", "/health");
      const front = await fetch(`${base}/health`);
      expect(await front.text()).toBe(own.text);
      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(200);
      expect(ready.headers.get("x-request-id")).toMatch(/^req_/);
      // A POST to /health is not a probe: the app answers it (no such route).
      expect((await fetch(`${base}/health`, { method: "POST" })).status).toBe(404);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("recognises probes by method and path only", () => {
    expect(isHealthProbe("GET", "/health")).toBe(true);
    expect(isHealthProbe("HEAD", "/api/health?x=1")).toBe(true);
    expect(isHealthProbe("POST", "/health")).toBe(false);
    expect(isHealthProbe("GET", "/healthz")).toBe(false);
    expect(isHealthProbe("GET", "/health/x")).toBe(false);
  });
});
