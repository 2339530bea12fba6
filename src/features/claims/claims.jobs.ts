import type { Job } from "../../jobs/job";
import { expireClaims } from "./claims.expire";

export const claimsJobs: Job[] = [{ name: "expire_claims", loop: "tick", run: (deps) => expireClaims(deps) }];
