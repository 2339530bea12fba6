import type { Job } from "../../jobs/job";
import { watchEscrow } from "./escrow.watcher";
import { runPayouts } from "./escrow.worker";

// base rail: deposits open missions, payouts move on chain (each a no-op with the rail off).
export const escrowJobs: Job[] = [
  { name: "watch_escrow", loop: "tick", run: (deps) => watchEscrow(deps) },
  { name: "run_payouts", loop: "tick", run: (deps) => runPayouts(deps) },
];
