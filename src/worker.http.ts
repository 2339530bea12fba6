import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Deps } from "./deps";
import { railStatus } from "./features/rail";
import { scrapeMetrics } from "./features/metrics";
import { PROM_CONTENT_TYPE } from "./lib/metrics";

// `npm run worker`'s own HTTP port (OABP_WORKER_PORT, docs/operations.md "Metrics"): GET /health
// (this process's last settlement round and the base rail's state) and GET /metrics (the same
// scrape as the API's: process metrics of THIS process plus the global database gauges), so the
// process that signs payouts is watched directly. With OABP_METRICS_TOKEN set, /metrics needs it
// as a bearer token; /health is open (no secrets in it). Nothing else is served.

export interface WorkerRound {
  lastRunAt: Date | null;
  lastOkAt: Date | null;
  lastError: string | null;
}

type Send = (status: number, body: string, type?: string) => void;

/** GET /health: 200 while the settlement round ran recently, else 503 `stalled`. */
function health(deps: Deps, round: WorkerRound, send: Send): void {
  const staleMs = Math.max(3 * deps.config.jobIntervalMs, 30_000);
  const now = deps.clock.now().getTime();
  const ticking = round.lastRunAt !== null && now - round.lastRunAt.getTime() <= staleMs;
  send(
    ticking ? 200 : 503,
    JSON.stringify({
      status: ticking ? "ok" : "stalled",
      signs: deps.chain?.canSign ?? false,
      last_run_at: round.lastRunAt?.toISOString() ?? null,
      last_ok_at: round.lastOkAt?.toISOString() ?? null,
      last_error: round.lastError,
      base_rail: railStatus(deps),
    }),
  );
}

/** GET /metrics: the scrape, behind OABP_METRICS_TOKEN when set. */
function metrics(deps: Deps, authorization: string | undefined, send: Send): void {
  const { config, logger } = deps;
  if (!config.metricsEnabled) return send(404, JSON.stringify({ error: "NOT_FOUND" }));
  if (config.metricsToken && authorization !== `Bearer ${config.metricsToken}`)
    return send(401, JSON.stringify({ error: "UNAUTHORIZED" }));
  scrapeMetrics({ deps, now: deps.clock.now(), caller: { kind: "job" } })
    .then((text) => send(200, text, PROM_CONTENT_TYPE))
    .catch((err: unknown) => {
      logger.error({ err }, "worker /metrics failed");
      send(500, JSON.stringify({ error: "INTERNAL_ERROR" }));
    });
}

export async function startWorkerHttp(deps: Deps, round: WorkerRound): Promise<Server | null> {
  const { config, logger } = deps;
  if (config.workerPort === 0) return null;
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const send: Send = (status, body, type = "application/json; charset=utf-8") => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    };
    if (req.method !== "GET") return send(405, JSON.stringify({ error: "METHOD_NOT_ALLOWED" }));
    if (path === "/health") return health(deps, round, send);
    if (path === "/metrics") return metrics(deps, req.headers.authorization, send);
    send(404, JSON.stringify({ error: "NOT_FOUND" }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.workerPort, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ port, host: config.host }, "settlement worker http listening");
  return server;
}
