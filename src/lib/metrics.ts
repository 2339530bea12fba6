// Per-process metrics for GET /metrics, rendered in the Prometheus text
// exposition format 0.0.4. Like prom-client's default registry this is process state: request
// counts, latencies, RPC errors and job runs describe THIS process (a fleet is scraped per
// instance and summed by Prometheus). Gauges read from the database at scrape time are global and
// are rendered by the metrics feature, not kept here.
//
// Label cardinality is bounded by construction: routes are templates (never raw paths, capped at
// MAX_SERIES distinct keys with an "other" overflow), methods are a closed set, statuses are
// classes (2xx…5xx), job names come from the code's job list.

/** Request latency buckets, seconds (Prometheus' defaults trimmed to an API server's range). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** Distinct label sets per family; past it new ones count under route="other". */
export const MAX_SERIES = 2000;

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

interface RequestSeries {
  route: string;
  method: string;
  status: string;
  count: number;
  sum: number;
  buckets: number[]; // non-cumulative counts per LATENCY_BUCKETS index, + one for +Inf
}

interface JobSeries {
  ok: number;
  failed: number;
  lastStart: number; // epoch ms
  lastEnd: number;
  lastOk: number;
  lastDurationMs: number;
}

export class ProcessMetrics {
  readonly requests = new Map<string, RequestSeries>();
  readonly rpcErrors = new Map<string, number>();
  readonly jobs = new Map<string, JobSeries>();
  /** Request body bytes admitted and not yet answered (src/http/inflight.ts), and their peak. */
  bodyBytesInFlight = 0;
  bodyBytesInFlightPeak = 0;
  readonly bodyBytesRefusals = { total: 0, caller: 0 };

  /** `bytes` admitted (positive) or released (negative) by the in-flight gate. */
  requestBytesAdmitted(bytes: number): void {
    this.bodyBytesInFlight += bytes;
    if (this.bodyBytesInFlight > this.bodyBytesInFlightPeak) this.bodyBytesInFlightPeak = this.bodyBytesInFlight;
  }

  requestBytesRefused(cap: "total" | "caller"): void {
    this.bodyBytesRefusals[cap]++;
  }

  observeRequest(route: string, method: string, status: number, seconds: number): void {
    const m = METHODS.has(method) ? method : "OTHER";
    const cls = status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other";
    let key = `${route}\u0000${m}\u0000${cls}`;
    let s = this.requests.get(key);
    if (!s) {
      if (this.requests.size >= MAX_SERIES) {
        route = "other";
        key = `${route}\u0000${m}\u0000${cls}`;
        s = this.requests.get(key);
      }
      if (!s) {
        s = { route, method: m, status: cls, count: 0, sum: 0, buckets: new Array(LATENCY_BUCKETS.length + 1).fill(0) };
        this.requests.set(key, s);
      }
    }
    s.count++;
    s.sum += seconds;
    const i = LATENCY_BUCKETS.findIndex((b) => seconds <= b);
    s.buckets[i === -1 ? LATENCY_BUCKETS.length : i]!++;
  }

  /** A failed call of a chain client (`client`: base_chain, evm). */
  rpcError(client: string): void {
    this.rpcErrors.set(client, (this.rpcErrors.get(client) ?? 0) + 1);
  }

  jobStarted(name: string, atMs: number): void {
    this.job(name).lastStart = atMs;
  }

  jobEnded(name: string, atMs: number, ok: boolean): void {
    const j = this.job(name);
    j.lastEnd = atMs;
    j.lastDurationMs = Math.max(0, atMs - j.lastStart);
    if (ok) {
      j.ok++;
      j.lastOk = atMs;
    } else j.failed++;
  }

  private job(name: string): JobSeries {
    let j = this.jobs.get(name);
    if (!j) {
      j = { ok: 0, failed: 0, lastStart: 0, lastEnd: 0, lastOk: 0, lastDurationMs: 0 };
      this.jobs.set(name, j);
    }
    return j;
  }

