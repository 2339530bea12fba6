// The public surface of the amendments feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { amendmentsJobs, expirePendingTopUps } from "./amendments.expiry";
export { amendMissionOp, amendmentsRouter } from "./amendments.index";
export { AmendMissionRequest, Amendment } from "./amendments.schemas";
export { AMENDMENTS_MAX_PER_MISSION, AMENDMENT_MAX_EXTENSION_SECONDS } from "./amendments.service";
