import { ctxForJob } from "../../lib/context";
import type { Job } from "../../jobs/job";
import { sweepDisputes } from "./disputes.resolve";

// AIP-4: appeal-linked bad_spec disputes and expired deadlines (§3.1).
export const disputesJobs: Job[] = [
  { name: "sweep_disputes", loop: "tick", run: (deps) => sweepDisputes(ctxForJob(deps)) },
];
