import type { Deps } from "../deps";

/**
 * A background job: each feature exports its own (`<feature>Jobs` from its index.ts),
 * src/jobs/list.ts puts them in order, and the runner runs that list.
 */
export interface Job {
  /** Logged with a failed round. */
  name: string;
  /**
   * "tick": the main loop, the jobs in list order every OABP_JOB_INTERVAL_MS. "checks": the loop
   * of remote verification checks, on the same interval but apart, so sweeps, payouts and
   * webhooks never wait behind a slow host.
   */
  loop: "tick" | "checks";
  /** One round. `stopped()` turns true once the runner is stopping: a draining job ends early. */
  run(deps: Deps, round: { stopped(): boolean }): Promise<unknown>;
}
