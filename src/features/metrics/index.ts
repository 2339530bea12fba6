// The public surface of the metrics feature: GET /metrics.
export { isMetricsScrape, metricsRouter } from "./metrics.index";
export { scrapeMetrics } from "./metrics.service";
