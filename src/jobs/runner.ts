import type { Deps } from "../deps";
import { runPendingChecks } from "./checks";
import { purgeExpiredAuth } from "./purge";
import { materialiseDecayBatch, purgeRatingVersions } from "../features/reputation";
import { sweepDueMissions } from "./sweeper";
import { watchEscrow, runPayouts } from "../features/escrow";
import { purgeWebhookHistory, runWebhookJobs } from "./webhooks";
import { purgeEndedSessions } from "../features/mcp";
import { expireClaims } from "../features/claims";
import { verifyReportedHubs } from "../features/oadp";
import { sweepDisputes } from "../features/disputes";

export interface JobRunner {
  /** Runs every job once, the checks included (tests call this with a manual clock). */
  tick(): Promise<void>;
  /** Stops both loops and waits for the rounds in progress. */
  stop(): Promise<void>;
}

/**
 * The background loops. Every `intervalMs`: sweep due missions, watch escrow and payouts, purge,
 * deliver webhooks. Remote verification checks (content fetches, predicate calls) run in a loop of
 * their own with several workers (checks.ts), so sweeps, payouts and webhooks never wait behind a
 * slow host (issue 13 finding 1). All read their work from committed state, so a restart simply
 * picks up where the last run left off; all are safe to run on several servers at once
 * (SKIP LOCKED / conditional claims / leases).
 */
export function startJobRunner(deps: Deps, intervalMs: number): JobRunner {
  let stopped = false;
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const guard = (name: string, work: () => Promise<unknown>) => async () => {
    try {
      await work();
    } catch (err) {
      deps.logger.error({ err, job: name }, "job round failed; retrying next round");
    }
  };
  const main = guard("tick", async () => {
    // Drain a backlog in bounded rounds (50 missions each), then let the next tick continue.
    for (let round = 0; round < 20 && !stopped; round++) if ((await sweepDueMissions(deps)) === 0) break;
    // base rail: deposits open missions, payouts move on chain (each a no-op with the rail off).
    await watchEscrow(deps);
    await runPayouts(deps);
    await purgeExpiredAuth(deps);
    await purgeEndedSessions(deps);
    await materialiseDecayBatch(deps);
    await purgeRatingVersions(deps);
    await runWebhookJobs(deps);
    await purgeWebhookHistory(deps);
    await expireClaims(deps);
    // OADP federation: only with OABP_OADP_FEDERATION_VERIFY (a no-op otherwise).
    await verifyReportedHubs(deps);
    // AIP-4: appeal-linked bad_spec disputes and expired deadlines (§3.1).
    await sweepDisputes(deps);
  });
  const checks = guard("checks", () => runPendingChecks(deps));
  const every = (round: () => Promise<void>) => {
    const loop = () => {
      if (stopped) return;
      const p = round().finally(() => {
        running.delete(p);
        if (!stopped) {
          const t = setTimeout(() => {
            timers.delete(t);
            loop();
          }, intervalMs);
          timers.add(t);
        }
      });
      running.add(p);
    };
    const t = setTimeout(() => {
      timers.delete(t);
      loop();
    }, 0);
    timers.add(t);
  };
  if (intervalMs > 0) {
    every(main);
    every(checks);
  }
  return {
    async tick() {
      await main();
      await checks();
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      await Promise.all([...running]);
    },
  };
}
