import type { Job } from "../../jobs/job";
import { runErc8004 } from "./erc8004.worker";

// Beside the payouts, in every process configured with the reporter key (docs/erc-8004.md).
export const erc8004Jobs: Job[] = [{ name: "run_erc8004", loop: "tick", run: (deps) => runErc8004(deps) }];
