import type { Deps } from "../deps";
import { runPendingChecks } from "./checks";
import { purgeExpiredAuth } from "./purge";
import { materialiseDecayBatch } from "../features/reputation/reputation.service";
import { sweepDueMissions } from "./sweeper";
import { watchEscrow } from "../features/escrow/escrow.watcher";
import { runPayouts } from "../features/escrow/escrow.worker";
import { purgeWebhookHistory, runWebhookJobs } from "./webhooks";
import { purgeEndedSessions } from "../features/mcp/mcp.sessions";
import { expireClaims } from "../features/claims/claims.expire";
import { verifyReportedHubs } from "../features/oadp/federation.verify";

export interface JobRunner {
  /** Runs every job once (tests call this with a manual clock). */
  tick(): Promise<void>;
  /** Stops the loop and waits for the tick in progress. */
  stop(): Promise<void>;
}

/**
 * The background loop: every `intervalMs`, sweep due missions, run pending checks, deliver
 * webhooks. All read their work from committed state, so a restart simply picks up where the
 * last run left off; all are safe to run on several servers at once (SKIP LOCKED / conditional
 * claims).
 */
export function startJobRunner(deps: Deps, intervalMs: number): JobRunner {
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      // Drain a backlog in bounded rounds (50 missions each), then let the next tick continue.
      for (let round = 0; round < 20 && !stopped; round++) if ((await sweepDueMissions(deps)) === 0) break;
      await runPendingChecks(deps);
      // base rail: deposits open missions, payouts move on chain (each a no-op with the rail off).
      await watchEscrow(deps);
      await runPayouts(deps);
      await purgeExpiredAuth(deps);
      await purgeEndedSessions(deps);
      await materialiseDecayBatch(deps);
      await runWebhookJobs(deps);
      await purgeWebhookHistory(deps);
      await expireClaims(deps);
      // OADP federation: only with OABP_OADP_FEDERATION_VERIFY (a no-op otherwise).
      await verifyReportedHubs(deps);
    } catch (err) {
      deps.logger.error({ err }, "job tick failed; retrying next tick");
    }
  };
  const loop = () => {
    if (stopped) return;
    running = tick().finally(() => {
      running = undefined;
      if (!stopped) timer = setTimeout(loop, intervalMs);
    });
  };
  if (intervalMs > 0) timer = setTimeout(loop, 0);
  return {
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
