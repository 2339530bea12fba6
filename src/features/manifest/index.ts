// The public surface of the manifest feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { manifestObject } from "./manifest";
export { AIPS, DISPUTE_TYPES } from "./manifest.aips";
export type { DisputeType } from "./manifest.aips";
export { manifestRouter } from "./manifest.index";
