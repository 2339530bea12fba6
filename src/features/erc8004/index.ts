// The public surface of the erc8004 feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { erc8004Jobs } from "./erc8004.jobs";
export { agentErc8004, selfRegistrations } from "./erc8004.service";
export { runErc8004 } from "./erc8004.worker";
