import { timingSafeEqual } from "node:crypto";
import { ctxFromRequest } from "../../http/context";
import { requireAdmin } from "../../http/identity";
import { router } from "../../http/openapi";
import type { Config } from "../../env";
import { AppError } from "../../lib/errors";
import { PROM_CONTENT_TYPE } from "../../lib/metrics";
import { metricsRoute } from "./metrics.routes";
import { scrapeMetrics } from "./metrics.service";

const METRICS_PATHS = new Set(["/metrics", "/api/metrics"]);

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * True when this request is a scrape of /metrics with OABP_METRICS_TOKEN: app.ts then skips the
 * identity middleware for it (that token is nobody's session and would read as an invalid bearer).
 * It grants /metrics and nothing else.
 */
export function isMetricsScrape(
  config: Config,
  { path, authorization }: { path: string; authorization: string | undefined },
): boolean {
  if (!config.metricsToken || !METRICS_PATHS.has(path)) return false;
  const m = /^Bearer (.+)$/i.exec(authorization ?? "");
  return !!m && sameToken(m[1]!, config.metricsToken);
}

export const metricsRouter = router().openapi(metricsRoute, async (c) => {
  const deps = c.get("deps");
  if (!deps.config.metricsEnabled) throw new AppError("NOT_FOUND", "metrics are disabled (OABP_METRICS_ENABLED=false)");
  if (!isMetricsScrape(deps.config, { path: c.req.path, authorization: c.req.header("authorization") }))
    requireAdmin(c.get("identity"));
  const text = await scrapeMetrics(ctxFromRequest(c));
  c.header("Cache-Control", "no-store");
  return c.text(text, 200, { "Content-Type": PROM_CONTENT_TYPE });
});
