// The public surface of the rail feature: what other features, app.ts and the job runner may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { chainHeads, pollDue, pollMsOf, recordWorkerRun } from "./rail.health";
export { BaseRailMisconfigured, checkBaseRail, forgottenContracts } from "./rail.startup";
export { markRoleMissing, railStatus, refreshRail } from "./rail.status";
export type { RailStatus } from "./rail.status";
export {
  ESCROW_MAX_RECIPIENTS,
  REFUND_GRACE_SECONDS,
  baseRailTerms,
  escrowRecordFor,
  escrowVersionOf,
  maxWinnersOnRail,
  refundAfterFor,
  signedOnlyUntilFor,
} from "./rail.terms";
export type { Tick } from "./rail.tick";
