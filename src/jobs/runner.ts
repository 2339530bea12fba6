import type { Deps } from "../deps";
import { processMetrics } from "../lib/metrics";
import type { Job } from "./job";
import { JOBS } from "./list";
import { SPAN_ERROR } from "../lib/tracing";

export interface JobRunner {
  /** Runs every job once, the checks included (tests call this with a manual clock). */
  tick(): Promise<void>;
  /** Stops both loops and waits for the rounds in progress. */
  stop(): Promise<void>;
}

/**
 * The first round waits too — one interval, at most this long — so a (re)started server answers
 * its first requests before the jobs' first round competes for its thread and its database: on the
 * embedded database that round took ≈ 0.3 s of a 2.6 s start (docs/operations.md "Start time").
 */
const FIRST_ROUND_MS = 1000;

/**
 * The background loops over a list of jobs (src/jobs/list.ts; each feature exports its own). Every
 * `intervalMs` the "tick" jobs run in list order; the "checks" jobs (remote verification checks)
 * run in a loop of their own, so sweeps, payouts and webhooks never wait behind a slow host.
 * A failed job ends its loop's round, logged with the job's name; the next
 * round starts over.
 */
export function startJobRunner(deps: Deps, intervalMs: number, jobs: readonly Job[] = JOBS): JobRunner {
  let stopped = false;
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const state = { stopped: () => stopped };
  const loopOf = (loop: Job["loop"]) => async () => {
    let current: string = loop;
    try {
      for (const job of jobs) {
        if (job.loop !== loop) continue;
        current = job.name;
        // One span per job run when tracing is on; no work at all when it is off.
        const span = deps.tracing?.tracer.startSpan(`job ${job.name}`, {
          attributes: { "oabp.job": job.name, "oabp.loop": loop },
        });
        processMetrics.jobStarted(job.name, deps.clock.now().getTime());
        try {
          await job.run(deps, state);
        } catch (err) {
          processMetrics.jobEnded(job.name, deps.clock.now().getTime(), false);
          span?.recordException(err as Error);
          span?.setStatus({ code: SPAN_ERROR });
          throw err;
        } finally {
          span?.end();
        }
        processMetrics.jobEnded(job.name, deps.clock.now().getTime(), true);
      }
    } catch (err) {
      deps.logger.error({ err, job: current }, "job round failed; retrying next round");
    }
  };
  const main = loopOf("tick");
  const checks = loopOf("checks");
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
    const t = setTimeout(
      () => {
        timers.delete(t);
        loop();
      },
      Math.min(intervalMs, FIRST_ROUND_MS),
    );
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
