// The public surface of the portability feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { CROSS_SERVER_REFUSALS, crossServerIdentity } from "./portability.identity";
export { importedElos, importedReputation, portabilityRouter } from "./portability.index";
export { ImportedReputation } from "./portability.schemas";
