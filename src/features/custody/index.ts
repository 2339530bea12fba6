// The public surface of the custody feature: what other features, app.ts and the job runner may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { recordEscrowEvent } from "./custody.exits";
export {
  inCustodyTx,
  judgeMovement,
  judgeProposal,
  raiseAlert,
  raiseForeignProposal,
  verifiedDecision,
} from "./custody.judge";
export { custodyAlertCounts, openCustodyAlerts } from "./custody.read";
