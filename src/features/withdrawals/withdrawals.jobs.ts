import type { Job } from "../../jobs/job";
import { runWithdrawals } from "./withdrawals.worker";

// Withdrawals are paid beside the payouts, in the process holding the resolver key (a no-op elsewhere).
export const withdrawalJobs: Job[] = [{ name: "run_withdrawals", loop: "tick", run: (deps) => runWithdrawals(deps) }];
