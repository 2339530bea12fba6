import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { LATENCY_BUCKETS, MAX_SERIES, ProcessMetrics, PromText } from "../../src/lib/metrics";

// src/lib/metrics.ts: the text it writes parses, label values are escaped, series are capped.

describe("process metrics (Prometheus text 0.0.4)", () => {
  it("escapes label values and help text so a parser reads them back", () => {
    const out = new PromText();
    out.family("x_total", "counter", "help with \\ and\nnewline");
    out.sample("x_total", { route: 'a"b\\c\nd' }, 3);
    out.family("big", "gauge", "a uint256");
    out.sample("big", {}, 2n ** 200n);
    const [x, big] = parsePrometheusTextFormat(out.toString());
    expect(x).toMatchObject({ name: "x_total", type: "COUNTER", help: "help with \\ and\nnewline" });
    expect(x!.metrics[0]).toEqual({ labels: { route: 'a"b\\c\nd' }, value: "3" });
    expect(big!.metrics[0]!.value).toBe((2n ** 200n).toString());
  });

  it("keeps cumulative histogram buckets and caps the number of route series", () => {
    const m = new ProcessMetrics();
    m.observeRequest("/a/:id", "GET", 200, 0.003);
    m.observeRequest("/a/:id", "GET", 204, 0.2);
    m.observeRequest("/a/:id", "GET", 503, 60);
    m.observeRequest("/a/:id", "BREW", 418, 0.01);
    for (let i = 0; i < MAX_SERIES + 10; i++) m.observeRequest(`/r${i}`, "GET", 200, 0.001);
    expect(m.requests.size).toBeLessThanOrEqual(MAX_SERIES + 1);
    const out = new PromText();
    m.render(out);
    const text = out.toString();
    const fams = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
    const counts = fams.get("oabp_http_requests_total")!.metrics;
    expect(counts.find((s) => s.labels?.route === "/a/:id" && s.labels.status === "2xx")?.value).toBe("2");
    expect(counts.find((s) => s.labels?.route === "/a/:id" && s.labels.status === "5xx")?.value).toBe("1");
    expect(counts.find((s) => s.labels?.method === "OTHER")?.labels?.status).toBe("4xx");
    expect(Number(counts.find((s) => s.labels?.route === "other")?.value)).toBeGreaterThanOrEqual(10);
    const line = (le: string) =>
      Number(
        new RegExp(
          `^oabp_http_request_duration_seconds_bucket\\{route="/a/:id",method="GET",status="2xx",le="${le.replace("+", "\\+")}"\\} (\\d+)$`,
          "m",
        ).exec(text)?.[1],
      );
    expect(line("0.005")).toBe(1);
    expect(line("0.25")).toBe(2);
    expect(line("+Inf")).toBe(2);
    expect(LATENCY_BUCKETS.map((b) => line(String(b)))).toEqual(
      [...LATENCY_BUCKETS.map((b) => line(String(b)))].sort((a, b) => a - b),
    );
  });
});
