import { serve } from "@hono/node-server";
import { createApp, type Lifecycle } from "./app";
import { buildDeps } from "./deps.build";
import { checkedConfig } from "./startup";
import { startJobRunner } from "./jobs/runner";
import { walletBundle } from "./features/web";
import { closeEventStreams } from "./features/events";

// Process entry: env → deps → serve → jobs; SIGTERM/SIGINT finish in-flight requests and the
// job tick in progress, then close the db.
async function main() {
  const config = await checkedConfig();
  const deps = await buildDeps(config);
  const { logger } = deps;
  if (deps.chain && !deps.chain.canSign)
    logger.info(
      { resolver: deps.chain.resolver },
      "base rail: no resolver key in this process; payouts are sent by `npm run worker`",
    );
  const lifecycle: Lifecycle = { shuttingDown: false };
  const app = createApp(deps, lifecycle);
  // The web board's wallet script is bundled once at start-up (issue 17: built, never fetched);
  // a failure is logged and retried on the first request for it.
  walletBundle().catch((err: unknown) => deps.logger.error({ err }, "web wallet bundle failed to build"));
  const jobs = startJobRunner(deps, config.jobIntervalMs);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info(
      { port: info.port, host: config.host, database: deps.database.kind, public_url: config.publicUrl },
      "oabp server listening",
    );
  });

  const shutdown = (signal: string) => {
    if (lifecycle.shuttingDown) return;
    lifecycle.shuttingDown = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    const force = setTimeout(() => {
      logger.warn("shutdown timeout: closing remaining connections");
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    }, config.shutdownTimeoutMs);
    force.unref();
    (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
    closeEventStreams(deps); // open GET /events streams would hold the server until the timeout
    server.close(async () => {
      try {
        await jobs.stop();
        await deps.database.close();
        logger.info("database closed; bye");
      } finally {
        process.exit(0);
      }
    });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((e) => {
  console.error("fatal:", e instanceof Error ? e.message : e);
  process.exit(1);
});
