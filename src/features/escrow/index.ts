// The public surface of the escrow feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { firstPrice } from "./escrow.fees";
export { chainHeads } from "./escrow.health";
export { escrowRouter } from "./escrow.index";
export { escrowJobs } from "./escrow.jobs";
export { renderEscrowMetrics } from "./escrow.metrics";
export { allocateNonce, backoffMs } from "./escrow.payouts";
export { queueRefund, queueRelease } from "./escrow.queue";
export { railStatus, refreshRail } from "./escrow.rail";
export type { RailStatus } from "./escrow.rail";
export { baseReconciliation } from "./escrow.reconcile";
export { EscrowAttestation, MissionEscrowWire } from "./escrow.schemas";
export { BaseRailMisconfigured, checkBaseRail, forgottenContracts } from "./escrow.startup";
export {
  ESCROW_MAX_RECIPIENTS,
  REFUND_GRACE_SECONDS,
  baseRailTerms,
  escrowRecordFor,
  escrowVersionOf,
  maxWinnersOnRail,
  refundAfterFor,
  signedOnlyUntilFor,
} from "./escrow.terms";
export { acceptsTopUp, escrowSlots } from "./escrow.topups";
export type { EscrowSlot } from "./escrow.topups";
export { assertTreasuryCanPay, cachedTreasuryHealth, refreshTreasuryHealth } from "./escrow.treasury-health";
export type { TreasuryHealth } from "./escrow.treasury-health";
export { watchEscrow } from "./escrow.watcher";
export { escrowToWire } from "./escrow.wire";
export { runPayouts } from "./escrow.worker";
