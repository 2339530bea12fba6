// The public surface of the withdrawals feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { withdrawOp, withdrawalsRouter } from "./withdrawals.index";
export { withdrawalJobs } from "./withdrawals.jobs";
export { Withdrawal, WithdrawalRequest } from "./withdrawals.routes";
export { withdrawalTotals } from "./withdrawals.service";
export { runWithdrawals } from "./withdrawals.worker";
