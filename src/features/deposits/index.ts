// The public surface of the deposits feature: what other features, app.ts and the job runner may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { DEPOSIT_REJECTIONS, checkDepositReceipt, missionTerms } from "./deposits.check";
export { depositsOfTx, recordDeposit, resolverRefunds } from "./deposits.record";
export { acceptsTopUp, escrowSlots } from "./deposits.topups";
export type { EscrowSlot } from "./deposits.topups";
export { watchEscrow } from "./deposits.watcher";
