// The public surface of the payouts feature: what other features, app.ts and the job runner may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { actOnPayout, listPayouts } from "./payouts.admin";
export { convertPayout } from "./payouts.convert";
export { firstPrice } from "./payouts.fees";
export { releasePathWire } from "./payouts.paths";
export { queueRefund, queueRelease } from "./payouts.queue";
export { allocateNonce, backoffMs } from "./payouts.transition";
export { runPayouts } from "./payouts.worker";
