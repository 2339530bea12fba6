import type { Job } from "../../jobs/job";
import { verifyReportedHubs } from "./federation.verify";

// OADP federation: only with OABP_OADP_FEDERATION_VERIFY (a no-op otherwise).
export const oadpJobs: Job[] = [
  { name: "verify_reported_hubs", loop: "tick", run: (deps) => verifyReportedHubs(deps) },
];
