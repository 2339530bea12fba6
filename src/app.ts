import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { Deps } from "./deps";
import { openCors } from "./http/cors";
import { handleError, sendError } from "./http/errors";
import { identity, jsonOnly, requestContext } from "./http/middleware";
import { INFLIGHT_BYTES_PER_CALLER, inflightBytes } from "./http/inflight";
import { requestMetrics } from "./http/request-metrics";
import { READ_REFUSAL_DELAY_MS, readLimits, readsInFlight, refusalDelay } from "./http/read-limits";
import { rateLimits } from "./http/rate-limit";
import type { AppEnv } from "./http/types";
import { buildApi, openApiDocument } from "./openapi";
import { registerWellKnown } from "./features/wellknown";
import { registerSpecs } from "./features/specs";
import { MCP_OWN_PATHS, registerMcp } from "./features/mcp";
import { a2aEdgeError, registerA2a } from "./features/a2a";
import { A2A_PATH } from "./lib/a2a-contract";
import { oadpHtmlSignal } from "./features/oadp";
import { callerCaching } from "./http/http-cache";
import { readSessionCookie } from "./http/session-cookie";
import { COMPRESSED_CACHE_BYTES, CompressedCache, compression } from "./http/compression";
import { cookieSeal, readAfter } from "./http/read-after";
import { traceRequests } from "./http/tracing";
import { registerWeb } from "./features/web";
import { resolveIdentity } from "./features/auth";
import { markSeen } from "./features/heartbeats";
import { isMetricsScrape } from "./features/metrics";
import { railStatus } from "./features/rail";
import { feesInRequest } from "./features/payments";

export interface Lifecycle {
  shuttingDown: boolean;
}

/** The canonical entry points, listed by the JSON 404 (docs/design.md wire conventions). */
const ENTRY_POINTS = {
  missions: "/missions",
  mission: "/missions/{id}",
  submissions: "/missions/{id}/submissions",
  agents: "/agents/{id}",
  balance: "/agents/{id}/balance",
  badge: "/agents/{id}/badge.svg",
  leaderboard: "/leaderboard",
  auth: ["/auth/nonce", "/auth/siwe", "/attestations/registry"],
  openapi: "/openapi.json",
  mcp: "/mcp",
  a2a: A2A_PATH,
  health: "/health",
  api_prefix: "/api",
};

type App = OpenAPIHono<AppEnv>;

/** Paths that answer their own JSON-RPC bodies (MCP, A2A): no REST body gate, no read-after token. */
const OWN_BODY_PATHS: ReadonlySet<string> = new Set([...MCP_OWN_PATHS, A2A_PATH]);

/** createApp has no side effects: everything it touches comes in through deps. */
export function createApp(deps: Deps, lifecycle: Lifecycle = { shuttingDown: false }) {
  const app = new OpenAPIHono<AppEnv>();
  const inflight = inflightBytes({
    perCaller: INFLIGHT_BYTES_PER_CALLER,
    total: deps.config.abuse.inflightBytesTotal,
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
  });
  useEdge(app, deps, inflight.total);
  useCaller(app, deps, inflight.perCaller);
  useBodies(app, deps);
  // A mission's reward and spam fee paid by x402 in the create request (docs/payments.md).
  for (const path of ["/missions", "/api/missions"]) app.use(path, feesInRequest());
  registerProbes(app, deps, lifecycle);
  const api = buildApi();
  registerOpenApi(app, deps, api);
  registerWellKnown(app, deps);
  registerMcp(app, deps);
  registerA2a(app, deps);
  registerWeb(app, deps);
  registerSpecs(app, { deps, openapi: () => openApiDocument(api, deps.config.publicUrl) });
  app.route("/", api);
  app.route("/api", api);

  app.notFound((c) =>
    sendError(c, "NOT_FOUND", `no route for ${c.req.method} ${c.req.path}`, { entry_points: ENTRY_POINTS }),
  );
  // The A2A binding answers in its own JSON-RPC shape, also for refusals before its handler.
  app.onError((err, c) => (c.req.path === A2A_PATH ? a2aEdgeError(err, c) : handleError(err, c)));
  return app;
}

