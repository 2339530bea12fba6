import type { Job } from "../../jobs/job";
import { refreshRail } from "../rail";
import { watchEscrow } from "../deposits";
import { runPayouts } from "../payouts";

// base rail: deposits open missions, payouts move on chain (each a no-op with the rail off).
// The rail's own check first: an unavailable rail is checked again each poll and comes back by itself.
export const escrowJobs: Job[] = [
  { name: "check_base_rail", loop: "tick", run: (deps) => refreshRail(deps) },
  { name: "watch_escrow", loop: "tick", run: (deps) => watchEscrow(deps) },
  { name: "run_payouts", loop: "tick", run: (deps) => runPayouts(deps) },
];