  /** This process's families in the text format. */
  render(out: PromText): void {
    out.family("oabp_http_requests_total", "counter", "HTTP requests by route template, method and status class");
    for (const s of this.requests.values())
      out.sample("oabp_http_requests_total", { route: s.route, method: s.method, status: s.status }, s.count);
    out.family(
      "oabp_http_request_duration_seconds",
      "histogram",
      "HTTP request latency by route template, method and status class",
    );
    for (const s of this.requests.values()) {
      const labels = { route: s.route, method: s.method, status: s.status };
      let cum = 0;
      for (const [i, le] of LATENCY_BUCKETS.entries()) {
        cum += s.buckets[i]!;
        out.sample("oabp_http_request_duration_seconds_bucket", { ...labels, le: String(le) }, cum);
      }
      out.sample("oabp_http_request_duration_seconds_bucket", { ...labels, le: "+Inf" }, s.count);
      out.sample("oabp_http_request_duration_seconds_sum", labels, s.sum);
      out.sample("oabp_http_request_duration_seconds_count", labels, s.count);
    }
    out.family("oabp_rpc_errors_total", "counter", "Failed chain RPC calls (transport errors, node errors on reads)");
    for (const client of ["base_chain", "evm"])
      out.sample("oabp_rpc_errors_total", { client }, this.rpcErrors.get(client) ?? 0);
    out.family(
      "oabp_request_bytes_in_flight",
      "gauge",
      "Request body bytes admitted and not yet answered in this process",
    );
    out.sample("oabp_request_bytes_in_flight", {}, this.bodyBytesInFlight);
    out.family(
      "oabp_request_bytes_in_flight_peak",
      "gauge",
      "Highest oabp_request_bytes_in_flight since this process started",
    );
    out.sample("oabp_request_bytes_in_flight_peak", {}, this.bodyBytesInFlightPeak);
    out.family("oabp_request_bytes_refused_total", "counter", "Requests refused by the in-flight byte caps, by cap");
    for (const cap of ["total", "caller"] as const)
      out.sample("oabp_request_bytes_refused_total", { cap }, this.bodyBytesRefusals[cap]);
    out.family("oabp_job_runs_total", "counter", "Background job rounds run by this process, by result");
    for (const [job, j] of this.jobs) {
      out.sample("oabp_job_runs_total", { job, result: "ok" }, j.ok);
      out.sample("oabp_job_runs_total", { job, result: "failed" }, j.failed);
    }
    out.family("oabp_job_last_success_timestamp_seconds", "gauge", "Last successful round of each job in this process");
    for (const [job, j] of this.jobs) out.sample("oabp_job_last_success_timestamp_seconds", { job }, j.lastOk / 1000);
    out.family("oabp_job_last_duration_seconds", "gauge", "Duration of the last round of each job in this process");
    for (const [job, j] of this.jobs) out.sample("oabp_job_last_duration_seconds", { job }, j.lastDurationMs / 1000);
  }
}

/** The process's metrics (one per process, like prom-client's default registry). */
export const processMetrics = new ProcessMetrics();

/** Writes the Prometheus text exposition format 0.0.4. */
export class PromText {
  private readonly lines: string[] = [];

  family(name: string, type: "counter" | "gauge" | "histogram", help: string): void {
    this.lines.push(`# HELP ${name} ${help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`, `# TYPE ${name} ${type}`);
  }

  sample(name: string, labels: Record<string, string>, value: number | bigint): void {
    const ls = Object.entries(labels)
      .map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')}"`)
      .join(",");
    this.lines.push(`${name}${ls ? `{${ls}}` : ""} ${formatValue(value)}`);
  }

  toString(): string {
    return this.lines.join("\n") + "\n";
  }
}

function formatValue(v: number | bigint): string {
  if (typeof v === "bigint") return v.toString();
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

export const PROM_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
