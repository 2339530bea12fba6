// The public surface of the claims feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { claimOp, claimsRouter } from "./claims.index";
export { claimsJobs } from "./claims.jobs";
export { Claim } from "./claims.schemas";
export { activeClaimsOfAgents, listClaims } from "./claims.service";
