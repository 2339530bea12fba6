// The public surface of the disputes feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { disputesRouter, fileDisputeOp, getDisputeOp } from "./disputes.index";
export { disputesJobs } from "./disputes.jobs";
export { Dispute, FileDisputeRequest } from "./disputes.schemas";
