// The public surface of the metrics feature (issue 19 item 8): GET /metrics.
export { isMetricsScrape, metricsRouter } from "./metrics.index";
export { scrapeMetrics } from "./metrics.service";
