// The public surface of the escrow feature: what other features, app.ts and the job runner may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { escrowRouter } from "./escrow.index";
export { escrowJobs } from "./escrow.jobs";
export { renderEscrowMetrics } from "./escrow.metrics";
export { baseReconciliation } from "./escrow.reconcile";
export { EscrowAttestation, MissionEscrowWire } from "./escrow.schemas";
export { assertTreasuryCanPay, cachedTreasuryHealth, refreshTreasuryHealth } from "./escrow.treasury-health";
export type { TreasuryHealth } from "./escrow.treasury-health";
export { escrowToWire } from "./escrow.wire";
