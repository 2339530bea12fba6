import { z } from "@hono/zod-openapi";
import { bearer, routes } from "../../http/route";

const route = routes("operator");

export const metricsRoute = route.get(
  "/metrics",
  "Prometheus metrics, text format 0.0.4 (admin token or OABP_METRICS_TOKEN)",
  {
    description:
      "Per process: oabp_http_requests_total and oabp_http_request_duration_seconds by route template, method and status class; oabp_rpc_errors_total; oabp_job_runs_total, oabp_job_last_success_timestamp_seconds. " +
      "From the database (global, the same on every instance): oabp_queue_depth{queue}, oabp_job_lag_seconds{job}, oabp_resolver_gas_spent_wei. 404 when OABP_METRICS_ENABLED=false.",
    ...bearer,
    responses: {
      200: {
        description: "Prometheus text exposition format 0.0.4",
        content: { "text/plain": { schema: z.string() } },
      },
    },
    errors: ["NOT_FOUND"],
  },
);
