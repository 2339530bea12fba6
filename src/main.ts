import path from "node:path";
import type { Server } from "node:net";
import type { Server as HttpServer } from "node:http";
import type { Lifecycle } from "./app";
import type { Config } from "./env";
import type { Deps } from "./deps";
import { openConfiguredDatabase } from "./db/client";
import { CLIENT_V6_PREFIX } from "./lib/client-network";
import { refuseForgottenContracts, checkedConfig, portInUse } from "./startup";

// Process entry: env → deps → serve → jobs; SIGTERM/SIGINT finish in-flight requests and the
// job rounds in progress (bounded by OABP_SHUTDOWN_TIMEOUT_MS), then close the db.
async function main() {
  const config = await checkedConfig({ listens: true });
  // The database opens (embedded: the wasm compiles, the data dir loads) while the rest of the
  // server loads: what is imported statically above is only config, start-up and the db client,
  // and the rest starts loading once the database's start is under way (docs/operations.md
  // "Start time").
  let underway!: () => void;
  const started = new Promise<void>((resolve) => (underway = resolve));
  const opening = openConfiguredDatabase(config, underway);
  const settled = opening.catch(() => undefined); // awaited in buildDeps; an error is reported there
  await Promise.race([started, settled]);
  const modules = loadServer();
  const { buildDeps } = await modules.deps;
  const { refreshRail } = await modules.rail;
  const deps = await buildDeps(config, opening);
  await refuseForgottenContracts(deps);
  const { logger } = deps;
  if (deps.chain && !deps.chain.canSign)
    logger.info(
      { resolver: deps.chain.resolver },
      "base rail: no resolver key in this process; payouts are sent by `npm run worker`",
    );
  await refreshRail(deps, true); // the rail's state before the first request (manifest, 503s)
  const lifecycle: Lifecycle = { shuttingDown: false };
  const app = (await modules.app).createApp(deps, lifecycle);
  // The web board's page script and signing chunk are bundled once at start-up (built,
  // never fetched; docs/web.md "Scripts"); a failure is logged and retried on the first page.
  (await modules.web)
    .clientBundle()
    .catch((err: unknown) => deps.logger.error({ err }, "web page script failed to build"));
  const jobs = (await modules.jobs).startJobRunner(deps, config.jobIntervalMs);
  const { serve } = await modules.node;
  const { answerHealthFirst } = await modules.health;
  const { capConnections } = await modules.connectionCap;
  const { closeEventStreams } = await modules.events;
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info(
      { port: info.port, host: config.host, database: deps.database.kind, public_url: config.publicUrl },
      "oabp server listening",
    );
    if (process.stdout.isTTY) process.stdout.write(banner(config, deps, info.port));
  });
  // /health before the app: no request body can delay it (src/http/health-first.ts).
  answerHealthFirst(server as HttpServer);
  // Connections per client network at accept (docs/abuse-edge.md "Connection cap").
  if (config.connectionsPerNetwork > 0 && !config.trustProxy)
    capConnections(server as Server, config.connectionsPerNetwork, CLIENT_V6_PREFIX);
  // Taken between the start-up probe and now: the same one line (startup.ts), no stack.
  server.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EADDRINUSE" && e.code !== "EACCES") throw e;
    console.error(portInUse(config, e.code));
    process.exit(1);
  });

  // Graceful shutdown: stop accepting at once, let in-flight requests and the job
  // rounds in progress finish (a stopping runner starts no new round and draining jobs end early),
  // all within OABP_SHUTDOWN_TIMEOUT_MS; then close the pools. A job round that finishes commits
  // and clears its own claims; one cut off by the timeout is rolled back with its connection and
  // its leases simply run out (every job resumes from committed state). Exit code 0 when
  // everything drained, 1 when the timeout cut something off.
  type Closable = { closeIdleConnections?: () => void; closeAllConnections?: () => void };
  const shutdown = async (signal: string) => {
    if (lifecycle.shuttingDown) return;
    lifecycle.shuttingDown = true;
    logger.info({ signal }, "shutting down: not accepting; finishing in-flight requests and job rounds");
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    (server as unknown as Closable).closeIdleConnections?.();
    closeEventStreams(deps); // open GET /events streams would hold the server until the timeout
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.all([closed, jobs.stop()]).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), config.shutdownTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (drained) logger.info("requests and job rounds drained");
    else {
      logger.warn(
        { timeout_ms: config.shutdownTimeoutMs },
        "shutdown timeout: closing remaining connections; unfinished job rounds roll back, their leases run out",
      );
      (server as unknown as Closable).closeAllConnections?.();
    }
    let code = drained ? 0 : 1;
    try {
      await deps.tracing?.shutdown(); // flushes the spans still batched
      await deps.database.close();
      logger.info("database closed; bye");
    } catch (err) {
      logger.error({ err }, "closing the database failed");
      code = 1;
    }
    process.exit(code);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

/**
 * Everything main() needs beyond config, start-up and the db client: every import starts at once,
 * while the db opens, and main() awaits each where it first needs it. A failed import is reported
 * by that await (main's catch), never as an unhandled rejection.
 */
function loadServer() {
  const modules = {
    node: import("@hono/node-server"),
    app: import("./app"),
    deps: import("./deps.build"),
    jobs: import("./jobs/runner"),
    web: import("./features/web"),
    events: import("./features/events"),
    rail: import("./features/rail"),
    connectionCap: import("./http/connection-cap"),
    health: import("./http/health-first"),
  };
  for (const loading of Object.values(modules)) loading.catch(() => undefined);
  return modules;
}

/** On a terminal: where the server is, where its data and operator token are, where the docs are. */
function banner(config: Config, deps: Deps, port: number): string {
  const url = config.port === 0 ? config.publicUrl.replace(/:\d+$/, `:${port}`) : config.publicUrl;
  const data =
    deps.database.kind === "pglite"
      ? `${path.resolve(config.dataDir)} (embedded database)`
      : `PostgreSQL (DATABASE_URL); files in ${path.resolve(config.dataDir)}`;
  const token = config.adminToken
    ? "OABP_ADMIN_TOKEN (from the environment)"
    : `${path.resolve(config.dataDir, "admin-token")} (generated; OABP_ADMIN_TOKEN overrides)`;
  return [
    "",
    `  OABP server: open ${url}`,
    `  data:        ${data}`,
    `  admin token: ${token}`,
    `  docs:        ${url}/docs (API), ${url}/skill.md (agents); README.md "First paid mission"`,
    `  client:      npm install -g ${url}/client.tgz   (the oabp command; npx oabp in this checkout)`,
    "",
    "",
  ].join("\n");
}

main().catch((e) => {
  console.error("fatal:", e instanceof Error ? e.message : e);
  process.exit(1);
});
