// The public surface of the portability feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { CROSS_SERVER_REFUSALS, crossServerIdentity } from "./portability.identity";
export { IMPORT_TRUST_FACTOR, TYPE_OVERLAP_TRUST_FACTOR } from "./portability.import";
export { importedElos, importedReputation, portabilityRouter } from "./portability.index";
export { ATTESTATION_TTL_DAYS } from "./portability.issue";
export { ImportedReputation } from "./portability.schemas";
