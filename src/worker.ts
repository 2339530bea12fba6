import { buildDeps } from "./deps.build";
import { refuseForgottenContracts, checkedConfig } from "./startup";
import { refreshRail } from "./features/rail";
import { watchEscrow } from "./features/deposits";
import { runPayouts } from "./features/payouts";
import { runWithdrawals } from "./features/withdrawals";
import { runErc8004 } from "./features/erc8004";
import { startWorkerHttp, type WorkerRound } from "./worker.http";

// `npm run worker`: the base rail's settlement process (docs/base-rail.md "Trust model"). It holds
// the resolver key (OABP_RESOLVER_KEY / _FILE) and runs the escrow watcher and the settlement
// worker only — no HTTP — so the public API process can run with OABP_RESOLVER_ADDRESS and no key.
// Several workers may run against one database: every step is a conditional, locked transition.
async function main() {
  const config = await checkedConfig();
  if (!config.baseRail?.resolverKey && !config.baseRail?.signerUrl) {
    console.error(
      `settlement worker: the base rail needs OABP_RPC_URL, OABP_ESCROW_ADDRESS and the resolver key (OABP_RESOLVER_KEY or OABP_RESOLVER_KEY_FILE, or OABP_RESOLVER_SIGNER_URL with OABP_RESOLVER_ADDRESS)${config.baseRailOff ? ` — off: ${config.baseRailOff}` : ""}`,
    );
    process.exit(1);
  }
  const deps = await buildDeps(config);
  await refuseForgottenContracts(deps);
  const { logger } = deps;
  const chain = deps.chain!;
  logger.info(
    {
      chain_id: chain.chainId,
      escrow: chain.escrow,
      retired: chain.contracts.filter((c) => !c.current).map((c) => c.address),
      resolver: chain.resolver,
    },
    "settlement worker running",
  );
  // Own /health and /metrics (OABP_WORKER_PORT): the signing process is watched directly.
  const round: WorkerRound = { lastRunAt: null, lastOkAt: null, lastError: null };
  const http = await startWorkerHttp(deps, round);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const intervalMs = Math.max(config.jobIntervalMs, 100);
  const loop = () => {
    if (stopped) return;
    running = (async () => {
      const at = deps.clock.now();
      try {
        await refreshRail(deps);
        await watchEscrow(deps);
        await runPayouts(deps);
        await runWithdrawals(deps);
        await runErc8004(deps); // docs/erc-8004.md: a no-op without the reporter key
        Object.assign(round, { lastRunAt: at, lastOkAt: at, lastError: null });
      } catch (err) {
        logger.error({ err }, "settlement tick failed; retrying next tick");
        Object.assign(round, {
          lastRunAt: at,
          lastError: err instanceof Error ? err.message.slice(0, 300) : String(err),
        });
      }
    })().finally(() => {
      running = undefined;
      if (!stopped) timer = setTimeout(loop, intervalMs);
    });
  };
  loop();
  const shutdown = async (signal: string) => {
    if (stopped) return;
    stopped = true;
    logger.info({ signal }, "settlement worker stopping after the tick in progress");
    if (timer) clearTimeout(timer);
    http?.close();
    await running;
    await deps.database.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((e) => {
  console.error("fatal:", e instanceof Error ? e.message : e);
  process.exit(1);
});
