import type { Job } from "../../jobs/job";
import { purgeRatingVersions } from "./reputation.history";
import { materialiseDecayBatch } from "./reputation.service";

export const reputationJobs: Job[] = [
  { name: "materialise_decay", loop: "tick", run: (deps) => materialiseDecayBatch(deps) },
  { name: "purge_rating_versions", loop: "tick", run: (deps) => purgeRatingVersions(deps) },
];
