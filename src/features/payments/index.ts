// The public surface of the payments feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { feesInRequest } from "./payments.fees";
export { paymentsRouter } from "./payments.index";
export { paymentsJobs } from "./payments.recover";
export { Deposit, DepositRequest } from "./payments.schemas";
export { deposit } from "./payments.service";
