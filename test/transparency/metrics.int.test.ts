import { eq } from "drizzle-orm";
import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { submissions } from "../../src/db/schema/index";
import { startJobRunner } from "../../src/jobs/runner";
import { ADMIN_TOKEN, makeTestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";
import { acceptedSubmission } from "../helpers/mission-flow";

// 4: GET /metrics is scraped and parsed by a Prometheus text-format
// parser from npm (parse-prometheus-text-format); who may scrape; what it counts.

const METRICS_TOKEN = "metrics-scraper-token-0123456789";

const t = useTestApp({ OABP_METRICS_TOKEN: METRICS_TOKEN });

async function scrape(): Promise<{ text: string; families: Map<string, ParsedFamily> }> {
  const r = await t.call("GET", "/metrics", { token: METRICS_TOKEN });
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const parsed = parsePrometheusTextFormat(r.text); // throws on a malformed line
  return { text: r.text, families: new Map(parsed.map((f) => [f.name, f])) };
}

const sample = (f: ParsedFamily | undefined, labels: Record<string, string>) =>
  f?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

describe("GET /metrics: who may scrape", () => {
  it("the admin token and OABP_METRICS_TOKEN may; anonymous 401, an agent 403, a wrong token 401", async () => {
    expect((await t.call("GET", "/metrics", { token: ADMIN_TOKEN })).status).toBe(200);
    expect((await t.call("GET", "/metrics", { token: METRICS_TOKEN })).status).toBe(200);
    expect((await t.call("GET", "/api/metrics", { token: METRICS_TOKEN })).status).toBe(200);
    const anon = await t.call("GET", "/metrics");
    expect(anon.status).toBe(401);
    expect(anon.body.error).toBe("UNAUTHORIZED");
    const agent = await signIn(t);
    const asAgent = await t.call("GET", "/metrics", { token: agent.token });
    expect(asAgent.status).toBe(403);
    expect(asAgent.body.error).toBe("FORBIDDEN");
    const wrong = await t.call("GET", "/metrics", { token: "metrics-scraper-token-0123456780" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("UNAUTHORIZED");
    // The metrics token opens /metrics only: elsewhere it is an invalid bearer.
    const elsewhere = await t.call("GET", "/admin/payouts", { token: METRICS_TOKEN });
    expect(elsewhere.status).toBe(401);
  });

  it("OABP_METRICS_ENABLED=false: 404 for every caller", async () => {
    const off = await makeTestApp({ OABP_METRICS_ENABLED: "false", OABP_METRICS_TOKEN: METRICS_TOKEN });
    try {
      for (const token of [ADMIN_TOKEN, METRICS_TOKEN]) {
        const r = await off.call("GET", "/metrics", { token });
        expect(r.status).toBe(404);
        expect(r.body.error).toBe("NOT_FOUND");
      }
    } finally {
      await off.close();
    }
  });
});

describe("GET /metrics: contents, parsed", () => {
  it("counts requests by route template, method and status class, with a latency histogram", async () => {
    const { mission } = await openMission(t);
    for (let i = 0; i < 3; i++) expect((await t.call("GET", `/missions/${mission.id}`)).status).toBe(200);
    expect((await t.call("GET", "/missions/mis_01J0000000000000000000NONE")).status).toBe(404);
    expect((await t.call("GET", "/no/such/path/at/all")).status).toBe(404);
    const { text, families } = await scrape();

    const requests = families.get("oabp_http_requests_total");
    expect(requests?.type).toBe("COUNTER");
    const atLeast: [route: string, method: string, status: string, count: number][] = [
      ["/missions/:id", "GET", "2xx", 3],
      ["/missions/:id", "GET", "4xx", 1],
      ["unmatched", "GET", "4xx", 1],
      ["/missions", "POST", "2xx", 1],
    ];
    for (const [route, method, status, count] of atLeast) {
      expect(
        Number(sample(requests, { route, method, status })?.value),
        `${method} ${route} ${status}`,
      ).toBeGreaterThanOrEqual(count);
    }
    // Bounded labels: templates only, never a raw id or path.
    expect(text).not.toContain(mission.id);
    expect(text).not.toContain("/no/such/path");
    for (const m of requests!.metrics) expect(m.labels?.route).not.toMatch(/mis_|0x[0-9a-f]{40}/);

    const latency = families.get("oabp_http_request_duration_seconds");
    expect(latency?.type).toBe("HISTOGRAM");
    // parse-prometheus-text-format folds a labelled histogram's series into one bucket map, so each
    // series' shape is checked on its lines: cumulative buckets, +Inf = _count.
    const labels = 'route="/missions/:id",method="GET",status="2xx"';
    const buckets = [
      ...text.matchAll(
        new RegExp(
          `^oabp_http_request_duration_seconds_bucket\\{${labels.replace(/[/]/g, "\\/")},le="([^"]+)"\\} (\\d+)$`,
          "gm",
        ),
      ),
    ].map((m) => [m[1], Number(m[2])] as const);
    expect(buckets.length).toBe(12);
    expect(buckets.at(-1)![0]).toBe("+Inf");
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]![1]).toBeGreaterThanOrEqual(buckets[i - 1]![1]);
    const count = Number(
      new RegExp(`^oabp_http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, "m").exec(text)?.[1],
    );
    expect(count).toBe(buckets.at(-1)![1]);
    expect(count).toBe(Number(sample(requests, { route: "/missions/:id", method: "GET", status: "2xx" })?.value));
  });

  it("records job rounds, queue depths and job lag from the database, and RPC errors", async () => {
    await startJobRunner(t.deps, 0).tick();
    const before = await scrape();
    const runs = before.families.get("oabp_job_runs_total");
    expect(Number(sample(runs, { job: "sweep_due_missions", result: "ok" })?.value)).toBeGreaterThanOrEqual(1);
    expect(Number(sample(runs, { job: "webhook_deliveries", result: "ok" })?.value)).toBeGreaterThanOrEqual(1);
    expect(
      sample(before.families.get("oabp_job_last_success_timestamp_seconds"), { job: "sweep_due_missions" })?.value,
    ).toBe(String(t.clock.now().getTime() / 1000));
    const depth = (s: typeof before, queue: string) =>
      Number(sample(s.families.get("oabp_queue_depth"), { queue })?.value);
    for (const q of ["checks", "webhook_deliveries", "payouts", "deposits"]) expect(depth(before, q)).toBe(0);
    const lag = (s: typeof before, job: string) =>
      Number(sample(s.families.get("oabp_job_lag_seconds"), { job })?.value);
    expect(lag(before, "verification_checks")).toBe(0);

    // A check overdue by 90 s: one in the checks queue, the checks job 90 s behind.
    const { creator, mission } = await openMission(t);
    const solver = await signIn(t);
    const sub = await acceptedSubmission(t, mission.id, solver, "x");
    expect(creator.address).not.toBe(solver.address);
    await t.deps.database.db
      .update(submissions)
      .set({ nextCheckAt: new Date(t.clock.now().getTime() - 90_000) })
      .where(eq(submissions.id, sub.body.id));
    const after = await scrape();
    expect(depth(after, "checks")).toBe(1);
    expect(lag(after, "verification_checks")).toBe(90);
    // No base rail here: no RPC errors, no gas.
    expect(sample(after.families.get("oabp_rpc_errors_total"), { client: "base_chain" })).toBeDefined();
    expect(after.families.get("oabp_resolver_gas_spent_wei")?.metrics ?? []).toEqual([]);
  });

  it("counts an RPC the chain client cannot reach; /transparency says the RPC is unavailable", async () => {
    const down = await makeTestApp({
      OABP_RPC_URL: "http://127.0.0.1:9/",
      OABP_ESCROW_ADDRESS: "0x" + "11".repeat(20),
      OABP_RESOLVER_KEY: "0x" + "22".repeat(32),
      OABP_METRICS_TOKEN: METRICS_TOKEN,
    });
    try {
      const errorsOf = async () => {
        const r = await down.call("GET", "/metrics", { token: METRICS_TOKEN });
        const f = parsePrometheusTextFormat(r.text).find((x) => x.name === "oabp_rpc_errors_total");
        return Number(sample(f, { client: "base_chain" })?.value);
      };
      const n0 = await errorsOf();
      const tr = await down.call("GET", "/transparency");
      expect(tr.status, tr.text).toBe(200);
      expect(tr.body.base).toMatchObject({ enabled: true, rpc: "unavailable", block_number: null });
      expect(tr.body.base.assets.every((a: { reconciled: unknown }) => a.reconciled === null)).toBe(true);
      expect(await errorsOf()).toBeGreaterThan(n0);
    } finally {
      await down.close();
    }
  });
});
