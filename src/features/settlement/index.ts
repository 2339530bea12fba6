// The public surface of the settlement feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { payOneWinner, resolveAndPay } from "./settlement";
export { plannedReleases } from "./settlement.split";
export type { SlotRelease, Winner } from "./settlement.split";
export { voidAndRefund } from "./settlement.void";