/** Before anyone is known: metrics, request context, compression, tracing, CORS, the process's bytes in flight. */
function useEdge(app: App, deps: Deps, inflightTotal: MiddlewareHandler<AppEnv>) {
  if (deps.config.metricsEnabled) app.use("*", requestMetrics());
  app.use("*", requestContext(deps));
  // Compression (docs/web.md "Delivery"): outside everything else, so errors and pages are covered.
  app.use("*", compression(new CompressedCache(COMPRESSED_CACHE_BYTES)));
  // OpenTelemetry: only when OTEL_TRACES_EXPORTER turned it on; nothing otherwise.
  if (deps.tracing) app.use("*", traceRequests(deps.tracing));
  app.use("*", openCors());
  // Caching by who may see it (src/http/http-cache.ts): any credential makes the answer private;
  // here, so early refusals (429, 401) carry it too.
  app.use(
    "*",
    callerCaching((c) => readSessionCookie(c, deps.config.publicUrl) !== undefined),
  );
  app.use("*", oadpHtmlSignal(deps.config));
  // Request bytes in flight (docs/abuse.md): the process total on headers alone, before anything
  // costs a query; the caller's share after identity; the body is read only after both.
  app.use("*", inflightTotal);
  // Read-your-writes tokens and replica routing; MCP messages are not REST writes.
  app.use(
    "*",
    readAfter(deps.database, (path) => OWN_BODY_PATHS.has(path), cookieSeal(deps.receiptKeys.active.privateKey)),
  );
}

/** Who calls, and what that caller may still do: reads in flight, identity, read and write limits, bytes in flight. */
function useCaller(app: App, deps: Deps, inflightPerCaller: MiddlewareHandler<AppEnv>) {
  // Reads in flight per credential, before identity costs a query (docs/abuse-edge.md "Read limits").
  const readRefusals = refusalDelay(READ_REFUSAL_DELAY_MS);
  if (deps.config.rateLimits)
    app.use(
      "*",
      readsInFlight({
        perCaller: deps.config.readInflightPerCaller,
        runningPerCaller: deps.config.readRunningPerCaller,
        delay: readRefusals,
      }),
    );
  const resolveCaller = identity({ resolveIdentity, markSeen });
  // A scrape with OABP_METRICS_TOKEN is no session: it skips identity and may read /metrics only.
  app.use("*", (c, next) => {
    if (!isMetricsScrape(deps.config, { path: c.req.path, authorization: c.req.header("authorization") }))
      return resolveCaller(c, next);
    c.set("identity", { kind: "anonymous", reason: "none" });
    return next();
  });
  // Reads per caller, in this process (docs/abuse-edge.md "Read limits"); off with the write buckets.
  if (deps.config.rateLimits)
    app.use(
      "*",
      readLimits({
        policy: deps.config.readLimit,
        now: () => deps.clock.now().getTime(),
        delay: readRefusals,
      }),
    );
  // Shared token buckets on every write (docs/abuse-edge.md); MCP applies its own per message.
  app.use(
    "*",
    rateLimits((path) => MCP_OWN_PATHS.has(path)),
  );
  app.use("*", inflightPerCaller);
}

/**
 * The body, read at last. (A mission write drops this instance's cached lists itself: its
 * operation says so, src/http/operation.ts `lists`.)
 */
function useBodies(app: App, deps: Deps) {
  // Only now is a body read (415 / 413 / lone surrogates, src/http/middleware.ts). The MCP paths
  // answer a wrong content type with their own JSON-RPC bodies (AIP-1 §7.2, §7.2.1).
  const jsonBodies = jsonOnly(deps.config.bodyLimitBytes);
  app.use("*", (c, next) => (OWN_BODY_PATHS.has(c.req.path) ? next() : jsonBodies(c, next)));
}

/** /health (the process answers) and /ready (it can serve: not draining, the database answers). */
function registerProbes(app: App, deps: Deps, lifecycle: Lifecycle) {
  const health = (c: Context<AppEnv>) => c.json({ status: "ok" });
  const ready = async (c: Context<AppEnv>) => {
    if (lifecycle.shuttingDown) return sendError(c, "SERVICE_UNAVAILABLE", "shutting down");
    try {
      await deps.database.ping();
    } catch {
      return sendError(c, "SERVICE_UNAVAILABLE", "database unreachable");
    }
    // Ready even with the base rail down (docs/base-rail.md "Degrade, never exit"): it says why.
    const rail = railStatus(deps);
    return c.json({ status: "ready", database: deps.database.kind, ...(rail ? { base_rail: rail } : {}) });
  };
  for (const prefix of ["", "/api"]) {
    app.get(`${prefix}/health`, health);
    app.get(`${prefix}/ready`, ready);
  }
}

/** AIP-1 §8: /openapi.json MUST be served; /api/v1/openapi.json MUST redirect to it. */
function registerOpenApi(app: App, deps: Deps, api: ReturnType<typeof buildApi>) {
  let doc: string | undefined;
  const serveDoc = (c: Context<AppEnv>) => {
    doc ??= JSON.stringify(openApiDocument(api, deps.config.publicUrl));
    c.header("Content-Type", "application/json; charset=utf-8");
    return c.body(doc);
  };
  app.get("/openapi.json", serveDoc);
  app.get("/api/openapi.json", serveDoc);
  app.get("/api/v1/openapi.json", (c) => c.redirect("/openapi.json", 301));
}
