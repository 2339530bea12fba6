import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { freshPostgresDatabase, startServer } from "../helpers/process";

interface OtlpSpan {
  name: string;
  traceId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

// OpenTelemetry traces configured by the standard OTEL_* variables. The real server
// process exports over OTLP/HTTP to a real HTTP receiver started here (the collector's part):
// a span per request (route template, status, the caller's traceparent as parent) and per job run.
describe("OpenTelemetry traces over OTLP/HTTP", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it("a real process posts request and job spans to OTEL_EXPORTER_OTLP_ENDPOINT", { timeout: 180_000 }, async () => {
    const posts: { path: string; type: string; service: string[]; spans: OtlpSpan[] }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const spans: OtlpSpan[] = [];
        const service: string[] = [];
        for (const rs of body.resourceSpans ?? []) {
          for (const a of rs.resource?.attributes ?? [])
            if (a.key === "service.name") service.push(a.value.stringValue);
          for (const ss of rs.scopeSpans ?? []) spans.push(...ss.spans);
        }
        posts.push({ path: req.url ?? "", type: req.headers["content-type"] ?? "", service, spans });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
    cleanups.push(() => new Promise((r) => receiver.close(r)));
    const dir = mkdtempSync(path.join(tmpdir(), "oabp-otel-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const env: Record<string, string> = {
      OABP_DATA_DIR: dir,
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
      OTEL_SERVICE_NAME: "oabp-otel-test",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OABP_JOB_INTERVAL_MS: "200",
    };
    if (onRealPostgres) {
      const db = await freshPostgresDatabase("oabp_otel");
      cleanups.push(() => db.drop());
      env.DATABASE_URL = db.url;
    }
    const srv = await startServer(env);
    cleanups.push(async () => {
      if (srv.child.exitCode === null) srv.child.kill("SIGTERM");
      await srv.exited;
    });
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parent = "00f067aa0ba902b7";
    const missing = await fetch(`${srv.base}/missions/mis_01JABCDEFGHJKMNPQRSTVWXYZ0`, {
      headers: { traceparent: `00-${traceId}-${parent}-01` },
    });
    expect(missing.status).toBe(404);
    expect((await fetch(`${srv.base}/missions?limit=1`)).status).toBe(200);

    const all = () => posts.flatMap((p) => p.spans);
    for (let i = 0; i < 200; i++) {
      const names = new Set(all().map((s) => s.name));
      if (names.has("GET /missions/:id") && names.has("GET /missions") && names.has("job sweep_due_missions")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(posts[0]!.path).toBe("/v1/traces");
    expect(posts[0]!.type).toMatch(/^application\/json/);
    expect(posts.flatMap((p) => p.service)).toContain("oabp-otel-test");
    const byId = all().find((s) => s.name === "GET /missions/:id");
    expect(byId, JSON.stringify(all().map((s) => s.name))).toBeDefined();
    const attr = (s: OtlpSpan, k: string) => s.attributes.find((a) => a.key === k)?.value;
    expect(attr(byId!, "http.route")).toEqual({ stringValue: "/missions/:id" });
    expect(Number(Object.values(attr(byId!, "http.response.status_code")!)[0])).toBe(404);
    // The caller's W3C traceparent is the span's parent.
    expect(byId!.traceId.toLowerCase()).toBe(traceId);
    expect(byId!.parentSpanId?.toLowerCase()).toBe(parent);
    expect(all().some((s) => s.name === "GET /missions")).toBe(true);
    expect(all().some((s) => s.name === "job sweep_due_missions")).toBe(true);
    // SIGTERM flushes what is still batched and exits cleanly.
    srv.child.kill("SIGTERM");
    expect(await srv.exited).toBe(0);
  });
});
