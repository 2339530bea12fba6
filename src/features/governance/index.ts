// The public surface of the governance feature: what other features, app.ts and the job runner may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { governanceCounts, pendingGovernance, recentGovernance } from "./governance.changes";
